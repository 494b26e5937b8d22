// files of their own (?no-inline), not data: addresses in the first script: a page shows one flag,
// and the script carried all eight (about 0.5 kB of its brotli)
import enFlag from '../../assets/flags/en.svg?no-inline';
import esFlag from '../../assets/flags/es.svg?no-inline';
import frFlag from '../../assets/flags/fr.svg?no-inline';
import ptFlag from '../../assets/flags/pt.svg?no-inline';
import zhFlag from '../../assets/flags/zh.svg?no-inline';
import arFlag from '../../assets/flags/ar.svg?no-inline';
import deFlag from '../../assets/flags/de.svg?no-inline';
import globeFlag from '../../assets/flags/globe.svg?no-inline';

/** §3 language option: display name, CSS selector name, language code (param), flag image address. */
export interface LanguageOption {
  displayName: string;
  cssName: string;
  param: string;
  flag: string;
}

/** The bundled languages; each has a catalog in every namespace. English is the source. */
export const BUNDLED_LANGUAGES = ['en', 'es', 'fr', 'pt', 'zh', 'ar', 'de'] as const;
export type BundledLanguage = (typeof BUNDLED_LANGUAGES)[number];
export const SOURCE_LANGUAGE: BundledLanguage = 'en';

/** Names in their own language, so a reader finds theirs whatever the page language is. */
const DISPLAY_NAMES: Record<string, string> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  pt: 'Português',
  zh: '中文',
  ar: 'العربية',
  de: 'Deutsch',
};
const FLAGS: Record<string, string> = {
  en: enFlag,
  es: esFlag,
  fr: frFlag,
  pt: ptFlag,
  zh: zhFlag,
  ar: arFlag,
  de: deFlag,
};

function languageOption(code: string, displayName?: string): LanguageOption {
  return {
    displayName: displayName ?? DISPLAY_NAMES[code] ?? code,
    cssName: `lang-${code.toLowerCase().replace(/[^a-z0-9-]/g, '')}`,
    param: code,
    flag: FLAGS[code] ?? globeFlag,
  };
}

/** §3: English (en) always first, then the configured languages (duplicates of en dropped). */
export function languageOptions(configured: readonly string[]): LanguageOption[] {
  const rest = configured.filter((c, i) => c !== 'en' && configured.indexOf(c) === i);
  return [languageOption('en'), ...rest.map((c) => languageOption(c))];
}

import type { Translator } from './translator.ts';
import { BUNDLED_LANGUAGES } from './languages.ts';
import type { BundledLanguage } from './languages.ts';
import type { LanguageCatalogs } from './resources.ts';

/**
 * One chunk per language with its catalogs of every namespace but the later pages' (build/catalogs.ts
 * makes them from resources.ts), so a page downloads only the strings of its own language.
 */
const catalogChunks: Record<
  BundledLanguage,
  () => Promise<{ default: LanguageCatalogs; later: () => Promise<{ default: LanguageCatalogs }> }>
> = {
  en: () => import('virtual:fd-catalogs/en'),
  es: () => import('virtual:fd-catalogs/es'),
  fr: () => import('virtual:fd-catalogs/fr'),
  pt: () => import('virtual:fd-catalogs/pt'),
  zh: () => import('virtual:fd-catalogs/zh'),
  ar: () => import('virtual:fd-catalogs/ar'),
  de: () => import('virtual:fd-catalogs/de'),
};

export const isBundled = (code: string | null | undefined): code is BundledLanguage =>
  BUNDLED_LANGUAGES.some((bundled) => bundled === code);

/**
 * A language's later pages' catalogs (use-later-translation.ts), asked through its first chunk, which
 * names them (loaded already: the browser answers it from its module map).
 */
export const loadLaterCatalogs = (code: BundledLanguage): Promise<{ default: LanguageCatalogs }> =>
  catalogChunks[code]().then(({ later }) => later());

/**
 * What else a language brings once a page has asked for it (use-later-translation.ts adds the later
 * pages' catalogs): a language chosen on such a page shows with all its texts at once.
 */
export const alsoLoad: ((i18n: Translator, code: BundledLanguage) => Promise<void>)[] = [];

/** Gives the translator the catalogs of a bundled language, downloading them unless it has them already. */
export async function loadLanguage(i18n: Translator, code: BundledLanguage): Promise<void> {
  await Promise.all([
    !i18n.hasLanguage(code) &&
      catalogChunks[code]().then(({ default: catalogs }) => i18n.addLanguage(code, catalogs)),
    ...alsoLoad.map((load) => load(i18n, code)),
  ]);
}

import type { Translator } from './translator.ts';
import { BUNDLED_LANGUAGES } from './languages.ts';
import type { BundledLanguage } from './languages.ts';
import type { LanguageCatalogs } from './resources.ts';

/**
 * One chunk per language with its catalogs of every namespace (build/catalogs.ts makes them from
 * resources.ts), so a page downloads only the strings of its own language.
 */
const catalogChunks: Record<BundledLanguage, () => Promise<{ default: LanguageCatalogs }>> = {
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

/** Gives the translator the catalogs of a bundled language, downloading them unless it has them already. */
export async function loadLanguage(i18n: Translator, code: BundledLanguage): Promise<void> {
  if (i18n.hasLanguage(code)) return;
  const { default: catalogs } = await catalogChunks[code]();
  i18n.addLanguage(code, catalogs);
}

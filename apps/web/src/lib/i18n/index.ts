import { Translator } from './translator.ts';
import { LOCALE_PARAM, directionOf, negotiateLanguage } from '@frontdoor/contract';
import type { PortalConfig } from '@frontdoor/contract';
import { setRequestLanguage } from '../http.ts';
import type { Resources } from './resources.ts';
import { isBundled, loadLanguage } from './load.ts';
import { BUNDLED_LANGUAGES, SOURCE_LANGUAGE } from './languages.ts';
import type { BundledLanguage } from './languages.ts';
import { builtInTranslationService, rememberLanguage, rememberedLanguage } from './service.ts';
import type { TranslationService } from './service.ts';

export type { TranslationService } from './service.ts';
export type { LanguageOption } from './languages.ts';
export { isBundled, loadLanguage };

/** ?locale=xx on any page switches the language (§2). */
export { LOCALE_PARAM };

/** Sets <html lang dir> and the API's Accept-Language for a language code. */
export function applyDocumentLanguage(code: string): void {
  document.documentElement.lang = code;
  document.documentElement.dir = directionOf(code);
  setRequestLanguage(code);
}

/** A translator in `language`, holding the given catalogs (more are added by loadLanguage). */
export function createI18n(language: string, resources: Partial<Resources>): Translator {
  const instance = new Translator(language, resources);
  // prerendering (build time) has no document: it writes the page's <html lang dir> itself
  if (typeof document === 'undefined') return instance;
  instance.subscribe(applyDocumentLanguage);
  applyDocumentLanguage(instance.language);
  return instance;
}

/**
 * The first language, negotiated as the server picks the page's (the contract's negotiateLanguage):
 * ?locale, else the one chosen before, else the browser's languages (es-ES → es), else English.
 */
export function initialLanguage(search: string): BundledLanguage {
  return negotiateLanguage(
    {
      asked: new URLSearchParams(search).get(LOCALE_PARAM),
      stored: rememberedLanguage(),
      accepted: navigator.languages,
    },
    BUNDLED_LANGUAGES,
    SOURCE_LANGUAGE,
  );
}

/** A built-in i18n in a bundled language, its catalogs loaded; a chosen language also goes in the cookie. */
async function builtIn(language: BundledLanguage) {
  const i18n = createI18n(language, {});
  await loadLanguage(i18n, language);
  // a choice from before the cookie existed reaches the server from the next page on
  if (rememberedLanguage() === language) rememberLanguage(language);
  return { i18n, service: builtInTranslationService(i18n) };
}

/**
 * Sets up translation for a loaded config: the hosted widget when cfg.translation has a key and a
 * script (its script is only fetched then), else the built-in catalogs. A widget that fails to load
 * falls back to the built-in service, so the page is never left untranslatable. `language` forces
 * the first language (a prerendered page is hydrated in the language it was answered in).
 */
export async function initTranslation(
  cfg: Pick<PortalConfig, 'translation'>,
  search: string = window.location.search,
  language?: BundledLanguage,
): Promise<{ i18n: Translator; service: TranslationService }> {
  const { key, scriptUrl } = cfg.translation;
  if (key && scriptUrl) {
    const i18n = createI18n(SOURCE_LANGUAGE, {});
    try {
      const { hostedTranslationService, loadHostedWidget } = await import('./hosted.ts');
      const [widget] = await Promise.all([
        loadHostedWidget(scriptUrl, key),
        loadLanguage(i18n, SOURCE_LANGUAGE),
      ]);
      const service = hostedTranslationService(widget);
      service.subscribe(applyDocumentLanguage);
      applyDocumentLanguage(service.current());
      return { i18n, service };
    } catch (error) {
      console.warn('Translation widget unavailable; using the bundled catalogs.', error);
    }
  }
  return builtIn(language ?? initialLanguage(search));
}

import i18next from 'i18next';
import type { i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { PortalConfig } from '@frontdoor/contract';
import { setRequestLanguage } from '../http.ts';
import { buildResources, namespaces } from './resources.ts';
import { BUNDLED_LANGUAGES, SOURCE_LANGUAGE, directionOf } from './languages.ts';
import {
  builtInTranslationService,
  hostedTranslationService,
  loadHostedWidget,
  rememberedLanguage,
} from './service.ts';
import type { TranslationService } from './service.ts';

export type { TranslationService } from './service.ts';
export type { LanguageOption } from './languages.ts';

/** ?locale=xx on any page switches the language (§2). */
export const LOCALE_PARAM = 'locale';

/** Sets <html lang dir> and the API's Accept-Language for a language code. */
export function applyDocumentLanguage(code: string): void {
  document.documentElement.lang = code;
  document.documentElement.dir = directionOf(code);
  setRequestLanguage(code);
}

/** An i18next instance holding every bundled catalog (all namespaces, all languages). */
export function createI18n(language: string = SOURCE_LANGUAGE): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources: buildResources(),
    lng: language,
    fallbackLng: SOURCE_LANGUAGE,
    supportedLngs: [...BUNDLED_LANGUAGES],
    ns: Object.keys(namespaces),
    defaultNS: 'common',
    // React escapes what it renders; escaping here too would show &amp; etc.
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  instance.on('languageChanged', applyDocumentLanguage);
  applyDocumentLanguage(instance.language);
  return instance;
}

/** The first language: ?locale when bundled, else the one chosen before, else English. */
export function initialLanguage(search: string): string {
  const supported = new Set<string>(BUNDLED_LANGUAGES);
  const fromQuery = new URLSearchParams(search).get(LOCALE_PARAM);
  if (fromQuery && supported.has(fromQuery)) return fromQuery;
  const remembered = rememberedLanguage();
  return remembered && supported.has(remembered) ? remembered : SOURCE_LANGUAGE;
}

/**
 * Sets up translation for a loaded config: the hosted widget when cfg.translation has a key and a
 * script (its script is only fetched then), else the built-in catalogs. A widget that fails to load
 * falls back to the built-in service, so the page is never left untranslatable.
 */
export async function initTranslation(
  cfg: Pick<PortalConfig, 'translation'>,
  search: string = window.location.search,
): Promise<{ i18n: I18n; service: TranslationService }> {
  const { key, scriptUrl } = cfg.translation;
  if (key && scriptUrl) {
    const i18n = createI18n(SOURCE_LANGUAGE);
    try {
      const widget = await loadHostedWidget(scriptUrl, key);
      const service = hostedTranslationService(widget);
      service.subscribe(applyDocumentLanguage);
      applyDocumentLanguage(service.current());
      return { i18n, service };
    } catch (error) {
      console.warn('Translation widget unavailable; using the bundled catalogs.', error);
    }
  }
  const i18n = createI18n(initialLanguage(search));
  return { i18n, service: builtInTranslationService(i18n) };
}

import type { Translator } from './translator.ts';
import { LANGUAGE_COOKIE, STORAGE_KEYS } from '@frontdoor/contract';
import type { ExcludedPath } from './excluded-paths.ts';
import { BUNDLED_LANGUAGES, languageOptions } from './languages.ts';
import { isBundled, loadLanguage } from './load.ts';
import type { LanguageOption } from './languages.ts';

/**
 * The translation service of §7: the shell asks it for the language list, the paths it leaves
 * untranslated, the current language, and to switch language. Two implementations: built-in
 * (the app's translator with bundled catalogs) and hosted (a translation widget, when
 * cfg.translation.key is set: hosted.ts, loaded only then).
 */
export interface TranslationService {
  readonly kind: 'built-in' | 'hosted';
  languages(): LanguageOption[];
  excludedPaths(): ExcludedPath[];
  current(): string;
  /** Switches the page language and keeps the choice, also when current; unknown codes are ignored. */
  change(code: string): Promise<void>;
  /** Called after every language change; returns the unsubscribe function. */
  subscribe(listener: (code: string) => void): () => void;
}

/** A year: the choice outlives the browser session, like localStorage. */
const LANGUAGE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** Keeps the choice in localStorage, and in a cookie so the server answers the next page in it. */
export function rememberLanguage(code: string): void {
  const secure = window.location.protocol === 'https:' ? '; secure' : '';
  document.cookie = `${LANGUAGE_COOKIE}=${encodeURIComponent(code)}; path=/; max-age=${LANGUAGE_COOKIE_MAX_AGE_S}; samesite=lax${secure}`;
  try {
    localStorage.setItem(STORAGE_KEYS.language, code);
  } catch {
    // storage unavailable: the cookie keeps the choice
  }
}

/** The choice kept in this browser: localStorage's, else the cookie's (what the server reads). */
export function rememberedLanguage(): string | null {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(STORAGE_KEYS.language);
  } catch {
    // storage unavailable: the cookie keeps the choice
  }
  return stored ?? cookieLanguage();
}

function cookieLanguage(): string | null {
  const prefix = `${LANGUAGE_COOKIE}=`;
  const pair = document.cookie.split('; ').find((c) => c.startsWith(prefix));
  return pair ? decodeURIComponent(pair.slice(prefix.length)) : null;
}

/** (a) Built-in: the translator with the bundled catalogs; no path is excluded. */
export function builtInTranslationService(i18n: Translator): TranslationService {
  return {
    kind: 'built-in',
    languages: () => languageOptions(BUNDLED_LANGUAGES),
    excludedPaths: () => [],
    current: () => i18n.language,
    async change(code) {
      if (!isBundled(code)) return;
      if (code !== i18n.language) {
        await loadLanguage(i18n, code);
        i18n.changeLanguage(code);
      }
      // kept also when it is the current one: a ?locale the page was answered in outlives the page
      rememberLanguage(code);
    },
    subscribe: (listener) => i18n.subscribe(listener),
  };
}

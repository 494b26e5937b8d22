import type { Translator } from './translator.ts';
import { LANGUAGE_COOKIE, STORAGE_KEYS } from '@frontdoor/contract';
import type { ExcludedPath } from './excluded-paths.ts';
import { BUNDLED_LANGUAGES, languageOptions } from './languages.ts';
import { isBundled, loadLanguage } from './load.ts';
import type { LanguageOption } from './languages.ts';

/**
 * The translation service of §7: the shell asks it for the language list, the paths it leaves
 * untranslated, the current language, and to switch language. Two implementations: built-in
 * (the app's translator with bundled catalogs) and hosted (a translation widget, when cfg.translation.key is set).
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

/**
 * The API of the hosted translation widget we adapt to (the widget script defines it as a global).
 * Its dashboard holds the language list and the excluded paths; we only read them.
 */
export interface HostedWidget {
  initialize(options: { api_key: string; hide_switcher: boolean }): void;
  on(event: 'initialized', callback: () => void): void;
  on(event: 'languageChanged', callback: (code: string) => void): void;
  off?(event: 'languageChanged', callback: (code: string) => void): void;
  switchTo(code: string): void;
  getCurrentLang(): string;
  options: {
    language_from?: string;
    languages?: { language_to: string; enabled?: boolean }[];
    excluded_paths?: { value: string; type: string }[];
  };
}

export const HOSTED_WIDGET_GLOBAL = 'Weglot';

/** Maps the widget's path rule types onto exact/prefix; the rules it may have beyond those are dropped. */
export function widgetExcludedPaths(widget: HostedWidget): ExcludedPath[] {
  return (widget.options.excluded_paths ?? []).flatMap((p): ExcludedPath[] => {
    if (p.type === 'IS_EXACTLY') return [{ value: p.value, match: 'exact' }];
    if (p.type === 'START_WITH') return [{ value: p.value, match: 'prefix' }];
    return [];
  });
}

/** (b) Hosted: the widget translates the page; the menu drives it. */
export function hostedTranslationService(widget: HostedWidget): TranslationService {
  const listeners = new Set<(code: string) => void>();
  widget.on('languageChanged', (code) => listeners.forEach((l) => l(code)));
  const configured = () =>
    (widget.options.languages ?? []).filter((l) => l.enabled !== false).map((l) => l.language_to);
  return {
    kind: 'hosted',
    languages: () => languageOptions(configured()),
    excludedPaths: () => widgetExcludedPaths(widget),
    current: () => widget.getCurrentLang(),
    async change(code) {
      if (code !== 'en' && !configured().includes(code)) return;
      if (code !== widget.getCurrentLang()) widget.switchTo(code);
      rememberLanguage(code);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`Could not load ${src}`));
    document.head.append(script);
  });
}

/** Loads the widget script, initialises it with the public key and waits until it is ready. */
export async function loadHostedWidget(scriptUrl: string, key: string): Promise<HostedWidget> {
  await loadScript(scriptUrl);
  const widget = (window as unknown as Record<string, HostedWidget | undefined>)[HOSTED_WIDGET_GLOBAL];
  if (!widget) throw new Error(`${scriptUrl} did not define ${HOSTED_WIDGET_GLOBAL}`);
  // our own menu replaces the widget's switcher
  await new Promise<void>((resolve) => {
    widget.on('initialized', resolve);
    widget.initialize({ api_key: key, hide_switcher: true });
  });
  return widget;
}

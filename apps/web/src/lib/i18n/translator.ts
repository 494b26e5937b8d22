import { directionOf } from '@frontdoor/contract';
import type { LanguageCatalogs } from './resources.ts';

/** What a text may be given: values for its `{{name}}` placeholders, and the text when the key has none. */
export type TranslateOptions = { defaultValue?: string } & Record<string, unknown>;

/** A key ('title', or 'errors:emailInvalid' for another namespace) → the text in the current language. */
export type TFunction = (key: string, options?: TranslateOptions) => string;

const NAMESPACE_SEPARATOR = ':';
const PLACEHOLDER = /\{\{\s*([\w.]+)\s*\}\}/g;

/**
 * Fills `{{name}}` placeholders; one without a value stays as written, so a missing value shows.
 * `isolate` sets each value apart in its own direction (U+2068 … U+2069): in a right-to-left
 * sentence an address such as `stud-ar@demo.example` would otherwise be reordered around its `-`.
 */
export function interpolate(text: string, values: Record<string, unknown> = {}, isolate = false): string {
  return text.replace(PLACEHOLDER, (placeholder, name: string) => {
    const value = values[name];
    if (value === undefined || value === null) return placeholder;
    return isolate ? `\u2068${String(value)}\u2069` : String(value);
  });
}

/**
 * The app's translator: each language's catalogs by namespace, the current language, and a listener
 * per language change. The catalogs need nothing more (no plurals, nesting or formats:
 * catalogs.test.ts), so it stands in for i18next, about 15 kB less in the first script
 * (bench/README.md). A key no catalog has shows its default value, else the key itself.
 */
export class Translator {
  #language: string;
  readonly #catalogs = new Map<string, LanguageCatalogs>();
  readonly #listeners = new Set<(code: string) => void>();

  constructor(language: string, catalogs: Partial<Record<string, LanguageCatalogs>> = {}) {
    this.#language = language;
    for (const [code, languageCatalogs] of Object.entries(catalogs))
      if (languageCatalogs) this.addLanguage(code, languageCatalogs);
  }

  get language(): string {
    return this.#language;
  }

  hasLanguage(code: string): boolean {
    return this.#catalogs.has(code);
  }

  holds(code: string, namespace: string): boolean {
    return !!this.#catalogs.get(code)?.[namespace];
  }

  /** Adds a language's catalogs (namespace → key → text) to those it holds. */
  addLanguage(code: string, catalogs: LanguageCatalogs): void {
    const held = this.#catalogs.get(code) ?? {};
    for (const [namespace, texts] of Object.entries(catalogs))
      held[namespace] = { ...held[namespace], ...texts };
    this.#catalogs.set(code, held);
  }

  /** The text of `key` ('namespace:key', or a key of `namespace`) in the current language. */
  t(key: string, options: TranslateOptions = {}, namespace = 'common'): string {
    const split = key.indexOf(NAMESPACE_SEPARATOR);
    const [ns, name] = split < 0 ? [namespace, key] : [key.slice(0, split), key.slice(split + 1)];
    const text = this.#catalogs.get(this.#language)?.[ns]?.[name] ?? options.defaultValue ?? name;
    return interpolate(text, options, this.#rtl());
  }

  /** A value to set into a text of the current language, apart in its own direction where that is right to left. */
  isolated(value: string): string {
    return interpolate('{{value}}', { value }, this.#rtl());
  }

  #rtl = (): boolean => directionOf(this.#language) === 'rtl';

  /** Switches the language (its catalogs loaded first: load.ts) and tells every listener. */
  changeLanguage(code: string): void {
    if (code === this.#language) return;
    this.#language = code;
    for (const listener of this.#listeners) listener(code);
  }

  /** Calls `listener` after each language change; returns the unsubscribe function. */
  readonly subscribe = (listener: (code: string) => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };
}

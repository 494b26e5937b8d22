/**
 * Language negotiation, one order for the server's page, the SPA's first language and the mails:
 * the language asked for (?locale), then the one chosen before (the menu's stored choice), then the
 * browser's languages best first (navigator.languages in the SPA, Accept-Language on the server),
 * then the fallback.
 */
export interface LanguageAsked {
  /** ?locale of the address. */
  asked?: string | null | undefined;
  /** The choice kept in this browser (the language menu, or a ?locale seen before). */
  stored?: string | null | undefined;
  /** The browser's languages, best first. */
  accepted?: readonly string[] | undefined;
}

/**
 * The supported language a tag names: itself (any case), else its base language (es-ES → es,
 * zh-Hant-TW → zh, pt_BR → pt), else null.
 */
export function matchLanguage<L extends string>(
  tag: string | null | undefined,
  supported: readonly L[],
): L | null {
  const wanted = (tag ?? '').trim().toLowerCase();
  if (!wanted) return null;
  const base = wanted.split(/[-_]/)[0];
  return (
    supported.find((code) => code.toLowerCase() === wanted) ??
    supported.find((code) => code.toLowerCase() === base) ??
    null
  );
}

/**
 * An Accept-Language header as the list of tags it accepts, best first (q-values honoured, ties kept
 * in order, q=0 dropped): what navigator.languages is in the browser that sent it.
 */
export function acceptedLanguages(header: string | null | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';').map((s) => s.trim());
      const q = params.find((p) => p.toLowerCase().startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag, index, weight: Number.isFinite(weight) ? weight : 0 };
    })
    .filter((entry) => entry.tag && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}

/** The language to answer in: the first of asked, stored, accepted… that is supported, else `fallback`. */
export function negotiateLanguage<L extends string>(
  { asked, stored, accepted = [] }: LanguageAsked,
  supported: readonly L[],
  fallback: L,
): L {
  const chosen = matchLanguage(asked, supported) ?? matchLanguage(stored, supported);
  if (chosen) return chosen;
  for (const tag of accepted) {
    // "any language" takes the fallback before the tags after it
    if (tag.trim() === '*') return fallback;
    const match = matchLanguage(tag, supported);
    if (match) return match;
  }
  return fallback;
}

const RTL_LANGUAGES = new Set(['ar', 'he', 'fa', 'ur']);

/** The writing direction of a language tag, for `<html dir>` of the SPA, the prerendered pages and the server's pages. */
export const directionOf = (code: string): 'rtl' | 'ltr' =>
  RTL_LANGUAGES.has(code.split('-')[0] ?? code) ? 'rtl' : 'ltr';

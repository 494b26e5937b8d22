/** A path the translation service leaves untranslated; the language menu is hidden there (§2). */
export interface ExcludedPath {
  value: string;
  /** 'exact': the path itself only; 'prefix': the path and everything below it. */
  match: 'exact' | 'prefix';
}

const trimSlash = (p: string): string => (p.length > 1 ? p.replace(/\/+$/, '') : p);

export function isExcludedPath(pathname: string, excluded: readonly ExcludedPath[]): boolean {
  const path = trimSlash(pathname);
  return excluded.some((e) => {
    const value = trimSlash(e.value);
    return e.match === 'exact' ? path === value : path.startsWith(value);
  });
}

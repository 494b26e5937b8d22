/** A language's catalogs of every namespace but the later ones, made at build time by build/catalogs.ts. */
declare module 'virtual:fd-catalogs/*' {
  // LanguageCatalogs (resources.ts): namespace → key → text
  const catalogs: Record<string, Record<string, string>>;
  export default catalogs;
  /** The same language's later pages' catalogs (`virtual:fd-later-catalogs/<language>`). */
  export const later: () => Promise<{ default: Record<string, Record<string, string>> }>;
}

/** A language's catalogs of the later pages' namespaces (resources.ts `LATER_NAMESPACES`). */
declare module 'virtual:fd-later-catalogs/*' {
  const catalogs: Record<string, Record<string, string>>;
  export default catalogs;
}

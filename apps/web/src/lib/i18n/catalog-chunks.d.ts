/** A language's catalogs of every namespace but the later ones, made at build time by build/catalogs.ts. */
declare module 'virtual:fd-catalogs/*' {
  // LanguageCatalogs (resources.ts): namespace → key → text
  const catalogs: Record<string, Record<string, string>>;
  export default catalogs;
}

/** A language's catalogs of the later pages' namespaces (resources.ts `LATER_NAMESPACES`). */
declare module 'virtual:fd-later-catalogs/*' {
  const catalogs: Record<string, Record<string, string>>;
  export default catalogs;
}

/** A language's catalogs of every namespace, made at build time by build/catalogs.ts. */
declare module 'virtual:fd-catalogs/*' {
  // LanguageCatalogs (resources.ts): namespace → key → text
  const catalogs: Record<string, Record<string, string>>;
  export default catalogs;
}

import path from 'node:path';
import { runnerImport } from 'vite';
import type { Plugin } from 'vite';
import { SERVER_PAGE_MESSAGE_CODES } from '@frontdoor/contract';
import type * as Resources from '../src/lib/i18n/resources.ts';

const PREFIX = 'virtual:fd-catalogs/';
const LATER_PREFIX = 'virtual:fd-later-catalogs/';
const RESOURCES = path.resolve(import.meta.dirname, '../src/lib/i18n/resources.ts');

type ResourcesModule = typeof Resources;

/**
 * Catalogs taken from another module rather than written out, by language and namespace: English
 * `errors` IS the contract's `messages` (catalogs.test.ts), imported so that it exists once; as the
 * first script imports only the codes, those texts land in this language's chunk alone
 * (first-script.test.ts).
 */
const IMPORTED: Record<string, Record<string, { name: string; from: string }>> = {
  en: { errors: { name: 'messages', from: '@frontdoor/contract' } },
};

const SERVER_PAGES_ONLY = new Set<string>(SERVER_PAGE_MESSAGE_CODES);

/** A namespace as a browser needs it: errors without the words only the server's own pages show. */
const sent = (namespace: string, catalog: unknown): unknown =>
  namespace === 'errors'
    ? Object.fromEntries(
        Object.entries(catalog as Record<string, string>).filter(([code]) => !SERVER_PAGES_ONLY.has(code)),
      )
    : catalog;

/**
 * The module of one language's catalogs: its own texts written out (less the server's page words),
 * the ones listed above imported; the first part's module also exports `later`, the loader of the
 * later part (`laterId`).
 */
export function catalogModule(language: string, catalogs: Record<string, unknown>, laterId?: string): string {
  const imported = Object.fromEntries(
    Object.entries(IMPORTED[language] ?? {}).filter(([namespace]) => namespace in catalogs),
  );
  const written = Object.fromEntries(
    Object.entries(catalogs)
      .filter(([namespace]) => !(namespace in imported))
      .map(([namespace, catalog]) => [namespace, sent(namespace, catalog)]),
  );
  const imports = Object.values(imported).map(({ name, from }) => `import { ${name} } from '${from}';\n`);
  const entries = Object.entries(imported).map(
    ([namespace, { name }]) => `, ${JSON.stringify(namespace)}: ${name}`,
  );
  // the first part names its later part: the first script can start it with a later page's chunk
  const later = laterId ? `export const later = () => import('${laterId}');\n` : '';
  return `${imports.join('')}${later}export default { ...${JSON.stringify(written)}${entries.join('')} };`;
}

/**
 * `virtual:fd-catalogs/<language>`: one module per bundled language with its catalogs of every
 * namespace but the later ones, so a page downloads only its own language's strings;
 * `virtual:fd-later-catalogs/<language>` has the later ones (resources.ts `LATER_NAMESPACES`). The catalogs stay written one file
 * per namespace with every language in it (src/lib/i18n/resources.ts gathers them); this plugin runs
 * that registry at build time and cuts it by language.
 */
export function languageCatalogs(): Plugin {
  let registry: Promise<{ module: ResourcesModule; dependencies: string[] }> | null = null;
  return {
    name: 'fd-language-catalogs',
    buildStart() {
      registry = null;
    },
    watchChange() {
      registry = null;
    },
    resolveId: (id) => (id.startsWith(PREFIX) || id.startsWith(LATER_PREFIX) ? `\0${id}` : undefined),
    async load(id) {
      const later = id.startsWith(`\0${LATER_PREFIX}`);
      if (!later && !id.startsWith(`\0${PREFIX}`)) return;
      const language = id.slice((later ? LATER_PREFIX : PREFIX).length + 1);
      registry ??= runnerImport<ResourcesModule>(RESOURCES, { configFile: false, logLevel: 'error' });
      const { module, dependencies } = await registry;
      for (const file of dependencies) this.addWatchFile(file);
      const catalogs = (module.buildResources() as Record<string, unknown>)[language];
      if (!catalogs) this.error(`no catalogs for the language "${language}"`);
      const laterNamespaces = new Set<string>(module.LATER_NAMESPACES);
      const part = Object.fromEntries(
        Object.entries(catalogs as Record<string, unknown>).filter(
          ([namespace]) => laterNamespaces.has(namespace) === later,
        ),
      );
      return catalogModule(language, part, later ? undefined : `${LATER_PREFIX}${language}`);
    },
  };
}

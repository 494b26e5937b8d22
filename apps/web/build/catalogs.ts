import path from 'node:path';
import { runnerImport } from 'vite';
import type { Plugin } from 'vite';
import { SERVER_PAGE_MESSAGE_CODES } from '@frontdoor/contract';
import type * as Resources from '../src/lib/i18n/resources.ts';

const PREFIX = 'virtual:fd-catalogs/';
const LATER_PREFIX = 'virtual:fd-later-catalogs/';
const RESOURCES = path.resolve(import.meta.dirname, '../src/lib/i18n/resources.ts');

type ResourcesModule = typeof Resources;

const SERVER_PAGES_ONLY = new Set<string>(SERVER_PAGE_MESSAGE_CODES);

/** A namespace as a browser needs it: errors without the words only the server's own pages show. */
const sent = (namespace: string, catalog: Record<string, string>): Record<string, string> =>
  namespace === 'errors'
    ? Object.fromEntries(Object.entries(catalog).filter(([code]) => !SERVER_PAGES_ONLY.has(code)))
    : catalog;

/**
 * The module of one part of a language's catalogs, written out (less the server's page words); the
 * first part's module also exports `later`, the loader of the later part (`laterId`).
 */
export function catalogModule(catalogs: Record<string, Record<string, string>>, laterId?: string): string {
  const written = Object.fromEntries(
    Object.entries(catalogs).map(([namespace, catalog]) => [namespace, sent(namespace, catalog)]),
  );
  // the first part names its later part: the first script can start it with a later page's chunk
  const later = laterId ? `export const later = () => import('${laterId}');\n` : '';
  return `${later}export default ${JSON.stringify(written)};`;
}

/**
 * `virtual:fd-catalogs/<language>`: one module per bundled language with its catalogs of every
 * namespace but the later ones, so a page downloads only its own language's strings;
 * `virtual:fd-later-catalogs/<language>` has the later ones (resources.ts `partOf`: the
 * `LATER_NAMESPACES` and the `LATER_MESSAGE_CODES`' texts). The catalogs stay written one file
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
      const catalogs = (module.buildResources() as Partial<Record<string, Resources.LanguageCatalogs>>)[
        language
      ];
      if (!catalogs) this.error(`no catalogs for the language "${language}"`);
      return catalogModule(module.partOf(catalogs, later), later ? undefined : `${LATER_PREFIX}${language}`);
    },
  };
}

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  CSP_NONCE_PLACEHOLDER,
  PRERENDER_DIR,
  PRERENDER_MANIFEST,
  configPlaceholder,
  type PrerenderManifest,
} from '@frontdoor/contract';
import type * as Entry from '../src/prerender.tsx';

/** What build/build.ts gets from the SSR build of src/prerender.tsx. */
export type PrerenderEntry = typeof Entry;

/** Vite's build manifest (build.manifest): source module → its chunk, static imports and CSS. */
type ViteManifest = Record<string, { file: string; imports?: string[]; css?: string[] }>;

const CATALOG_MODULE = 'virtual:fd-catalogs/';

/** Every chunk and stylesheet a module needs, following its static imports, but those in `loaded`. */
function needs(manifest: ViteManifest, key: string, loaded = new Set<string>()) {
  const found = { keys: new Set<string>(), scripts: new Set<string>(), styles: new Set<string>() };
  const visit = (at: string) => {
    if (found.keys.has(at) || loaded.has(at)) return;
    const chunk = manifest[at];
    if (!chunk) throw new Error(`the build manifest has no ${at}`);
    found.keys.add(at);
    found.scripts.add(chunk.file);
    chunk.css?.forEach((css) => found.styles.add(css));
    chunk.imports?.forEach(visit);
  };
  visit(key);
  return found;
}

/**
 * Writes each prerendered page in each bundled language beside the built index.html: the page's
 * markup in #root, <html lang dir>, a title from its heading, its stylesheets (so it paints before
 * any script) and modulepreloads of its chunks and of the language's catalogs (so no request waits
 * for another); and the language's shell for every other page. Then the manifest the server reads.
 */
export async function prerenderPages(dist: string, entry: PrerenderEntry): Promise<PrerenderManifest> {
  const index = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const vite = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as ViteManifest;
  // what index.html loads already (Vite's own script, modulepreloads and stylesheets)
  const loaded = needs(vite, 'index.html').keys;
  const attributes = `crossorigin nonce="${CSP_NONCE_PLACEHOLDER}"`;
  const links = (needed: { scripts: Set<string>; styles: Set<string> }) =>
    [
      ...[...needed.styles].map((href) => `<link rel="stylesheet" ${attributes} href="/${href}">`),
      ...[...needed.scripts].map((href) => `<link rel="modulepreload" ${attributes} href="/${href}">`),
    ].join('\n    ');
  const page = (language: string, head: string, title: string | null, markup: string) => {
    const html = index
      .replace(/<html [^>]*>/, `<html lang="${language}" dir="${entry.directionOf(language)}">`)
      .replace('<div id="root"></div>', `<div id="root">${markup}</div>`)
      .replace('</head>', `  ${head}\n  </head>`);
    return title ? html.replace(/<title>[^<]*<\/title>/, `<title>${title}</title>`) : html;
  };
  const manifest: PrerenderManifest = {
    defaultLanguage: entry.SOURCE_LANGUAGE,
    languages: [...entry.BUNDLED_LANGUAGES],
    pages: {},
    shell: 'index.html',
  };
  for (const language of entry.BUNDLED_LANGUAGES) {
    const folder = path.join(dist, PRERENDER_DIR, language);
    mkdirSync(folder, { recursive: true });
    const catalogs = needs(vite, `${CATALOG_MODULE}${language}`, loaded);
    writeFileSync(path.join(folder, manifest.shell), page(language, links(catalogs), null, ''));
    for (const { paths, file, module } of entry.PRERENDERED_PAGES) {
      // the CSP refuses style attributes in markup (style-src-attr 'none'): the app renders its own
      // only once hydrated (useHydrated), Radix's few have their rules in the stylesheets
      const markup = (await entry.renderPage(paths[0]!, language)).replace(/ style="[^"]*"/g, '');
      const heading = /<h1[^>]*>([^<]+)<\/h1>/.exec(markup)?.[1];
      const title = heading && `${heading} · ${configPlaceholder('providerName')}`;
      const needed = needs(vite, module, loaded);
      catalogs.scripts.forEach((script) => needed.scripts.add(script));
      writeFileSync(path.join(folder, file), page(language, links(needed), title ?? null, markup));
      for (const routed of paths) manifest.pages[routed] = file;
    }
  }
  writeFileSync(path.join(dist, PRERENDER_DIR, PRERENDER_MANIFEST), JSON.stringify(manifest, null, 2));
  return manifest;
}

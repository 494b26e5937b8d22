import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  CSP_NONCE_PLACEHOLDER,
  HELD_PRESSES_GLOBAL,
  PRERENDER_DIR,
  PRERENDER_MANIFEST,
  configPlaceholder,
  type PrerenderManifest,
} from '@frontdoor/contract';
import type * as Entry from '../src/prerender.tsx';

/** What build/build.ts gets from the SSR build of src/prerender.tsx. */
export type PrerenderEntry = typeof Entry;

type Language = PrerenderEntry['BUNDLED_LANGUAGES'][number];

/** Vite's build manifest (build.manifest): source module → its chunk, static imports and CSS. */
type ViteManifest = Record<string, { file: string; imports?: string[] }>;

const CATALOG_MODULE = 'virtual:fd-catalogs/';

/** Every chunk a module needs, following its static imports, but those in `loaded`. */
function needs(manifest: ViteManifest, key: string, loaded = new Set<string>()) {
  const found = { keys: new Set<string>(), scripts: new Set<string>() };
  const visit = (at: string) => {
    if (found.keys.has(at) || loaded.has(at)) return;
    const chunk = manifest[at];
    if (!chunk) throw new Error(`the build manifest has no ${at}`);
    found.keys.add(at);
    found.scripts.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  visit(key);
  return found;
}

/**
 * index.html with its stylesheets inlined (`<style nonce>`, allowed by the page's CSP): the app's
 * CSS is one small file (cssCodeSplit: false), cheaper in the page than as a render-blocking request.
 */
export function inlineStylesheets(html: string, dist: string): string {
  return html.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (_link, href: string) => {
    const css = readFileSync(path.join(dist, href), 'utf8').trim();
    // no page links it any more
    rmSync(path.join(dist, href));
    return `<style nonce="${CSP_NONCE_PLACEHOLDER}">${css}</style>`;
  });
}

const NOSCRIPT_NOTICE = /(<p class="noscript-notice">)[\s\S]*?(<\/p>)/;

/**
 * index.html's notice to a browser without JavaScript, written in the page's language: a screen reader
 * reads it in the voice of the page's <html lang>, and an Arabic page lays it out right to left.
 */
export function withNoscriptNotice(html: string, notice: string): string {
  if (!NOSCRIPT_NOTICE.test(html)) throw new Error('index.html has no <p class="noscript-notice">');
  const text = notice.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return html.replace(NOSCRIPT_NOTICE, (_notice, open: string, close: string) => `${open}${text}${close}`);
}

/**
 * How long after its first frame a page waits for the browser to report the first contentful paint
 * before it asks for its scripts anyway.
 */
const PAINT_WAIT_MAX_MS = 1000;

/**
 * A prerendered page paints from its markup; its scripts only hydrate it. They are asked for once the
 * first contentful paint is on screen (the browser's paint timing reports it; where it cannot, after
 * the first frame; at once in a hidden tab, which paints nothing), by one inline module
 * (allowed by the page's nonce), so that on a slow network they never compete with the page's first
 * paint. On screen, not merely produced: after the first frame alone, a script fetched fast could
 * arrive before that frame showed, and Lighthouse then counted it as needed for the paint (LCP about
 * twice as long in one run of seven, bench/README.md). All are asked for at once: no request waits
 * for another. They are script elements, not import(): Chromium compiles a script element's module on
 * a background thread as it streams in, an import()ed one on the main thread (about 100 ms of
 * blocking on a 2-core machine, before Lighthouse's 4× slow-down; bench/README.md).
 * Until the app has hydrated, the same script holds every button press, radio choice, form
 * submission and plain click on a link within the portal (HELD_PRESSES_GLOBAL): a form must not
 * submit natively, with its fields in the URL; a radio React would uncheck as it hydrates must not
 * lose its choice; and a link followed natively would leave /log-in/{csrf} before the app fetched the
 * product's login request, so the student would end on the portal, not the product. The app makes the
 * choices again and presses the last one again when it can (a link then navigates in the app, which
 * takes the fetch along). A click with a modifier key (a new tab) is not held, and if a script cannot
 * load, holding stops and the last link pressed is followed as the plain link it is.
 */
export function hydrateAfterFirstPaint(html: string): string {
  const scripts: string[] = [];
  const tag =
    /\s*<(?:script type="module"[^>]*src="([^"]+)"[^>]*><\/script>|link rel="modulepreload"[^>]*href="([^"]+)"[^>]*>)/g;
  const rest = html.replace(tag, (_tag, src?: string, href?: string) => {
    scripts.push((src ?? href)!);
    return '';
  });
  if (!scripts.length) return html;
  const hold = [
    `const held={targets:[]},types=['click','submit']`,
    `const hold=e=>{const t=e.type==='submit'?e.target:e.target.closest?.('button,input[type=radio],a[href^="/"]:not([href^="//"],[target])');if(t&&!(t.tagName==='A'&&(e.ctrlKey||e.metaKey||e.shiftKey||e.altKey))){e.preventDefault();held.targets.push(t)}}`,
    `for(const t of types)addEventListener(t,hold,true)`,
    `held.stop=()=>{for(const t of types)removeEventListener(t,hold,true)}`,
    `window.${HELD_PRESSES_GLOBAL}=held`,
  ].join(';');
  const load = [
    // a script that cannot load (a dropped network, a deploy that replaced it): the page's links work
    // as plain links again, the last one pressed followed
    `const fail=()=>{held.stop();const t=held.targets.at(-1);if(t?.tagName==='A')location.assign(t.href)}`,
    `const load=()=>{for(const s of ${JSON.stringify(scripts)}){const e=document.createElement('script');e.type='module';e.src=s;e.onerror=fail;document.head.append(e)}}`,
    `let asked=0;const once=()=>{if(!asked++)load()}`,
    `const P=self.PerformanceObserver,paints=P?.supportedEntryTypes?.includes('paint')`,
    `if(document.visibilityState!=='visible')once()`,
    `else{if(paints)new P((l,o)=>{if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();once()}}).observe({type:'paint',buffered:true})`,
    `requestAnimationFrame(()=>setTimeout(once,paints?${PAINT_WAIT_MAX_MS}:0))}`,
  ].join(';');
  return rest.replace(
    '</head>',
    `  <script type="module" nonce="${CSP_NONCE_PLACEHOLDER}">${hold};${load}</script>\n  </head>`,
  );
}

/**
 * Writes each prerendered page in each bundled language beside the built index.html: the page's
 * markup in #root, <html lang dir>, the notice without JavaScript in its language, a title from its
 * heading, the app's styles inlined (so it paints before any script) and modulepreloads of the
 * language's catalogs (so no request waits for another); and the language's shell for every other
 * page. Then the manifest the server reads. index.html itself (the answer with a hosted translation
 * widget, which starts in English) gets the notice in the source language.
 */
export async function prerenderPages(dist: string, entry: PrerenderEntry): Promise<PrerenderManifest> {
  const index = inlineStylesheets(readFileSync(path.join(dist, 'index.html'), 'utf8'), dist);
  writeFileSync(
    path.join(dist, 'index.html'),
    withNoscriptNotice(index, entry.noscriptNotice(entry.SOURCE_LANGUAGE)),
  );
  const vite = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as ViteManifest;
  // what index.html loads already (Vite's own script and modulepreloads)
  const loaded = needs(vite, 'index.html').keys;
  const attributes = `crossorigin nonce="${CSP_NONCE_PLACEHOLDER}"`;
  const links = (needed: { scripts: Set<string> }) =>
    [...needed.scripts]
      .map((href) => `<link rel="modulepreload" ${attributes} href="/${href}">`)
      .join('\n    ');
  const page = (language: Language, head: string, title: string | null, markup: string) => {
    let html = withNoscriptNotice(index, entry.noscriptNotice(language))
      .replace(/<html [^>]*>/, `<html lang="${language}" dir="${entry.directionOf(language)}">`)
      .replace('<div id="root"></div>', `<div id="root">${markup}</div>`)
      .replace('</head>', `  ${head}\n  </head>`);
    if (markup) html = hydrateAfterFirstPaint(html);
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
    for (const { paths, file } of entry.PRERENDERED_PAGES) {
      // the CSP refuses style attributes in markup (style-src-attr 'none'): the app renders its own
      // only once hydrated (useHydrated), Radix's few have their rules in the stylesheets
      const markup = (await entry.renderPage(paths[0]!, language)).replace(/ style="[^"]*"/g, '');
      const heading = /<h1[^>]*>([^<]+)<\/h1>/.exec(markup)?.[1];
      const title = heading && `${heading} · ${configPlaceholder('providerName')}`;
      writeFileSync(path.join(folder, file), page(language, links(catalogs), title ?? null, markup));
      for (const routed of paths) manifest.pages[routed] = file;
    }
  }
  writeFileSync(path.join(dist, PRERENDER_DIR, PRERENDER_MANIFEST), JSON.stringify(manifest, null, 2));
  return manifest;
}

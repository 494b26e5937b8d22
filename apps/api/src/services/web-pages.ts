import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import {
  CONFIG_ELEMENT_ID,
  CONFIG_PLACEHOLDER_PATTERN,
  PRERENDER_DIR,
  PRERENDER_MANIFEST,
  pagePaths,
  type PortalConfig,
  type PrerenderManifest,
} from '@frontdoor/contract';
import { escapeHtml } from './html.ts';
import { indexHtmlTemplate } from './security-headers.ts';

/** The SPA's pages (the contract's pagePaths and the site root) as `/`-rooted paths. */
export const SPA_PAGES: readonly string[] = ['/', ...Object.values(pagePaths).map((path) => `/${path}`)];

const segmentsOf = (path: string): string[] => path.replace(/^\/+|\/+$/g, '').split('/');
const PAGE_PATTERNS = SPA_PAGES.map(segmentsOf);

/**
 * Whether a routed path (decoded, slashes collapsed) is the route `pattern` (its segments, `:name`
 * standing for any one); letter case aside, as the SPA's router.
 */
function matchesRoute(pattern: readonly string[], routed: string): boolean {
  const segments = segmentsOf(routed.toLowerCase());
  return (
    pattern.length === segments.length &&
    pattern.every((part, i) => part.startsWith(':') || part === segments[i])
  );
}

/** Whether a routed path (decoded, slashes collapsed) is one of SPA_PAGES. */
export function isSpaPage(routed: string): boolean {
  return PAGE_PATTERNS.some((pattern) => matchesRoute(pattern, routed));
}

/** A header's comma-separated values with their q weights (1 when absent), best first, ties in order. */
function weighted(header: string | undefined): { token: string; weight: number }[] {
  return (header ?? '')
    .split(',')
    .map((part) => {
      const [token = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { token, weight: Number.isFinite(weight) ? weight : 0 };
    })
    .filter((entry) => entry.token)
    .sort((a, b) => b.weight - a.weight);
}

/** br or gzip by the request's Accept-Encoding (q-values and * honoured, br first on a tie), or null. */
export function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const entries = weighted(acceptEncoding);
  const weight = (encoding: string) =>
    (entries.find((e) => e.token === encoding) ?? entries.find((e) => e.token === '*'))?.weight ?? 0;
  const [best] = (['br', 'gzip'] as const)
    .map((encoding) => ({ encoding, weight: weight(encoding) }))
    .filter((candidate) => candidate.weight > 0)
    .sort((a, b) => b.weight - a.weight);
  return best?.encoding ?? null;
}

/** A page body compressed for one answer (pages carry a nonce per answer, so they cannot be prebuilt). */
export function compressPage(body: string, encoding: 'br' | 'gzip'): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } })
    : gzipSync(body, { level: 6 });
}

/** config.json as a JSON block: never ends the <script> early, whatever the configured strings hold. */
const configBlock = (cfg: PortalConfig): string =>
  `<script type="application/json" id="${CONFIG_ELEMENT_ID}">${JSON.stringify(cfg).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )}</script>`;

function configValue(cfg: PortalConfig, dotted: string): string {
  const value = dotted.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown>)?.[key], cfg);
  if (typeof value !== 'string') throw new Error(`a prerendered page names config.${dotted}, not a string`);
  return value;
}

/** A built page with this server's config written in: its config strings, and config.json inlined. */
function fillPage(html: string, cfg: PortalConfig): (nonce: string) => string {
  const filled = html
    .replace(CONFIG_PLACEHOLDER_PATTERN, (_match, dotted: string) => escapeHtml(configValue(cfg, dotted)))
    .replace('</head>', `${configBlock(cfg)}</head>`);
  return indexHtmlTemplate(filled);
}

export interface WebPages {
  /** The languages to answer in (one only when nothing is prerendered). */
  manifest: Pick<PrerenderManifest, 'languages' | 'defaultLanguage'>;
  /** Whether the answer for this path depends on the request's language. */
  prerendered: boolean;
  /** The page for a routed path in a language, given the answer's nonce. */
  page(routed: string, language: string, nonce: string): string;
}

/**
 * The SPA's pages, read once: index.html, and when the build prerendered pages (PRERENDER_MANIFEST),
 * each page in each language plus the language's shell for every other path. Prerendered pages are
 * not used with a hosted translation widget: the SPA then starts in English and waits for the widget.
 * Null when the SPA is not built.
 */
export function loadWebPages(dist: string, cfg: PortalConfig): WebPages | null {
  const indexFile = path.join(dist, 'index.html');
  if (!existsSync(indexFile)) return null;
  const index = fillPage(readFileSync(indexFile, 'utf8'), cfg);
  const manifestFile = path.join(dist, PRERENDER_DIR, PRERENDER_MANIFEST);
  const widget = Boolean(cfg.translation.key && cfg.translation.scriptUrl);
  if (widget || !existsSync(manifestFile)) {
    return {
      manifest: { languages: [], defaultLanguage: '' },
      prerendered: false,
      page: (_routed, _language, nonce) => index(nonce),
    };
  }
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as PrerenderManifest;
  const read = (language: string, file: string) =>
    fillPage(readFileSync(path.join(dist, PRERENDER_DIR, language, file), 'utf8'), cfg);
  // a {csrf} route's page answers for every csrf: the build rendered it without one (prerender.tsx)
  const routes = Object.entries(manifest.pages).map(([route, file]) => ({
    pattern: segmentsOf(route),
    file,
  }));
  const pages = new Map(
    manifest.languages.map((language) => [
      language,
      {
        shell: read(language, manifest.shell),
        files: new Map(routes.map(({ file }) => [file, read(language, file)])),
      },
    ]),
  );
  return {
    manifest,
    prerendered: true,
    page(routed, language, nonce) {
      const forLanguage = pages.get(language) ?? pages.get(manifest.defaultLanguage);
      if (!forLanguage) return index(nonce);
      const route = routes.find(({ pattern }) => matchesRoute(pattern, routed));
      return ((route && forLanguage.files.get(route.file)) ?? forLanguage.shell)(nonce);
    },
  };
}

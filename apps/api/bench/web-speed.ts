/**
 * The web side of `npm run bench`: Lighthouse 13 with its mobile defaults (simulated slow 4G, 4× CPU)
 * on the portal's sign-in pages, served by the portal's own server from apps/web/dist, beside a bare
 * React + react-router page with one email form (bench/reference-web), built by the same Vite and
 * served by a bare Fastify with the portal's static-file settings, so that only the page differs.
 * Runs are interleaved (reference, a portal page, reference, the next page, …) so the machine's noise
 * hits both sides; each figure is the median of its runs. Then /log-in once in each other built
 * language, for its weight: each language downloads its own catalogs. A failed run is reported, never
 * thrown, and tried once more; both servers and every Chromium are closed whatever happens.
 */
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  constants as fsConstants,
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { build } from 'vite';
import { HASHED_DIR } from '@frontdoor/contract';
import { freePort } from '../test/fake-http.ts';
import { benchApp } from './app.ts';
import {
  figuresOf,
  languageBytes,
  medianFigures,
  pageTable,
  pageVerdicts,
  type PageFigures,
} from './web-figures.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const REFERENCE_ROOT = path.join(REPO, 'bench/reference-web');
export const PORTAL_DIST = path.join(REPO, 'apps/web/dist');
export const PORTAL_PAGES = ['/log-in', '/email', '/create-account', '/access-code'];
/** The reference has one page, audited anew beside each portal page. */
const REFERENCE_PAGE = '/log-in';
const referenceKey = (page: string) => `reference (beside ${page})`;
/** The page measured once in each other language (the pages above are measured in English). */
const LANGUAGE_PAGE = '/log-in';
const languageKey = (language: string) => `${LANGUAGE_PAGE}?locale=${language}`;

/** The languages other than English that the build prerendered pages in (apps/web/dist/prerendered/<language>). */
const otherLanguages = (): string[] =>
  readdirSync(path.join(PORTAL_DIST, 'prerendered'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'en')
    .map((entry) => entry.name)
    .sort();

const RUN_TIMEOUT_MS = 120_000;
/**
 * A failed run is tried once more: Lighthouse now and then fails to record a trace (NO_NAVSTART), and a
 * page's median should still be of `runs` runs. The failure stays listed.
 */
const RUN_ATTEMPTS = 2;
const CHROMIUM_FLAGS = ['--headless=new', '--no-sandbox'];

interface RunOutcome {
  figures?: PageFigures;
  error?: string;
  lighthouseVersion?: string;
  chromium?: string;
}

/** One Lighthouse run in a Chromium of its own, killed afterwards whatever happened. */
async function lighthouseRun(url: string, chromePath: string): Promise<RunOutcome> {
  let chrome: LaunchedChrome | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    chrome = await launch({ chromePath, chromeFlags: CHROMIUM_FLAGS, logLevel: 'silent' });
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no result after ${RUN_TIMEOUT_MS / 1000} s`)),
        RUN_TIMEOUT_MS,
      );
    });
    const result = await Promise.race([
      lighthouse(url, {
        port: chrome.port,
        logLevel: 'error',
        output: 'json',
        onlyCategories: ['performance', 'accessibility'],
      }),
      timeout,
    ]);
    if (!result) throw new Error('Lighthouse returned nothing');
    // the user agent says 156.0.0.0; the DevTools endpoint has the whole version
    const version = (await (await fetch(`http://127.0.0.1:${chrome.port}/json/version`)).json()) as {
      Browser?: string;
    };
    return {
      figures: await figuresOf(result.lhr, result.artifacts.DevtoolsLog, result.artifacts.Stylesheets),
      lighthouseVersion: result.lhr.lighthouseVersion,
      chromium: version.Browser?.replace(/^\D+\//, ''),
    };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
    chrome?.kill();
  }
}

/** Builds the reference page with the portal's Vite and writes .br and .gz beside each text file. */
export async function buildReference(): Promise<string> {
  const configFile = path.join(REFERENCE_ROOT, 'vite.config.ts');
  await build({ root: REFERENCE_ROOT, configFile, logLevel: 'warn' });
  const dist = path.join(REFERENCE_ROOT, 'dist');
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const file = path.join(dir, name);
      return statSync(file).isDirectory() ? walk(file) : [file];
    });
  for (const file of walk(dist).filter((f) => /\.(html|js|css|svg|json)$/.test(f))) {
    const content = readFileSync(file);
    writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  }
  return dist;
}

/**
 * The reference's server: a bare Fastify with @fastify/static as the portal registers it (hashed
 * files immutable, everything else no-cache, the page for any other page request),
 * serving the precompressed files by Accept-Encoding.
 */
export async function serveReference(dist: string) {
  const app = Fastify();
  await app.register(fastifyStatic, {
    root: dist,
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, filePath) => {
      const hashed = path.relative(dist, filePath).startsWith(`${HASHED_DIR}${path.sep}`);
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.setNotFoundHandler((request, reply) =>
    (request.headers.accept ?? '').includes('text/html')
      ? reply.header('cache-control', 'no-cache').sendFile('index.html')
      : reply.code(404).send(),
  );
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: address, close: () => app.close() };
}

/**
 * The portal's server as production runs it (buildApp with APP_ENV=production, SQLite in a
 * temporary directory) serving apps/web/dist on 127.0.0.1; no mail is sent while pages load.
 */
async function servePortal() {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const portal = await benchApp({
    APP_ENV: 'production',
    SECRET: randomBytes(32).toString('base64'),
    SMTP_URL: 'smtp://127.0.0.1:25',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: url,
    // an IP host names no sender's domain: production asks for one
    MAIL_FROM: 'Frontdoor <no-reply@portal.test>',
    WEB_DIST: PORTAL_DIST,
  });
  try {
    await portal.app.listen({ port, host: '127.0.0.1' });
    return { url, close: portal.close };
  } catch (err) {
    await portal.close();
    throw err;
  }
}

export interface WebSpeedReport {
  /** Markdown: one table per page, then the runs that failed. */
  markdown: string;
  lighthouseVersion: string;
  chromium: string;
  /** One line per goal and page: `- PASS: /log-in Performance ≥ 95 (97)`. */
  verdicts: string[];
}

/**
 * Builds the reference, serves both sides on 127.0.0.1 and runs Lighthouse `runs` times on each of
 * `pages` of the portal (apps/web/dist must be built), each run right after a run on the reference:
 * each page is compared with the median of the reference runs made beside it.
 */
export async function webSpeed({
  runs = 3,
  pages = PORTAL_PAGES,
  chromePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  log = (line: string) => console.info(line),
}: {
  runs?: number;
  pages?: string[];
  chromePath?: string;
  log?: (line: string) => void;
} = {}): Promise<WebSpeedReport> {
  // chrome-launcher crashes the process on a browser it cannot start, instead of rejecting
  accessSync(chromePath, fsConstants.X_OK);
  if (!existsSync(path.join(PORTAL_DIST, 'index.html')))
    throw new Error(`${PORTAL_DIST} is not built: run \`npm run build\` first`);
  const measuredLanguages = otherLanguages();
  const referenceDist = await buildReference();
  const reference = await serveReference(referenceDist);
  let portal: Awaited<ReturnType<typeof servePortal>> | undefined;
  const outcomes = new Map<string, RunOutcome[]>();
  try {
    portal = await servePortal();
    const measure = async (key: string, url: string, run: string) => {
      for (let attempt = 1; attempt <= RUN_ATTEMPTS; attempt++) {
        const started = Date.now();
        const outcome = await lighthouseRun(url, chromePath);
        outcomes.set(key, [...(outcomes.get(key) ?? []), outcome]);
        const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
        log(
          `  lighthouse ${run} ${key}: ${
            outcome.figures
              ? `performance ${outcome.figures.performance}, TBT ${Math.round(outcome.figures.tbt)} ms, LCP ${(outcome.figures.lcp / 1000).toFixed(2)} s, initial JS+CSS ${(outcome.figures.initialJsCss / 1000).toFixed(1)} kB`
              : `FAILED (${outcome.error})`
          } (${took})`,
        );
        if (outcome.figures) break;
      }
    };
    for (let round = 1; round <= runs; round++) {
      for (const page of pages) {
        await measure(referenceKey(page), `${reference.url}${REFERENCE_PAGE}`, `${round}/${runs}`);
        await measure(page, `${portal.url}${page}`, `${round}/${runs}`);
      }
    }
    for (const language of measuredLanguages)
      await measure(languageKey(language), `${portal.url}${languageKey(language)}`, '1/1');
  } finally {
    await reference.close();
    await portal?.close();
  }

  const all = [...outcomes.values()].flat();
  const succeeded = (key: string) => (outcomes.get(key) ?? []).flatMap((o) => (o.figures ? [o.figures] : []));
  const count = (key: string) => `${succeeded(key).length}/${outcomes.get(key)?.length ?? 0}`;
  const failures = [...outcomes.entries()].flatMap(([key, list]) =>
    list.flatMap((o, i) => (o.error ? [`- ${key}, run ${i + 1}: ${o.error}`] : [])),
  );
  const verdicts: string[] = [];
  const tables = pages.map((page) => {
    const figures = medianFigures(succeeded(page));
    const referenceFigures = medianFigures(succeeded(referenceKey(page)));
    verdicts.push(...pageVerdicts(page, figures, referenceFigures));
    const runsText = `portal runs ${count(page)}, reference runs ${count(referenceKey(page))}`;
    return `**${page}** (${runsText})\n\n${pageTable(figures, referenceFigures)}`;
  });
  const inLanguages = languageBytes(
    LANGUAGE_PAGE,
    measuredLanguages.map((language) => ({ language, figures: succeeded(languageKey(language))[0] })),
  );
  verdicts.push(...inLanguages.verdicts);
  return {
    markdown: [
      ...tables,
      ...(measuredLanguages.length ? [inLanguages.table] : []),
      failures.length ? `Failed runs:\n\n${failures.join('\n')}` : 'Failed runs: none',
    ].join('\n\n'),
    lighthouseVersion: all.find((o) => o.lighthouseVersion)?.lighthouseVersion ?? 'unknown',
    chromium: all.find((o) => o.chromium)?.chromium ?? 'unknown',
    verdicts,
  };
}

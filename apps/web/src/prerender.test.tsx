import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { CONFIG_ELEMENT_ID, CONFIG_PLACEHOLDER_PATTERN, STORAGE_KEYS, apiPaths } from '@frontdoor/contract';
import { HttpResponse, api, http, server } from './test/server.ts';
import { testConfig } from './test/config.ts';
import { boot } from './boot.tsx';
import { applyDocumentLanguage } from './lib/i18n/index.ts';
import { PRERENDERED_PAGES } from './prerender.tsx';
import { SYNC_COMMIT, isReactOwned, onReactCommit } from './test/react-commits.ts';

const LANGUAGES = ['en', 'ar'] as const;
const PATHS = PRERENDERED_PAGES.map(({ paths }) => paths[0]!);

/**
 * The pages as the build renders them, in a Node process of their own as in the build: React's
 * server renderer leaves its context values behind, which a client render in the same process would
 * read as its own.
 */
function prerendered(): Record<string, string> {
  const web = path.resolve(import.meta.dirname, '..');
  // class names as the tests see them (vitest.config.ts: non-scoped)
  const script = `
    import { createServer } from 'vite';
    const server = await createServer({
      root: ${JSON.stringify(web)}, appType: 'custom', logLevel: 'error',
      server: { middlewareMode: true, hmr: false, ws: false },
      css: { modules: { generateScopedName: '[local]' } },
    });
    const module = await server.ssrLoadModule('/src/prerender.tsx');
    const pages = {};
    for (const page of ${JSON.stringify(PATHS)})
      for (const language of ${JSON.stringify(LANGUAGES)})
        pages[page + ' ' + language] = await module.renderPage(page, language);
    await server.close();
    process.stdout.write(JSON.stringify(pages));
    process.exit(0);`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: web, encoding: 'utf8' }),
  ) as Record<string, string>;
}

let pages: Record<string, string> = {};
beforeAll(() => {
  pages = prerendered();
}, 60_000);
const renderPage = (page: string, language: (typeof LANGUAGES)[number]) => pages[`${page} ${language}`] ?? '';

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
  document.getElementById(CONFIG_ELEMENT_ID)?.remove();
  window.history.replaceState(null, '', '/');
  applyDocumentLanguage('en');
  vi.restoreAllMocks();
  onReactCommit(undefined);
});

/** What the server answers: the prerendered markup with this deployment's config in it and inlined. */
function servedPage(path: string, language: (typeof LANGUAGES)[number]) {
  const markup = renderPage(path, language).replace(CONFIG_PLACEHOLDER_PATTERN, (_m, dotted: string) =>
    String(dotted.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], testConfig)),
  );
  const block = document.createElement('script');
  block.type = 'application/json';
  block.id = CONFIG_ELEMENT_ID;
  block.textContent = JSON.stringify(testConfig);
  document.head.append(block);
  document.documentElement.lang = language;
  // the server answered in the browser's language, which the SPA negotiates again
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue([language]);
  window.history.replaceState(null, '', path);
  const container = document.createElement('div');
  container.innerHTML = markup;
  document.body.append(container);
  return container;
}

describe('prerendered pages', () => {
  it('render each login page with its heading and controls before any script runs', () => {
    const container = document.createElement('div');
    container.innerHTML = renderPage('/log-in', 'ar');
    expect(container.querySelector('h1')?.textContent).toBe('طوّر مدرستك معنا');
    expect(container.querySelectorAll('ul button')).toHaveLength(5);
    container.innerHTML = renderPage('/email', 'en');
    expect(container.querySelector('input[type="email"]')).not.toBeNull();
    for (const page of PATHS) {
      const markup = renderPage(page, 'en');
      expect(markup, page).toContain('</h1>');
      // the CSP refuses style attributes: the app renders none before hydration (Radix's radio
      // group's few, the build drops)
      if (page !== '/create-account') expect(markup, page).not.toContain(' style="');
    }
  });

  it.each(PATHS.flatMap((page) => LANGUAGES.map((language) => [page, language] as const)))(
    'hydrate %s in %s without a mismatch, and keep working',
    async (path, language) => {
      server.use(http.get(api(apiPaths.sig), () => HttpResponse.json({ loggedin: false, payload: null })));
      const errors = vi.spyOn(console, 'error');
      const container = servedPage(path, language);
      const heading = container.querySelector('h1');
      const served = heading?.textContent;
      const result = await act(() => boot(container));
      root = result.root;
      expect(result.outcome).toBe('started');
      await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
      // the served heading element itself is kept: hydrated, not rendered again
      expect(container.querySelector('h1')).toBe(heading);
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(served ?? '');
      expect(errors).not.toHaveBeenCalled();
      errors.mockRestore();
    },
  );

  it.each(PATHS)(
    'hydrate %s without a mismatch while this browser holds a sign-in request, then show it',
    async (path) => {
      // what log-in/{csrf} of a product left in storage (§3): the markup was made without it
      localStorage.setItem(STORAGE_KEYS.loginCsrf, 'lc-1');
      localStorage.setItem(
        STORAGE_KEYS.loginParams,
        JSON.stringify({ url: 'https://app.example/after', isTeacher: false, sp_id: 'sp-1' }),
      );
      localStorage.setItem(STORAGE_KEYS.lastSignInMethod, 'classCode');
      server.use(http.get(api(apiPaths.sig), () => HttpResponse.json({ loggedin: false, payload: null })));
      const errors = vi.spyOn(console, 'error');
      const container = servedPage(path, 'en');
      const heading = container.querySelector('h1');
      root = (await act(() => boot(container))).root;
      await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
      expect(container.querySelector('h1')).toBe(heading);
      expect(errors).not.toHaveBeenCalled();
      errors.mockRestore();
      // hydrated, the page is this browser's: the held request's params and its way back to log-in
      expect(screen.queryByText(/Open the sign-in link your teacher gave you/)).toBeNull();
      for (const link of container.querySelectorAll('a[href^="/log-in"]')) {
        expect(link).toHaveAttribute('href', '/log-in/lc-1');
      }
    },
  );

  it.each(PATHS)(
    'hydrate %s in slices: the commit that takes the page over is never a synchronous one',
    async (path) => {
      server.use(http.get(api(apiPaths.sig), () => HttpResponse.json({ loggedin: false, payload: null })));
      const container = servedPage(path, 'en');
      const heading = container.querySelector('h1');
      if (!heading) throw new Error(`${path} has no heading`);
      // a synchronous render cannot yield: on a slow device the whole page would be one long task
      const takenOverAt: number[] = [];
      onReactCommit((priority) => {
        if (!takenOverAt.length && isReactOwned(heading)) takenOverAt.push(priority);
      });
      root = (await act(() => boot(container))).root;
      await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
      expect(takenOverAt).toHaveLength(1);
      expect(takenOverAt[0]).not.toBe(SYNC_COMMIT);
    },
  );
});

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { CONFIG_ELEMENT_ID, CONFIG_PLACEHOLDER_PATTERN, STORAGE_KEYS, apiPaths } from '@frontdoor/contract';
import { HttpResponse, api, http, ok, server } from './test/server.ts';
import { testConfig } from './test/config.ts';
import { boot } from './boot.tsx';
import { applyDocumentLanguage } from './lib/i18n/index.ts';
import { PRERENDERED_PAGES, ROUTE_PARAM_STAND_IN } from './prerender.tsx';
import { SYNC_COMMIT, isReactOwned, onReactCommit } from './test/react-commits.ts';

const LANGUAGES = ['en', 'ar'] as const;
const PATHS = PRERENDERED_PAGES.map(({ paths }) => paths[0]!);
/** Where the browser is when the server answers a route's page: a {csrf} route at a csrf of its own. */
const urlOf = (route: string) => route.replace(/:[^/]+/g, 'lc-1');
const loginParams = { url: 'https://app.example/after', isTeacher: false, sp_id: 'sp-1' };

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
  window.history.replaceState(null, '', urlOf(path));
  // the login params of a {csrf} route's page
  server.use(http.get(api('gateway/getCsrfLogin/:csrf'), () => ok(loginParams)));
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
      sessionStorage.setItem(STORAGE_KEYS.loginCsrf, 'lc-1');
      sessionStorage.setItem(STORAGE_KEYS.loginParams, JSON.stringify(loginParams));
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

  it('render a {csrf} route once for every csrf: as it shows while its login params load, no csrf in it', () => {
    const csrfRoutes = PATHS.filter((route) => route.includes(':'));
    expect(csrfRoutes).toEqual(['/log-in/:csrf', '/create-account/:csrf', '/access-code/:csrf']);
    for (const route of csrfRoutes)
      expect(renderPage(route, 'en'), route).not.toContain(ROUTE_PARAM_STAND_IN);
    const container = document.createElement('div');
    container.innerHTML = renderPage('/log-in/:csrf', 'en');
    expect(container.querySelector('[role="status"]')?.textContent).toMatch(/Loading/);
    for (const button of container.querySelectorAll('ul button')) {
      expect(button).toHaveAttribute('aria-disabled', 'true');
    }
    // a browser without the request of its csrf is not told to open the teacher's link meanwhile
    container.innerHTML = renderPage('/access-code/:csrf', 'en');
    expect(container.textContent).not.toMatch(/Open the sign-in link your teacher gave you/);
  });

  it('hydrate a {csrf} route while its params load, then enable its sign-in', async () => {
    let answer: (value: Response) => void = () => undefined;
    const errors = vi.spyOn(console, 'error');
    const container = servedPage('/log-in/:csrf', 'en');
    server.use(
      http.get(
        api(apiPaths.getCsrfLogin('lc-1')),
        () => new Promise<Response>((resolve) => (answer = resolve)),
      ),
    );
    const google = container.querySelector('ul button');
    root = (await act(() => boot(container))).root;
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(errors).not.toHaveBeenCalled();
    expect(container.querySelector('ul button')).toBe(google);
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await act(async () => answer(ok(loginParams)));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.getByRole('button', { name: 'Continue with Google' })).not.toHaveAttribute('aria-disabled');
    expect(sessionStorage.getItem(STORAGE_KEYS.loginCsrf)).toBe('lc-1');
  });

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

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REQUEST_TIMEOUT_MS,
  PRERENDER_DIR,
  PRERENDER_MANIFEST,
  type PortalConfig,
  type PrerenderManifest,
} from '@frontdoor/contract';
import { SPA_PAGES, isSpaPage, loadWebPages } from './web-pages.ts';

describe('the SPA pages the server knows', () => {
  it('are the routes of the web app, its catch-all aside', async () => {
    // a path in a variable keeps the web app's JSX out of the API's type check
    const routesModule = fileURLToPath(new URL('../../../web/src/features/routes.tsx', import.meta.url));
    const { featureRoutes } = (await import(routesModule)) as {
      featureRoutes: { path?: string; index?: boolean }[];
    };
    const routes = featureRoutes
      .filter((route) => route.path !== '*')
      .map((route) => (route.index ? '/' : `/${route.path ?? ''}`));
    expect([...SPA_PAGES].sort()).toEqual(routes.sort());
  });

  it('match a routed path segment by segment, a parameter standing for one, in any letter case', () => {
    for (const path of [
      '/',
      '/log-in',
      '/log-in/',
      '/LOG-IN/AbC',
      '/invite/x',
      '/sign-in/uid-1',
      '/validate',
    ])
      expect(isSpaPage(path), path).toBe(true);
    for (const path of ['/log-in/a/b', '/invite', '/sign-in', '/log-inn', '/robots.txt', '/api/email'])
      expect(isSpaPage(path), path).toBe(false);
  });
});

/** A build whose manifest lists log-in and its {csrf} route, in English: each page names its file. */
function builtDist(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'fd-pages-'));
  writeFileSync(path.join(root, 'index.html'), '<html><head></head><div id="root"></div></html>');
  const manifest: PrerenderManifest = {
    defaultLanguage: 'en',
    languages: ['en'],
    pages: { '/': 'log-in.html', '/log-in': 'log-in.html', '/log-in/:csrf': 'log-in-csrf.html' },
    shell: 'index.html',
  };
  mkdirSync(path.join(root, PRERENDER_DIR, 'en'), { recursive: true });
  writeFileSync(path.join(root, PRERENDER_DIR, PRERENDER_MANIFEST), JSON.stringify(manifest));
  for (const file of ['index.html', 'log-in.html', 'log-in-csrf.html']) {
    writeFileSync(path.join(root, PRERENDER_DIR, 'en', file), `<html><head></head><p>${file}</p></html>`);
  }
  return root;
}

const site = 'https://site.example/';
const cfg: PortalConfig = {
  env: 'test',
  apiUrl: '/api/',
  loginUrl: '/oidc',
  siteUrls: { root: site, contactUs: site, privacy: site, terms: site, help: site },
  clientIds: { portal: 'portal' },
  redirectUri: '/api/auth/callback',
  translation: { key: null, scriptUrl: null },
  sentryDsn: null,
  requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
  providerName: 'Frontdoor',
};

describe('the prerendered page of a path', () => {
  it("answers a {csrf} route's page for every csrf, which no page holds; any other path gets the shell", () => {
    const pages = loadWebPages(builtDist(), cfg);
    const fileOf = (routed: string) => /<p>([^<]*)<\/p>/.exec(pages?.page(routed, 'en', 'n') ?? '')?.[1];
    expect(fileOf('/')).toBe('log-in.html');
    expect(fileOf('/log-in')).toBe('log-in.html');
    expect(fileOf('/log-in/')).toBe('log-in.html');
    expect(fileOf('/log-in/3f9c2e7a-csrf')).toBe('log-in-csrf.html');
    expect(fileOf('/LOG-IN/AbC')).toBe('log-in-csrf.html');
    expect(pages?.page('/log-in/3f9c2e7a-csrf', 'en', 'n')).not.toContain('3f9c2e7a');
    for (const routed of ['/log-in/a/b', '/email', '/access-code/x'])
      expect(fileOf(routed), routed).toBe('index.html');
  });
});

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SPA_PAGES, isSpaPage } from './web-pages.ts';

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

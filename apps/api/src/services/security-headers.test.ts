import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSP_NONCE_PLACEHOLDER } from '@frontdoor/contract';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { ConfigError, loadConfig, type Env } from '../config.ts';
import { failurePage } from '../identity/pages.ts';
import { html, htmlPage } from './html.ts';
import { cspDirectives, styleHash, TRANSLATION_WIDGET_ENDPOINTS } from './security-headers.ts';

/** A built SPA as Vite writes it with html.cspNonce, plus a hidden source map. */
const dist = mkdtempSync(path.join(tmpdir(), 'fd-dist-'));
mkdirSync(path.join(dist, 'static'));
writeFileSync(
  path.join(dist, 'index.html'),
  `<!doctype html><head><meta property="csp-nonce" nonce="${CSP_NONCE_PLACEHOLDER}">
<script type="module" src="/static/index-abc123.js" nonce="${CSP_NONCE_PLACEHOLDER}"></script>
<link rel="stylesheet" href="/static/index-abc123.css" nonce="${CSP_NONCE_PLACEHOLDER}"></head><div id="root"></div>`,
);
writeFileSync(path.join(dist, 'static', 'index-abc123.js'), 'console.log(1)\n');
writeFileSync(path.join(dist, 'static', 'index-abc123.js.map'), '{"version":3,"sources":["src/main.tsx"]}');

const PRODUCTION: Env = {
  APP_ENV: 'production',
  DATA_DIR: '/var/lib/frontdoor',
  SMTP_URL: 'smtp://127.0.0.1:1',
  SECRET: 'a-production-secret-of-32-bytes-at-least-0123456789',
  PUBLIC_URL: 'https://portal.frontdoor.test',
};
const WIDGETS: Env = {
  TRANSLATION_KEY: 'wg_public_key',
  TRANSLATION_SCRIPT_URL: 'https://cdn.weglot.com/weglot.min.js',
  SENTRY_DSN: 'https://public-key@o4501.ingest.sentry.io/4502',
};

/** The CSP header as directive → sources. */
function policy(header: unknown): Record<string, string[]> {
  return Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

const pageGet = (t: TestApp, url = '/log-in') => t.app.inject({ url, headers: { accept: 'text/html' } });
const styleOf = (page: string) => /<style>([\s\S]*?)<\/style>/.exec(page)?.[1] ?? '';
const metaNonce = (page: string) => /<meta property="csp-nonce" nonce="([^"]+)">/.exec(page)?.[1];

describe('security headers without a translation widget or error reporting', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { WEB_DIST: dist } });
  });
  afterAll(async () => t.close());

  it("names no origin but the portal's: no https: wildcard, no 'unsafe-inline'", async () => {
    const res = await pageGet(t);
    const header = String(res.headers['content-security-policy']);
    expect(header).not.toMatch(/https?:/);
    expect(header).not.toContain("'unsafe-inline'");
    const csp = policy(header);
    // a page's own inline script (the hydration start of a prerendered page) runs by the page's nonce
    expect(csp['script-src']).toEqual(["'self'", `'nonce-${metaNonce(res.body)}'`]);
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(csp['img-src']).toEqual(["'self'", 'data:']);
    expect(csp['font-src']).toEqual(["'self'"]);
    expect(csp['form-action']).toEqual(["'self'"]);
    expect(csp['style-src-attr']).toEqual(["'none'"]);
    expect(csp['worker-src']).toBeUndefined();
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
  });

  it('sends X-Frame-Options DENY, agreeing with frame-ancestors', async () => {
    expect((await pageGet(t)).headers['x-frame-options']).toBe('DENY');
    expect((await t.app.inject({ url: '/healthz' })).headers['x-frame-options']).toBe('DENY');
  });

  it('isolates a page from the window that opened it (Cross-Origin-Opener-Policy same-origin)', async () => {
    expect((await pageGet(t)).headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('gives every other answer the same CSP, computed at start, with no nonce (only pages ask for one)', async () => {
    const page = String((await pageGet(t)).headers['content-security-policy']);
    const answers = await Promise.all(
      ['/healthz', '/api/no-such-call', '/oidc/.well-known/openid-configuration'].map((url) =>
        t.app.inject({ url }),
      ),
    );
    const policies = answers.map((res) => String(res.headers['content-security-policy']));
    expect(new Set(policies).size).toBe(1);
    expect(policies[0]).not.toContain("'nonce-");
    expect(policies[0]).toBe(page.replace(/ 'nonce-[^']+'/g, ''));
    // oidc-provider writes its answers itself: the headers are on them too
    expect(answers[2]?.headers['x-frame-options']).toBe('DENY');
  });

  it("answers index.html with a fresh nonce per request, the one in that response's style-src", async () => {
    const first = await pageGet(t, '/');
    const second = await pageGet(t, '/log-in/some-csrf');
    const nonces = [first, second].map((res) => {
      expect(res.body).not.toContain(CSP_NONCE_PLACEHOLDER);
      const nonce = metaNonce(res.body);
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(res.body.split(`nonce="${nonce}"`)).toHaveLength(4);
      expect(policy(res.headers['content-security-policy'])['style-src']).toContain(`'nonce-${nonce}'`);
      expect(policy(res.headers['content-security-policy'])['script-src']).toContain(`'nonce-${nonce}'`);
      expect(res.headers['cache-control']).toBe('no-cache');
      return nonce;
    });
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it('never sends index.html as the built file, placeholder and all', async () => {
    const raw = await t.app.inject({ url: '/index.html' });
    expect(raw.statusCode).toBe(404);
    expect(raw.body).not.toContain(CSP_NONCE_PLACEHOLDER);
    const page = await pageGet(t, '/index.html');
    expect(metaNonce(page.body)).toBeDefined();
  });

  it("allows the server's own pages' stylesheets by hash", async () => {
    const csp = policy((await pageGet(t)).headers['content-security-policy']);
    for (const page of [htmlPage('t', html``), failurePage('en', 'stateInvalid')]) {
      expect(styleOf(page)).not.toBe('');
      expect(csp['style-src']).toContain(styleHash(styleOf(page)));
    }
    const docs = await t.app.inject({ url: '/api/docs' });
    expect(policy(docs.headers['content-security-policy'])['style-src']).toContain(
      styleHash(styleOf(docs.body)),
    );
  });

  it('serves source maps outside production', async () => {
    expect((await t.app.inject({ url: '/static/index-abc123.js.map' })).statusCode).toBe(200);
  });
});

describe('security headers with a translation widget and error reporting configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { WEB_DIST: dist, ...WIDGETS } });
  });
  afterAll(async () => t.close());

  it("adds exactly the widget's and the error reporting's origins", async () => {
    const csp = policy((await pageGet(t)).headers['content-security-policy']);
    expect(csp['script-src']?.filter((s) => !s.startsWith("'nonce-"))).toEqual([
      "'self'",
      'https://cdn.weglot.com',
    ]);
    expect(csp['connect-src']).toEqual([
      "'self'",
      'https://cdn.weglot.com',
      ...TRANSLATION_WIDGET_ENDPOINTS,
      'https://o4501.ingest.sentry.io',
    ]);
    expect(csp['style-src']?.filter((s) => s.startsWith('https:'))).toEqual(['https://cdn.weglot.com']);
    expect(csp['style-src']).not.toContain("'unsafe-inline'");
    expect(csp['worker-src']).toEqual(["'self'", 'blob:']);
    expect(csp['img-src']).toEqual(["'self'", 'data:']);
    expect(csp['font-src']).toEqual(["'self'"]);
  });
});

describe('cspDirectives', () => {
  it('adds nothing for a widget script without its key: the SPA would not load it', () => {
    const directives = cspDirectives(loadConfig({ TRANSLATION_SCRIPT_URL: WIDGETS.TRANSLATION_SCRIPT_URL }));
    expect(directives.scriptSrc).toEqual(["'self'"]);
    expect(directives.connectSrc).toEqual(["'self'"]);
  });

  it('refuses a widget or error-reporting address that is not an http(s) URL', () => {
    expect(() => cspDirectives(loadConfig({ ...WIDGETS, TRANSLATION_SCRIPT_URL: 'cdn.weglot.com' }))).toThrow(
      ConfigError,
    );
    expect(() => cspDirectives(loadConfig({ SENTRY_DSN: 'javascript:alert(1)' }))).toThrow(/SENTRY_DSN/);
  });
});

describe('production', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { ...PRODUCTION, WEB_DIST: dist } });
  });
  afterAll(async () => t.close());

  it('does not serve source maps, only the code', async () => {
    const map = await t.app.inject({ url: '/static/index-abc123.js.map' });
    expect(map.statusCode).toBe(404);
    expect(map.body).not.toContain('"sources"');
    expect((await t.app.inject({ url: '/static/index-abc123.js' })).statusCode).toBe(200);
  });

  it('sends Strict-Transport-Security for a year, subdomains included, on a page, an API answer and a hashed file', async () => {
    const answers = [
      await pageGet(t),
      await t.app.inject({ url: '/healthz' }),
      await t.app.inject({ url: '/static/index-abc123.js' }),
    ];
    // the header DEPLOYMENT.md promises, word for word
    for (const res of answers)
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('upgrades insecure requests and keeps the same CSP', async () => {
    const res = await pageGet(t);
    const csp = policy(res.headers['content-security-policy']);
    expect(csp['upgrade-insecure-requests']).toEqual([]);
    expect(String(res.headers['content-security-policy'])).not.toMatch(/https?:|'unsafe-inline'/);
    expect(res.headers['x-frame-options']).toBe('DENY');
  });
});

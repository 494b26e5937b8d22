import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CSRF_COOKIE, CSRF_HEADER, MAX_BODY_BYTES, configSchema, messages } from '@frontdoor/contract';
import { createTestApp, type TestApp } from './testing/harness.ts';

const dist = mkdtempSync(path.join(tmpdir(), 'fd-dist-'));
mkdirSync(path.join(dist, 'assets'));
writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');

describe('serving', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      env: { WEB_DIST: dist, CORS_ORIGINS: 'https://spa.elsewhere.test' },
    });
  });
  afterAll(async () => t.close());

  it('serves hashed assets as immutable and index.html without caching', async () => {
    const asset = await t.app.inject({ url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const index = await t.app.inject({ url: '/index.html', headers: { accept: 'text/html' } });
    expect(index.headers['cache-control']).toBe('no-cache');
  });

  it('falls back to index.html for every page route that accepts HTML, never for the API', async () => {
    for (const url of ['/', '/log-in/abc', '/password-reset?code=1&email=a', '/some/unknown/path']) {
      const res = await t.app.inject({ url, headers: { accept: 'text/html,*/*' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('id="root"');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    const api = await t.app.inject({ url: '/api/nope', headers: { accept: 'text/html' } });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ status: 'error', msg: messages.notFound, code: 'notFound' });
    expect((await t.app.inject({ url: '/missing.png', headers: { accept: 'image/png' } })).statusCode).toBe(
      404,
    );
    // the site root is the page for any client: curl, a load balancer's probe
    const root = await t.app.inject({ url: '/', headers: { accept: '*/*' } });
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain('id="root"');
  });

  it('writes config.json from the environment in the contract shape', async () => {
    const cfg = configSchema.parse((await t.app.inject({ url: '/assets/cfg/config.json' })).json());
    expect(cfg).toMatchObject({
      env: 'development',
      apiUrl: '/api/',
      loginUrl: 'http://localhost:8080/oidc',
      redirectUri: 'http://localhost:8080/api/auth/callback',
      clientIds: { portal: 'frontdoor-portal' },
    });
    expect(cfg.siteUrls.root).toBe('https://staging.frontdoor.education');
  });

  it('serves a page reached at 127.0.0.1 that calls its own API: config.json names it relatively', async () => {
    const cfg = configSchema.parse(
      (await t.app.inject({ url: '/assets/cfg/config.json', headers: { host: '127.0.0.1:8080' } })).json(),
    );
    expect(new URL(cfg.apiUrl, 'http://127.0.0.1:8080/log-in').href).toBe('http://127.0.0.1:8080/api/');
  });

  it('sends security headers with a CSP that allows the SPA', async () => {
    const res = await t.app.inject({ url: '/', headers: { accept: 'text/html' } });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers /healthz and /readyz, and echoes a request id', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
    const res = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'trace-42' } });
    expect(res.headers['x-request-id']).toBe('trace-42');
    expect(String((await t.app.inject({ url: '/healthz' })).headers['x-request-id'])).toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });

  it('allows credentials for the configured CORS origin only', async () => {
    const ok = await t.app.inject({
      url: '/api/auth/sig',
      headers: { origin: 'https://spa.elsewhere.test' },
    });
    expect(ok.headers['access-control-allow-origin']).toBe('https://spa.elsewhere.test');
    expect(ok.headers['access-control-allow-credentials']).toBe('true');
    const no = await t.app.inject({ url: '/api/auth/sig', headers: { origin: 'https://evil.test' } });
    expect(no.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('the unbuilt web app', () => {
  it('shows a page telling to run npm run build', async () => {
    const t = await createTestApp('sqlite');
    const res = await t.app.inject({ url: '/log-in', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build');
    await t.close();
  });
});

describe('readiness', () => {
  it('answers 503 when the database is gone', async () => {
    const t = await createTestApp('sqlite');
    await t.db.destroy();
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(503);
    await t.app.close();
  });
});

describe('request guards', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { RATE_LIMIT_MULTIPLIER: '1' } });
  });
  afterAll(async () => t.close());

  it('requires the CSRF header to equal the fd_csrf cookie on POSTs', async () => {
    const first = await t.app.inject({ url: '/api/auth/sig' });
    const token = first.cookies.find((c) => c.name === CSRF_COOKIE)?.value ?? '';
    expect(token).not.toBe('');
    expect(first.headers[CSRF_HEADER]).toBe(token);
    const post = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/validateEmail',
        payload: { email: 'a@b.test' },
        headers,
        remoteAddress: '10.0.0.1',
      });
    expect((await post({})).statusCode).toBe(403);
    expect((await post({ cookie: `${CSRF_COOKIE}=${token}` })).json()).toEqual({
      status: 'error',
      msg: messages.forbidden,
      code: 'forbidden',
    });
    expect((await post({ cookie: `${CSRF_COOKIE}=${token}`, [CSRF_HEADER]: 'other' })).statusCode).toBe(403);
    expect((await post({ [CSRF_HEADER]: token })).statusCode).toBe(403);
    expect((await post({ cookie: `${CSRF_COOKIE}=${token}`, [CSRF_HEADER]: token })).statusCode).toBe(200);
  });

  const csrf = { cookie: `${CSRF_COOKIE}=tok`, [CSRF_HEADER]: 'tok' };

  it('refuses bodies over 64 KiB with a 413 envelope', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/validateEmail',
      headers: { ...csrf, 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.test', pad: 'x'.repeat(MAX_BODY_BYTES) }),
      remoteAddress: '10.0.0.2',
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ status: 'error', msg: messages.payloadTooLarge, code: 'payloadTooLarge' });
  });

  it('turns malformed JSON and wrong content types into 400 envelopes without a stack', async () => {
    for (const [type, payload] of [
      ['application/json', '{"email":'],
      ['text/plain', 'hello'],
      ['application/json', ''],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/cognito/signup',
        headers: { ...csrf, 'content-type': type ?? '' },
        payload,
        remoteAddress: '10.0.0.3',
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json().status).toBe('error');
      expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    }
  });
});

describe('any input', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => t.close());

  const posts = [
    'auth/validateEmail',
    'cognito/signup',
    'cognito/confirm',
    'cognito/sendreset',
    'cognito/reset',
    'hs/subscription',
    'v2/auth/microsoft-user-realm',
    'gateway/createCsrfLogin',
  ];
  const gets = [
    'auth/cookie?hash=',
    'cognito/resend_verification/',
    'cognito/get_account_type/',
    'devportal/getInviteEmail/',
    'gateway/getCsrfLogin/',
    'accessCodes/login/',
    'auth/setBasicUserRole/',
  ];

  it('never yields a 500 for any JSON body on any POST', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...posts), fc.jsonValue(), async (path, body) => {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/${path}`,
          headers: {
            ...{ cookie: `${CSRF_COOKIE}=x`, [CSRF_HEADER]: 'x' },
            'content-type': 'application/json',
          },
          payload: JSON.stringify(body),
        });
        expect(res.statusCode).toBeLessThan(500);
        expect(['success', 'error']).toContain(res.json().status);
      }),
      { numRuns: 150 },
    );
  });

  it('never yields a 500 for any path parameter or query', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...gets), fc.string({ maxLength: 300 }), async (path, value) => {
        const res = await t.app.inject({ url: `/api/${path}${encodeURIComponent(value)}` });
        expect(res.statusCode).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
  });
});

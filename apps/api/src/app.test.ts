import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import {
  API_PREFIX,
  CONFIG_ELEMENT_ID,
  CSP_NONCE_PLACEHOLDER,
  CSRF_COOKIE,
  CSRF_HEADER,
  DEV_SP_PATH,
  LANGUAGE_COOKIE,
  MAX_BODY_BYTES,
  PRERENDER_DIR,
  PRERENDER_MANIFEST,
  apiPaths,
  configPlaceholder,
  configSchema,
  messages,
  type PrerenderManifest,
} from '@frontdoor/contract';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { createDb, migrateToLatest } from './db/index.ts';
import { NEWER_RELEASE_CHECK_MS } from './services/newer-release.ts';
import {
  ApiClient,
  DIALECTS,
  TEST_PASSWORD,
  TEST_START,
  createTestApp,
  seedUser,
  testClock,
  type TestApp,
  capturedLines,
} from '../test/harness.ts';
import { deriveSecret, loadIdentityKeys } from './identity/keys.ts';
import { PORTAL_CLIENT_ID } from './services/portal-config.ts';
import {
  TEST_DATABASE_URL,
  TEST_SECRET,
  createPostgresDatabase,
  createTestDb,
  fillDisk,
} from '../test/test-db.ts';
import { createTestContext } from '../test/context.ts';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { ok } from './services/http.ts';

const dist = mkdtempSync(path.join(tmpdir(), 'fd-dist-'));
mkdirSync(path.join(dist, 'static'));
writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><html><head></head><div id="root"></div></html>',
);
const script = 'console.log("a hashed file")';
writeFileSync(path.join(dist, 'static', 'index-abc123.js'), script);
writeFileSync(path.join(dist, 'static', 'index-abc123.js.br'), brotliCompressSync(script));
writeFileSync(path.join(dist, 'static', 'index-abc123.js.gz'), gzipSync(script));
writeFileSync(path.join(dist, 'favicon.svg'), '<svg/>');

describe('serving', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      env: { WEB_DIST: dist, CORS_ORIGINS: 'https://app.school.test' },
    });
  });
  afterAll(async () => t.close());

  it('serves hashed assets as immutable and index.html without caching', async () => {
    const asset = await t.app.inject({ url: '/static/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // never asked again, so no validators or ranges: header bytes of every first load
    for (const name of ['etag', 'last-modified', 'accept-ranges'])
      expect(asset.headers[name], name).toBeUndefined();
    const favicon = await t.app.inject({ url: '/favicon.svg' });
    expect(favicon.headers['cache-control']).toBe('no-cache');
    const revalidated = await t.app.inject({
      url: '/favicon.svg',
      headers: { 'if-none-match': String(favicon.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
    const index = await t.app.inject({ url: '/index.html', headers: { accept: 'text/html' } });
    expect(index.headers['cache-control']).toBe('no-cache');
  });

  it("sends a hashed file a file's headers only: no CSP, no CSRF cookie or token; a missing one is never a page", async () => {
    const asset = await t.app.inject({ url: '/static/index-abc123.js' });
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
    expect(asset.headers['cross-origin-resource-policy']).toBe('same-origin');
    for (const name of ['content-security-policy', 'x-frame-options', 'set-cookie', CSRF_HEADER]) {
      expect(asset.headers[name]).toBeUndefined();
    }
    const page = await t.app.inject({ url: '/log-in', headers: { accept: 'text/html' } });
    expect(page.headers['content-security-policy']).toBeDefined();
    expect(page.headers['set-cookie']).toBeDefined();
    for (const url of ['/static/missing-abc.js', '/%73tatic/missing', '/static/nested/missing.css']) {
      const missing = await t.app.inject({ url, headers: { accept: 'text/html' } });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.headers['content-type'], url).toContain('application/json');
    }
  });

  it("serves the build's .br and .gz files by Accept-Encoding and its q-values, varying on it", async () => {
    const asked = async (acceptEncoding?: string) => {
      const res = await t.app.inject({
        url: '/static/index-abc123.js',
        headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
      });
      expect(res.headers.vary).toContain('accept-encoding');
      expect(res.headers['content-type']).toContain('javascript');
      const encoding = res.headers['content-encoding'];
      const body = res.rawPayload;
      const plain =
        encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;
      expect(plain.toString()).toBe(script);
      return encoding ?? 'identity';
    };
    expect(await asked('gzip, deflate, br, zstd')).toBe('br');
    expect(await asked('gzip')).toBe('gzip');
    expect(await asked('br;q=0.5, gzip;q=0.9')).toBe('gzip');
    expect(await asked('br;q=0, gzip')).toBe('gzip');
    expect(await asked('identity')).toBe('identity');
    expect(await asked()).toBe('identity');
  });

  it('puts config.json into every page it answers, unable to end its script element', async () => {
    const res = await t.app.inject({ url: '/log-in', headers: { accept: 'text/html' } });
    const block = new RegExp(
      `<script type="application/json" id="${CONFIG_ELEMENT_ID}">([^<]*)</script>`,
    ).exec(res.body);
    const served = (await t.app.inject({ url: '/assets/cfg/config.json' })).json();
    expect(JSON.parse(block?.[1] ?? 'null')).toEqual(served);
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

  it('answers a browser the login page for a path no file can have (a double slash, a dot segment, a NUL), never an API envelope', async () => {
    for (const url of ['/log-in//', '/log-in/./x', '/invite/%00', '/email/%2e%2e/x']) {
      const page = await t.app.inject({ url, headers: { accept: 'text/html,*/*' } });
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain('id="root"');
    }
    // no page for a program, and the API stays the API
    for (const url of ['/x//y.png', '/api//auth/sig']) {
      const res = await t.app.inject({ url, headers: { accept: '*/*' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ status: 'error', msg: messages.notFound, code: 'notFound' });
    }
  });

  it("answers a page's form sent without its script with the page again (303), its fields never read", async () => {
    for (const url of ['/create-account', '/email?locale=de', '/access-code/abc']) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        payload: 'email=ada%40school.test&pw=Secret-Passw0rd%21',
      });
      expect(res.statusCode, url).toBe(303);
      expect(res.headers.location, url).toBe(url);
    }
    // the page on this site, never `//email`, which a browser reads as the site "email"
    const doubled = await t.app.inject({
      method: 'POST',
      url: '//email',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a',
    });
    expect(doubled.headers.location).toBe('/email');
    // not a page: the API's own answers
    const api = await t.app.inject({ method: 'POST', url: '/api/nope', payload: {} });
    expect(api.statusCode).toBe(403);
  });

  it("answers the SPA's pages to any client (curl's */*, no Accept, HEAD); another path is a page for browsers only", async () => {
    for (const url of [
      '/log-in',
      '/email',
      '/access-code',
      '/code',
      '/log-in/abc/',
      '/Access-Code?locale=fr',
    ])
      for (const headers of [{ accept: '*/*' }, {}]) {
        for (const method of ['GET', 'HEAD'] as const) {
          const res = await t.app.inject({ method, url, headers });
          expect(res.statusCode, `${method} ${url}`).toBe(200);
          expect(res.headers['content-type'], `${method} ${url}`).toBe('text/html; charset=utf-8');
          expect(res.headers['content-security-policy'], url).toContain("'nonce-");
        }
      }
    // an unknown path or a missing file stays missing for a link checker, never a page in its place
    for (const url of ['/log-in/abc/def', '/nothing-here', '/robots.txt']) {
      const res = await t.app.inject({ url, headers: { accept: '*/*' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ status: 'error', msg: messages.notFound, code: 'notFound' });
    }
    // the API and the authorization server stay JSON (or their own), whatever the client accepts
    for (const url of ['/api/nope', '/api/log-in', '/%61pi/email'])
      expect((await t.app.inject({ url, headers: { accept: '*/*' } })).json(), url).toMatchObject({
        code: 'notFound',
      });
    expect((await t.app.inject({ url: '/oidc/log-in' })).headers['content-type']).not.toContain('text/html');
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
    // no site of its own in development: the demo product stands in for it
    expect(cfg.siteUrls.root).toBe(`http://localhost:8080${DEV_SP_PATH}`);
    expect(cfg.siteUrls.privacy).toBe(`http://localhost:8080${DEV_SP_PATH}/privacy`);
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

  it("keeps no API answer in a cache: an invite's address or an account's methods stay off a shared device", async () => {
    for (const call of [
      apiPaths.inviteEmail('no-such-invite'),
      apiPaths.accountType('ana@school.test'),
      apiPaths.sig,
      apiPaths.accessCodeLogin('123456', 'sp-1'),
    ]) {
      const res = await t.app.inject({ url: `${API_PREFIX}${call}` });
      expect({ call, cacheControl: res.headers['cache-control'] }).toEqual({
        call,
        cacheControl: 'no-store',
      });
    }
  });

  it('answers /healthz and /readyz, and echoes a request id', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
    const res = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'trace-42' } });
    expect(res.headers['x-request-id']).toBe('trace-42');
    // one that would fill every log line, forge its shape or carry an address gets an id of its own
    for (const given of ['bad"id{}', 'x'.repeat(500), 'alice@example.org']) {
      const own = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': given } });
      expect(String(own.headers['x-request-id'])).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(String((await t.app.inject({ url: '/healthz' })).headers['x-request-id'])).toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });

  it("answers a product's pages (CORS_ORIGINS) with credentials for who is signed in and sign-out only", async () => {
    const product = { origin: 'https://app.school.test' };
    for (const url of ['/api/auth/sig', '/api/cognito/logout']) {
      const ok = await t.app.inject({ url, headers: product });
      expect(ok.headers['access-control-allow-origin'], url).toBe('https://app.school.test');
      expect(ok.headers['access-control-allow-credentials'], url).toBe('true');
      // nothing for a forged call to read: the CSRF token stays the portal's own
      expect(String(ok.headers['access-control-expose-headers'])).not.toContain('x-csrf-token');
    }
    // a product's fetch wrapper sending its usual headers passes the preflight
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/sig',
      headers: {
        ...product,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'content-type,x-request-id',
      },
    });
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.school.test');
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('content-type');
    const no = await t.app.inject({ url: '/api/auth/sig', headers: { origin: 'https://evil.test' } });
    expect(no.headers['access-control-allow-origin']).toBeUndefined();
    // a product's page (or a script injected into it) cannot sign the browser in as another account,
    // spend a class code or answer the post-login questions for the person
    const login = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/cognito/login',
      headers: {
        ...product,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-csrf-token',
      },
    });
    expect(login.headers['access-control-allow-origin']).toBeUndefined();
    for (const url of ['/api/auth/validateEmail', '/api/hs/subscription', '/api/accessCodes/login/123456/x'])
      expect(
        (await t.app.inject({ url, headers: product })).headers['access-control-allow-origin'],
        url,
      ).toBeUndefined();
  });
});

/** A build with prerendered pages: a login page and the shell, in English and Arabic. */
function prerenderedDist(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'fd-dist-'));
  writeFileSync(
    path.join(root, 'index.html'),
    '<!doctype html><html><head></head><div id="root"></div></html>',
  );
  const manifest: PrerenderManifest = {
    defaultLanguage: 'en',
    languages: ['en', 'ar'],
    pages: { '/': 'log-in.html', '/log-in': 'log-in.html' },
    shell: 'index.html',
  };
  mkdirSync(path.join(root, PRERENDER_DIR));
  writeFileSync(path.join(root, PRERENDER_DIR, PRERENDER_MANIFEST), JSON.stringify(manifest));
  for (const language of manifest.languages) {
    mkdirSync(path.join(root, PRERENDER_DIR, language));
    const page = (body: string) =>
      `<!doctype html><html lang="${language}"><head><meta property="csp-nonce" nonce="${CSP_NONCE_PLACEHOLDER}"></head><div id="root">${body}</div></html>`;
    writeFileSync(
      path.join(root, PRERENDER_DIR, language, 'log-in.html'),
      page(
        `<h1>login-${language}</h1><a href="${configPlaceholder('siteUrls.contactUs')}">${configPlaceholder('providerName')}</a>`,
      ),
    );
    writeFileSync(path.join(root, PRERENDER_DIR, language, 'index.html'), page(''));
  }
  return root;
}

describe('prerendered pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      env: { WEB_DIST: prerenderedDist(), PROVIDER_NAME: 'A & B </script><script>alert(1)</script>' },
    });
  });
  afterAll(async () => t.close());

  const page = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ url, headers: { accept: 'text/html', ...headers } });

  it('answers a page in ?locale, else the cookie of the menu, else Accept-Language by q, else English', async () => {
    const heading = async (url: string, headers?: Record<string, string>) =>
      /<h1>([^<]*)<\/h1>/.exec((await page(url, headers)).body)?.[1] ?? 'shell';
    expect(await heading('/log-in')).toBe('login-en');
    expect(await heading('/log-in', { 'accept-language': 'fr-FR, ar;q=0.8, en;q=0.5' })).toBe('login-ar');
    expect(await heading('/log-in', { 'accept-language': 'en;q=0.4, ar-EG;q=0.9' })).toBe('login-ar');
    expect(await heading('/log-in', { 'accept-language': 'ar;q=0, de' })).toBe('login-en');
    expect(await heading('/log-in', { cookie: `${LANGUAGE_COOKIE}=ar`, 'accept-language': 'en' })).toBe(
      'login-ar',
    );
    expect(await heading('/log-in?locale=en', { cookie: `${LANGUAGE_COOKIE}=ar` })).toBe('login-en');
    expect(await heading('/log-in?locale=xx', { cookie: `${LANGUAGE_COOKIE}=yy` })).toBe('login-en');
    expect(await heading('/', { 'accept-language': 'ar' })).toBe('login-ar');
    expect(await heading('/log-in/', { 'accept-language': 'ar' })).toBe('login-ar');
    // a page that is not prerendered gets the shell in the language, for the SPA to render
    const shell = await page('/code?email=a', { 'accept-language': 'ar' });
    expect(shell.body).toContain('<html lang="ar">');
    expect(shell.body).not.toContain('<h1>');
    const res = await page('/log-in');
    expect(res.headers.vary).toBe('Accept-Encoding, Accept-Language, Cookie');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it("writes the configured strings into a prerendered page, escaped, and the answer's nonce", async () => {
    const res = await page('/log-in');
    const cfg = configSchema.parse((await t.app.inject({ url: '/assets/cfg/config.json' })).json());
    expect(res.body).toContain(`<a href="${cfg.siteUrls.contactUs}">A &amp; B &lt;/script&gt;`);
    expect(res.body).not.toContain('__FD_CONFIG_');
    expect(res.body).not.toContain(CSP_NONCE_PLACEHOLDER);
    const nonce = /nonce="([^"]+)"/.exec(res.body)?.[1];
    expect(String(res.headers['content-security-policy'])).toContain(`'nonce-${nonce}'`);
    // config.json inlined: the provider name's </script> cannot end the JSON block early
    const block = new RegExp(
      `<script type="application/json" id="${CONFIG_ELEMENT_ID}">([^<]*)</script>`,
    ).exec(res.body);
    expect(JSON.parse(block?.[1] ?? 'null')).toEqual(cfg);
    expect(res.body.match(/<script/g)).toHaveLength(1);
  });

  it('compresses a page for the encodings the browser accepts', async () => {
    const br = await page('/log-in', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toContain('<h1>login-en</h1>');
    const gzip = await page('/log-in', { 'accept-encoding': 'br;q=0.1, gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toContain('<h1>login-en</h1>');
    const plain = await page('/log-in', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('<h1>login-en</h1>');
  });

  it('never serves a page file as it was built', async () => {
    const res = await t.app.inject({
      url: `/${PRERENDER_DIR}/en/log-in.html`,
      headers: { accept: 'text/html' },
    });
    expect(res.body).not.toContain('login-en');
    expect(res.body).not.toContain(CSP_NONCE_PLACEHOLDER);
    const manifest = await t.app.inject({ url: `/${PRERENDER_DIR}/${PRERENDER_MANIFEST}` });
    expect(manifest.statusCode).toBe(404);
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

  it('once draining (a SIGTERM with SHUTDOWN_DRAIN_SECONDS), answers 503 to /readyz and still answers the rest, each on a connection it then closes', async () => {
    const t = await createTestApp('sqlite');
    const before = await t.app.inject({ url: '/api/auth/sig' });
    expect(before.headers.connection).not.toBe('close');
    t.app.drain();
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'error', code: 'serverBusy' });
    const sig = await t.app.inject({ url: '/api/auth/sig' });
    expect(sig.statusCode).toBe(200);
    expect(sig.json()).toMatchObject({ status: 'success', loggedin: false });
    expect(sig.headers.connection).toBe('close');
    expect(
      (await t.app.inject({ url: '/log-in', headers: { accept: 'text/html' } })).headers.connection,
    ).toBe('close');
    await t.close();
  });

  it.skipIf(DIALECTS.find((d) => d.dialect === 'postgres')?.skip)(
    'answers 503 when PostgreSQL takes no writes (a failover left DATABASE_URL on a replica: reads answer, every sign-in fails)',
    async () => {
      const t = await createTestApp('postgres');
      const admin = createDb({ databaseUrl: TEST_DATABASE_URL, dataDir: '.' });
      try {
        expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
        const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.db);
        const name = rows[0]?.name ?? '';
        await sql`alter database ${sql.id(name)} set default_transaction_read_only = on`.execute(admin);
        // the app's connections end, as a failover ends them; the next ones open on the read-only database
        await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name}`.execute(
          admin,
        );
        const ready = await t.app.inject({ url: '/readyz' });
        expect(ready.statusCode).toBe(503);
        expect((await t.app.inject({ url: '/api/auth/sig' })).statusCode).toBe(200);
      } finally {
        await admin.destroy();
        await t.close();
      }
    },
  );

  it('on a full disk, answers a sign-in 503 and /readyz 503, scrapes frontdoor_database_up 0 and says so in one error line naming DATA_DIR; ready again a minute after space is freed', async () => {
    const { lines, logger } = capturedLines<{ level: number; msg: string; dataDir?: string }>('info');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'fd-full-'));
    const token = 'metrics-token-0123456789';
    const t = await createTestApp('sqlite', {
      sqliteDir: dataDir,
      logger,
      env: { DATA_DIR: dataDir, METRICS: 'on', METRICS_TOKEN: token },
    });
    try {
      const user = await seedUser(t, { email: 'ana@school.test' });
      const scrapeUp = async () => {
        const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${token}` } });
        return /^frontdoor_database_up (\d)$/m.exec(res.body)?.[1];
      };
      const signIn = () =>
        t.client().post(`/api/${apiPaths.cognitoLogin}`, { email: user.email, password: TEST_PASSWORD });
      // each session a sign-in writes meets a full disk
      const freeSpace = await fillDisk(t.db, 'sessions');
      for (let i = 0; i < 3; i++) {
        const refused = await signIn();
        expect(refused.statusCode).toBe(503);
        expect(refused.json()).toMatchObject({ status: 'error', code: 'internalError' });
        expect(refused.headers['retry-after']).toBe('60');
      }
      expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(503);
      expect(await scrapeUp()).toBe('0');
      const told = lines.filter((l) => l.msg.includes('disk of DATA_DIR'));
      expect(told).toEqual([
        expect.objectContaining({ level: 50, dataDir, msg: expect.stringContaining(`${dataDir} is full`) }),
      ]);
      // no stack per request
      expect(lines.filter((l) => l.level >= 50)).toHaveLength(1);

      await freeSpace();
      t.clock.advance(60_000);
      expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
      expect(await scrapeUp()).toBe('1');
      expect((await signIn()).statusCode).toBe(200);
    } finally {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('answers 503 once a newer release migrated the database under it, saying so in one error line naming the migrations; looks at most once a minute', async () => {
    const { lines, logger } = capturedLines<{ level: number; msg: string; migrations?: string[] }>('info');
    const t = await createTestApp('sqlite', { logger });
    try {
      expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
      // the newer release, started beside this one, ran a migration this one does not know
      await sql`insert into kysely_migration (name, timestamp) values ('999_from_a_newer_release', '2026-11-28T00:00:00.000Z')`.execute(
        t.db,
      );
      // the last look is kept for a minute: the probes stay cheap
      expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
      t.clock.advance(NEWER_RELEASE_CHECK_MS);
      for (let probe = 0; probe < 3; probe++) {
        const res = await t.app.inject({ url: '/readyz' });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toMatchObject({ status: 'error', code: 'internalError' });
      }
      expect(lines.filter((l) => l.level >= 50)).toEqual([
        expect.objectContaining({
          level: 50,
          migrations: ['999_from_a_newer_release'],
          msg: expect.stringMatching(
            /^the database was migrated by a newer release of Frontdoor \(migration 999_from_a_newer_release, unknown to this one\) while this instance serves/,
          ),
        }),
      ]);
    } finally {
      await t.close();
    }
  });

  it('answers 503 when the SQLite file was removed under it (what it writes then is lost)', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'fd-readyz-'));
    const t = await createTestApp('sqlite', { sqliteDir: dataDir });
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
    rmSync(dataDir, { recursive: true });
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(503);
    await t.close();
  });
});

describe('a busy PostgreSQL', () => {
  it.skipIf(DIALECTS.find((d) => d.dialect === 'postgres')?.skip)(
    'answers 503 serverBusy with Retry-After, saying what held the request, to a query stuck behind a lock and to one no connection came free for (said once a minute)',
    async () => {
      const { lines, logger } = capturedLines<{ level: number; msg: string; reason?: string }>('info');
      const { url, drop } = await createPostgresDatabase();
      const db = createDb({
        databaseUrl: url,
        dataDir: '.',
        poolSize: 1,
        timeouts: { lockMs: 100, poolWaitMs: 100 },
      });
      await migrateToLatest(db, { secret: TEST_SECRET });
      const config = loadConfig({
        APP_ENV: 'development',
        PUBLIC_URL: 'http://localhost:8080',
        SECRET: TEST_SECRET,
        WEB_DIST: '/nonexistent-dist',
      });
      const clock = testClock(TEST_START);
      const app = await buildApp(await createTestContext({ config, db, now: clock.now, logger }));
      const holder = new pg.Client({ connectionString: url });
      await holder.connect();
      try {
        await app.ready();
        const client = new ApiClient(app, clock.now);
        const validate = () => client.post('/api/auth/validateEmail', { email: 'ada@example.com' });
        const busy = (res: LightMyRequestResponse) => {
          expect(res.statusCode).toBe(503);
          expect(res.json()).toEqual({ status: 'error', msg: messages.serverBusy, code: 'serverBusy' });
          expect(res.headers['retry-after']).toBe('5');
        };
        expect((await validate()).statusCode).toBe(200);

        // a DBA's transaction holding the table
        await holder.query('begin');
        await holder.query('lock table users in access exclusive mode');
        let before = lines.length;
        busy(await validate());
        expect(lines.slice(before)).toContainEqual(
          expect.objectContaining({
            level: 40,
            msg: expect.stringMatching(/^a PostgreSQL lock or a long statement held this request/),
            reason: 'canceling statement due to lock timeout',
          }),
        );
        expect(lines.slice(before).filter((line) => line.level >= 50)).toEqual([]);
        await holder.query('commit');

        // the pool's one connection held: what waits for it gives up
        const poolBusy = (from: number) =>
          lines
            .slice(from)
            .filter((line) => line.level === 40 && line.msg.startsWith('all 1 PostgreSQL connections busy'));
        before = lines.length;
        await db.connection().execute(async () => {
          busy(await validate());
          busy(await validate());
          expect(poolBusy(before)).toHaveLength(1);
          clock.advance(60_000);
          busy(await validate());
          expect(poolBusy(before)).toHaveLength(2);
        });
        expect(lines.slice(before).filter((line) => line.level >= 50)).toEqual([]);
        expect((await validate()).statusCode).toBe(200);
      } finally {
        await holder.end();
        await app.close();
        await db.destroy();
        await drop();
      }
    },
  );
});

describe('a PostgreSQL that cannot be reached', () => {
  it.skipIf(DIALECTS.find((d) => d.dialect === 'postgres')?.skip)(
    'answers 503 serverBusy with Retry-After, as a held lock does, and says once a minute that DATABASE_URL cannot be reached, not a stack per request',
    async () => {
      const { lines, logger } = capturedLines<{ level: number; msg: string; setting?: string }>('info');
      const { url, drop } = await createPostgresDatabase();
      const migrating = createDb({ databaseUrl: url, dataDir: '.' });
      await migrateToLatest(migrating, { secret: TEST_SECRET });
      await migrating.destroy();
      // the app reaches PostgreSQL through this port, which then closes as a stopped server's does:
      // its connections cut, every new one refused (ECONNREFUSED)
      const server = new URL(url);
      const links = new Set<Socket>();
      const relay = createServer((socket) => {
        const upstream = connect(Number(server.port), server.hostname);
        for (const end of [socket, upstream]) {
          links.add(end);
          end.on('error', () => undefined);
        }
        socket.pipe(upstream).pipe(socket);
      });
      relay.listen(0, '127.0.0.1');
      await once(relay, 'listening');
      const { port } = relay.address() as AddressInfo;
      const databaseUrl = Object.assign(new URL(url), { port: String(port) }).href;
      const db = createDb({ databaseUrl, dataDir: '.' });
      const config = loadConfig({
        APP_ENV: 'development',
        PUBLIC_URL: 'http://localhost:8080',
        SECRET: TEST_SECRET,
        DATABASE_URL: databaseUrl,
        WEB_DIST: '/nonexistent-dist',
      });
      const clock = testClock(TEST_START);
      const app = await buildApp(await createTestContext({ config, db, now: clock.now, logger }));
      try {
        await app.ready();
        const client = new ApiClient(app, clock.now);
        expect((await client.post('/api/auth/validateEmail', { email: 'ada@example.com' })).statusCode).toBe(
          200,
        );
        relay.close();
        for (const end of links) end.destroy();
        // the first meets its pooled connection cut ("Connection terminated unexpectedly"), the others are refused
        for (let i = 0; i < 10; i++) {
          const res = await client.post('/api/auth/validateEmail', { email: 'ada@example.com' });
          expect(res.statusCode).toBe(503);
          expect(res.json()).toEqual({ status: 'error', msg: messages.serverBusy, code: 'serverBusy' });
          expect(res.headers['retry-after']).toBe('5');
        }
        const said = () => lines.filter((line) => line.level >= 50);
        expect(said()).toEqual([
          expect.objectContaining({
            msg: expect.stringMatching(/^PostgreSQL at \S+\/api_test_\w+ \(DATABASE_URL\) cannot be reached/),
            setting: 'DATABASE_URL',
          }),
        ]);
        clock.advance(60_000);
        await client.post('/api/auth/validateEmail', { email: 'ada@example.com' });
        expect(said()).toHaveLength(2);
      } finally {
        await app.close();
        await db.destroy();
        await drop();
      }
    },
  );
});

describe('request guards', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { RATE_LIMIT_MULTIPLIER: '1' } });
  });
  afterAll(async () => t.close());

  /** POST auth/validateEmail from `address` (each test its own, for the flood guard) with `headers`. */
  const validateEmailFrom = (address: string) => (headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/validateEmail',
      payload: { email: 'a@b.test' },
      headers,
      remoteAddress: address,
    });

  it('requires the CSRF header to equal the fd_csrf cookie on POSTs', async () => {
    const first = await t.app.inject({ url: '/api/auth/sig' });
    const token = first.cookies.find((c) => c.name === CSRF_COOKIE)?.value ?? '';
    expect(token).not.toBe('');
    expect(first.headers[CSRF_HEADER]).toBe(token);
    const post = validateEmailFrom('10.0.0.1');
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

  it("tells the portal's own page that sent no CSRF cookie at all that the browser blocks cookies; any other refusal stays forbidden", async () => {
    const post = validateEmailFrom('10.0.0.2');
    const token = 'a'.repeat(32);
    const sameOrigin = { 'sec-fetch-site': 'same-origin' };
    // the SPA echoed the token of the last answer's header; the browser kept no cookie of it
    const blocked = await post({ ...sameOrigin, [CSRF_HEADER]: token });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual({ status: 'error', msg: messages.cookiesBlocked, code: 'cookiesBlocked' });
    const forbidden = async (headers: Record<string, string>) => {
      const res = await post(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json().code, JSON.stringify(headers)).toBe('forbidden');
    };
    // a cookie that does not match, or one that is no token: cookies work, the call is not the portal's
    await forbidden({ ...sameOrigin, cookie: `${CSRF_COOKIE}=${'b'.repeat(32)}`, [CSRF_HEADER]: token });
    await forbidden({ ...sameOrigin, cookie: `${CSRF_COOKIE}=%0A`, [CSRF_HEADER]: token });
    await forbidden({ ...sameOrigin, cookie: `${CSRF_COOKIE}=${token}` });
    // no cookie, but another site's request, or one no browser's page made (none, or no Sec-Fetch-Site)
    for (const site of ['cross-site', 'same-site', 'none'])
      await forbidden({ 'sec-fetch-site': site, [CSRF_HEADER]: token });
    await forbidden({ [CSRF_HEADER]: token });
    // before its first API answer the SPA has no token to echo: the page's first call sends none
    const first = await post(sameOrigin);
    expect(first.statusCode).toBe(403);
    expect(first.json().code).toBe('cookiesBlocked');
    // and the refusal is one: the right pair still passes
    const passes = await post({ ...sameOrigin, cookie: `${CSRF_COOKIE}=${token}`, [CSRF_HEADER]: token });
    expect(passes.statusCode).toBe(200);
  });

  it('takes a CSRF cookie no token could be (bytes no header may carry) as none, and gives a new one', async () => {
    for (const planted of ['%0A', '%E2%82%AC', '%7F', 'a%20b', 'x'.repeat(129)]) {
      const res = await t.app.inject({
        url: '/api/auth/sig',
        headers: { cookie: `${CSRF_COOKIE}=${planted}` },
      });
      expect(res.statusCode, planted).toBe(200);
      const fresh = res.cookies.find((c) => c.name === CSRF_COOKIE)?.value ?? '';
      expect(fresh, planted).toMatch(/^[\w-]{32}$/);
      expect(res.headers[CSRF_HEADER], planted).toBe(fresh);
      // an API call with it is refused as any call without a token, in the envelope
      const post = await t.app.inject({
        method: 'POST',
        url: '/api/auth/validateEmail',
        payload: { email: 'a@b.test' },
        headers: { cookie: `${CSRF_COOKIE}=${planted}`, [CSRF_HEADER]: decodeURIComponent(planted) },
      });
      expect(post.json(), planted).toMatchObject({ status: 'error', code: 'forbidden' });
    }
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

  it('answers a URL the router cannot read (a bad %-escape) with the 400 envelope and the usual headers', async () => {
    for (const url of ['/api/auth/sig%E0%A4%A', '/%', '/log-in/%zz', '/api/accessCodes/login/12%/sp']) {
      const res = await t.app.inject({ url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({ status: 'error', msg: messages.badRequest, code: 'badRequest' });
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-request-id'], url).toBeDefined();
    }
  });

  it('turns malformed JSON or text into 400 and a body of a type the API does not read into 415 envelopes (badRequest) without a stack', async () => {
    for (const [type, payload, status] of [
      ['application/json', '{"email":', 400],
      ['text/plain', 'hello', 400],
      ['application/x-www-form-urlencoded', 'email=a%40b.test', 415],
      ['application/json', '', 400],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/cognito/signup',
        headers: { ...csrf, 'content-type': type ?? '' },
        payload,
        remoteAddress: '10.0.0.3',
      });
      expect(res.statusCode, type).toBe(status);
      expect(res.json()).toMatchObject({ status: 'error', code: 'badRequest' });
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

describe('a request Node cannot parse', () => {
  it('is answered with the envelope and the security headers, not a framework body', async () => {
    const t = await createTestApp('sqlite', { listen: true });
    try {
      const { port } = new URL(t.baseUrl);
      const answer = (request: string) =>
        new Promise<string>((resolve) => {
          let text = '';
          const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
          socket.on('data', (chunk) => (text += chunk.toString()));
          socket.on('error', () => {});
          socket.on('close', () => resolve(text));
        });
      for (const [request, status, code] of [
        [
          'GET /api/auth/sig HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
          400,
          'badRequest',
        ],
        ['FOO /api/auth/sig HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'badRequest'],
        [
          `GET /api/auth/sig HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
          431,
          'payloadTooLarge',
        ],
      ] as const) {
        const text = await answer(request);
        const [head = '', body = ''] = text.split('\r\n\r\n');
        expect(head.split('\r\n')[0], request.slice(0, 20)).toBe(
          `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        );
        expect(head.toLowerCase()).toContain('x-content-type-options: nosniff');
        expect(JSON.parse(body)).toEqual({ status: 'error', msg: messages[code], code });
      }
    } finally {
      await t.close();
    }
  });
});

/** A password sign-in written on a raw socket, as a browser sends it: `length` may promise more than `body`. */
function postLogin(port: number, csrf: string, body: string, length: number) {
  const socket = connect(port, '127.0.0.1', () =>
    socket.write(
      [
        'POST /api/cognito/login HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        'Content-Type: application/json',
        `Content-Length: ${length}`,
        `Cookie: ${CSRF_COOKIE}=${csrf}`,
        `${CSRF_HEADER}: ${csrf}`,
        '',
        body,
      ].join('\r\n'),
    ),
  );
  return socket;
}

describe('a client gone mid-request', () => {
  it('still has its request line, once, with status 499 and the account it signed in, and its timing', async () => {
    const { lines, logger } = capturedLines<{
      msg: string;
      res?: { statusCode: number };
      userId?: string;
      req?: { url: string };
    }>('info');
    const token = 'metrics-token-0123456789';
    const t = await createTestApp('sqlite', {
      listen: true,
      logger,
      env: { METRICS: 'on', METRICS_TOKEN: token },
    });
    try {
      const user = await seedUser(t, { email: 'ana@school.test' });
      // the sign-in held at its password check, the account known, until the client has gone
      let reached = () => {};
      const atCheck = new Promise<void>((resolve) => (reached = resolve));
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const { hashing } = t.ctx.limits;
      const run = hashing.run.bind(hashing);
      vi.spyOn(hashing, 'run').mockImplementationOnce(async (work) => {
        reached();
        await held;
        return run(work);
      });
      const sig = await fetch(`${t.baseUrl}/api/auth/sig`);
      const csrf = String(sig.headers.get(CSRF_HEADER));
      // the server's side of the request: when its client left, and when the handler's answer came
      let closed: Promise<unknown> = Promise.resolve();
      let answered: Promise<unknown> = Promise.resolve();
      let response: ServerResponse | undefined;
      t.app.server.once('request', (_req: IncomingMessage, res: ServerResponse) => {
        response = res;
        closed = once(res, 'close');
        const end = res.end.bind(res);
        answered = new Promise<void>((resolve) => {
          res.end = ((...args: Parameters<typeof end>) => {
            resolve();
            return end(...args);
          }) as typeof res.end;
        });
      });
      const body = JSON.stringify({ email: user.email, password: TEST_PASSWORD });
      const { port } = new URL(t.baseUrl);
      const socket = postLogin(Number(port), csrf, body, Buffer.byteLength(body));
      socket.on('error', () => {});
      await atCheck;
      socket.destroy();
      await closed;
      release();
      await answered;
      // a failed write of the answer after all, which runs Fastify's onResponse: no second line or timing
      response?.emit('error', new Error('write after the client left'));
      await new Promise((resolve) => setImmediate(resolve));
      // signed in all the same
      const started = await t.db
        .selectFrom('audit_log')
        .select('event')
        .where('user_id', '=', user.id)
        .where('event', '=', 'session.started')
        .execute();
      expect(started).toHaveLength(1);
      const logins = lines.filter((l) => l.req?.url === '/api/cognito/login');
      expect(logins).toEqual([
        expect.objectContaining({ msg: 'request completed', res: { statusCode: 499 }, userId: user.id }),
      ]);
      const metrics = await fetch(`${t.baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(await metrics.text()).toMatch(
        /^frontdoor_http_request_duration_seconds_count\{method="POST",route="\/api\/cognito\/login",status="499"\} 1$/m,
      );
    } finally {
      vi.restoreAllMocks();
      await t.close();
    }
  });

  it('a request whose body never finished arriving, timed out by the server, is 408 in its line, not a client gone', async () => {
    const { lines, logger } = capturedLines<{
      msg: string;
      res?: { statusCode: number };
      req?: { url: string };
    }>('info');
    const t = await createTestApp('sqlite', { listen: true, logger });
    try {
      const sig = await fetch(`${t.baseUrl}/api/auth/sig`);
      const csrf = String(sig.headers.get(CSRF_HEADER));
      let closed: Promise<unknown> = Promise.resolve();
      const arrived = new Promise<IncomingMessage>((resolve) =>
        t.app.server.once('request', (req: IncomingMessage, res: ServerResponse) => {
          closed = once(res, 'close');
          resolve(req);
        }),
      );
      const { port } = new URL(t.baseUrl);
      // a trickling client: ten bytes of the hundred its body says it has
      const socket = postLogin(Number(port), csrf, '{"email":"', 100);
      const answer = new Promise<string>((resolve) => {
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.on('close', () => resolve(text));
      });
      socket.on('error', () => {});
      const req = await arrived;
      // what Node does once REQUEST_TIMEOUT_MS has passed (its check runs every 30 s: too slow to wait for)
      const timeout = Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
      t.app.server.emit('clientError', timeout, req.socket);
      expect(await answer).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
      await closed;
      const logins = lines.filter((l) => l.req?.url === '/api/cognito/login');
      expect(logins).toEqual([
        expect.objectContaining({ msg: 'request completed', res: { statusCode: 408 } }),
      ]);
    } finally {
      await t.close();
    }
  });
});

describe('TRUST_PROXY with a proxy that names no client', () => {
  it('says once that a request came without X-Forwarded-For (every client would share the proxy’s address); probes and a proxy that names its client say nothing', async () => {
    const { lines, logger } = capturedLines('warn');
    const t = await createTestApp('sqlite', { env: { TRUST_PROXY: '1' }, logger });
    try {
      const warnings = () =>
        lines.filter((l) => String(l.msg).startsWith('TRUST_PROXY is set, but a request'));
      // a load balancer's probes reach the server directly
      for (const url of ['/healthz', '/readyz']) await t.app.inject({ url });
      await t.app.inject({ url: '/log-in', headers: { 'x-forwarded-for': '203.0.113.9' } });
      expect(warnings()).toEqual([]);
      // the address names what it asks for, its code scrubbed as in every request line
      await t.app.inject({ url: '/password-reset?code=482913&email=ana%40school.org' });
      await t.app.inject({ url: '/api/auth/sig' });
      expect(warnings()).toHaveLength(1);
      expect(warnings()[0]).toMatchObject({ level: 40, url: expect.stringMatching(/^\/password-reset/) });
      expect(JSON.stringify(warnings()[0])).not.toMatch(/482913|ana(@|%40)school/);
      expect(String(warnings()[0]?.msg)).toMatch(/X-Forwarded-For.*DEPLOYMENT/);
    } finally {
      await t.close();
    }
  });
});

/**
 * A NUL (U+0000) in a token, id or code names nothing stored: PostgreSQL's text cannot even hold one
 * and refused every query carrying it (22021), a 500 and an error line, where SQLite found nothing.
 * Each request is answered as its route answers bad input or an unknown value, alike on both.
 */
describe('a NUL in a token, id or code', () => {
  interface Target {
    t: TestApp;
    lines: { level: number }[];
    /** HTTP Basic of the portal's own client at the authorization server. */
    portalClient: string;
  }
  const targets = new Map<string, Target>();
  beforeAll(async () => {
    for (const { dialect } of DIALECTS.filter((d) => !d.skip)) {
      const { lines, logger } = capturedLines<{ level: number }>('info');
      const t = await createTestApp(dialect, { logger });
      const { secret } = await loadIdentityKeys(t.db, t.clock.now());
      const credentials = `${PORTAL_CLIENT_ID}:${deriveSecret(secret, 'portal-client', PORTAL_CLIENT_ID)}`;
      targets.set(dialect, {
        t,
        lines,
        portalClient: `Basic ${Buffer.from(credentials).toString('base64')}`,
      });
    }
  });
  afterAll(async () => {
    for (const { t } of targets.values()) await t.close();
  });

  const csrf = { cookie: `${CSRF_COOKIE}=x`, [CSRF_HEADER]: 'x' };
  const json = { 'content-type': 'application/json' };
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const signup = { first: 'A', last: 'B', email: 'n@x.co', pw: 'Abcdefgh-1234x', description: 'teacher' };
  const callback = encodeURIComponent('http://localhost:8080/api/auth/callback');
  const browser = `fd_browser=${'b'.repeat(43)}`;

  /** What a client reads of an answer: its status, then the envelope's code, OAuth's error or a page's message. */
  const answerOf = (res: LightMyRequestResponse): string => {
    const type = String(res.headers['content-type'] ?? '');
    if (type.startsWith('application/json')) {
      const body = res.json<{ code?: string; error?: string; status?: string }>();
      return `${res.statusCode} ${body.code ?? body.error ?? body.status}`;
    }
    if (type.startsWith('text/html')) {
      const alert = /<p role="alert">([^<]*)<\/p>/.exec(res.body)?.[1];
      const note = /<p class="note"[^>]*>([^<]*)<\/p>/.exec(res.body)?.[1];
      const code = Object.entries(messages).find(([, text]) => text === alert)?.[0] ?? alert;
      return `${res.statusCode} page ${code}${note ? ` (${note})` : ''}`;
    }
    return `${res.statusCode} ${res.body}`;
  };

  const cases: [name: string, send: (target: Target) => Promise<string>, answer: string][] = [
    ...(
      [
        ['an invite code', { url: '/api/devportal/getInviteEmail/a%00b' }, '400 badRequest'],
        ["a login request's csrf", { url: '/api/gateway/getCsrfLogin/a%00b' }, '400 badRequest'],
        [
          "an access code's sp_id",
          { url: '/api/accessCodes/login/123456/a%00b', headers: { 'sec-fetch-site': 'same-origin' } },
          '400 badRequest',
        ],
        ["get_csrf's login csrf", { url: '/api/social/get_csrf?p=Google&c=a%00b' }, '400 badRequest'],
        [
          "the callback's state: the refusal page of a bad state",
          { url: '/api/auth/callback?code=x&state=a%00b' },
          '400 page stateInvalid',
        ],
        [
          "a cookie hash's login csrf, on the refusal page a browser gets",
          {
            url: `/api/auth/cookie?hash=ab&return_url=${encodeURIComponent('http://x.test/')}&token=a%00b`,
            headers: { accept: 'text/html' },
          },
          '400 page badRequest',
        ],
        [
          "a service provider's client id (HTTP Basic)",
          {
            method: 'POST',
            url: '/api/gateway/createCsrfLogin',
            headers: { authorization: 'Basic ADoA', ...json },
            payload: JSON.stringify({ url: 'http://127.0.0.1:8311/dev/sp' }),
          },
          '401 serviceProviderAuthFailed',
        ],
        [
          "a service provider's client id, asking after a session",
          { url: `/api/gateway/session/${'a'.repeat(64)}`, headers: { authorization: 'Basic ADoA' } },
          '401 serviceProviderAuthFailed',
        ],
        [
          "sign-up's invite code",
          {
            method: 'POST',
            url: '/api/cognito/signup',
            headers: { ...csrf, ...json },
            payload: JSON.stringify({ ...signup, code: '\u0000' }),
          },
          '400 badRequest',
        ],
        [
          "a password sign-in's interaction uid",
          {
            method: 'POST',
            url: '/api/cognito/login',
            headers: { ...csrf, ...json },
            payload: JSON.stringify({ email: 'n@x.co', password: 'x', uid: 'a\u0000b' }),
          },
          '400 badRequest',
        ],
        [
          "authorize's client_id",
          { url: '/oidc/oauth2/authorize?client_id=a%00b' },
          '400 page badRequest (client is invalid)',
        ],
        [
          "revoke's token and client_id",
          {
            method: 'POST',
            url: '/oidc/oauth2/revoke',
            headers: form,
            payload: 'token=a%00b&client_id=a%00',
          },
          '401 invalid_client',
        ],
        [
          "the token endpoint's code and client_id",
          {
            method: 'POST',
            url: '/oidc/oauth2/token',
            headers: form,
            payload: 'grant_type=authorization_code&code=a%00b&client_id=a%00b',
          },
          '401 invalid_client',
        ],
        ["the dev mailbox's address", { url: '/dev/mailbox.json?to=%00' }, '400 badRequest'],
        ["the dev mailbox page's address", { url: '/dev/mailbox?to=%00' }, '400 badRequest'],
      ] as const
    ).map(([name, request, answer]): (typeof cases)[number] => [
      name,
      async ({ t }) => answerOf(await t.app.inject(request)),
      answer,
    ]),
    [
      'the code a known client trades',
      async ({ t, portalClient }) =>
        answerOf(
          await t.app.inject({
            method: 'POST',
            url: '/oidc/oauth2/token',
            headers: { ...form, authorization: portalClient },
            payload: `grant_type=authorization_code&code=a%00b&redirect_uri=${callback}&code_verifier=${'v'.repeat(43)}`,
          }),
        ),
      '400 invalid_grant',
    ],
    [
      'the token a known client revokes',
      async ({ t, portalClient }) =>
        answerOf(
          await t.app.inject({
            method: 'POST',
            url: '/oidc/oauth2/revoke',
            headers: { ...form, authorization: portalClient },
            payload: 'token=a%00b',
          }),
        ),
      '200 ',
    ],
    [
      "an authorization's state, at its interaction",
      async ({ t }) => {
        const authorize = await t.app.inject({
          url: `/oidc/oauth2/authorize?client_id=${PORTAL_CLIENT_ID}&response_type=code&scope=openid&redirect_uri=${callback}&state=a%00b&code_challenge=${'c'.repeat(43)}&code_challenge_method=S256`,
          headers: { cookie: browser },
        });
        const cookies = authorize.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
        return answerOf(
          await t.app.inject({
            url: String(authorize.headers.location),
            headers: { cookie: `${browser}; ${cookies}`, accept: 'text/html' },
          }),
        );
      },
      '400 page stateInvalid',
    ],
  ];

  it.each(cases)(
    '%s: no 500 and no error line; SQLite and PostgreSQL answer alike',
    async (_name, send, answer) => {
      const answers: Record<string, string> = {};
      for (const [dialect, target] of targets) {
        const before = target.lines.length;
        answers[dialect] = await send(target);
        expect(target.lines.slice(before).filter((line) => line.level >= 50)).toEqual([]);
      }
      const expected = Object.fromEntries([...targets.keys()].map((dialect) => [dialect, answer]));
      expect(answers).toEqual(expected);
    },
  );

  it.skipIf(DIALECTS.some((d) => d.dialect === 'postgres' && d.skip))(
    'a NUL past every schema and lookup (a route to come) that PostgreSQL refuses (22021, 22P05) is 400 badRequest and an info line; any other database failure stays a 500',
    async () => {
      const { lines, logger } = capturedLines<{ level: number; msg: string; err?: unknown }>('info');
      const { db, drop } = await createTestDb('postgres');
      const config = loadConfig({
        APP_ENV: 'development',
        PUBLIC_URL: 'http://localhost:8080',
        SECRET: TEST_SECRET,
        WEB_DIST: '/nonexistent-dist',
      });
      const app = await buildApp(await createTestContext({ config, db, now: () => TEST_START, logger }));
      try {
        app.get('/api/test/user/:id', async (request) => {
          const { id } = request.params as { id: string };
          return ok(
            (await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) ?? null,
          );
        });
        app.get('/api/test/json/:value', async (request) => {
          const { value } = request.params as { value: string };
          return ok((await sql`select ${value}::jsonb as v`.execute(db)).rows);
        });
        app.get('/api/test/broken', async () => ok(await sql`select * from no_such_table`.execute(db)));
        await app.ready();
        for (const [url, message] of [
          // 22021: a NUL in a text parameter
          ['/api/test/user/a%00b', /0x00/],
          // 22P05: a \u0000 in JSON read as jsonb
          [`/api/test/json/${encodeURIComponent('"a\\u0000b"')}`, /Unicode escape/],
        ] as const) {
          const before = lines.length;
          const res = await app.inject({ url });
          expect(res.statusCode, url).toBe(400);
          expect(res.json(), url).toEqual({ status: 'error', msg: messages.badRequest, code: 'badRequest' });
          const logged = lines.slice(before);
          expect(
            logged.filter((line) => line.level >= 50),
            url,
          ).toEqual([]);
          expect(logged, url).toContainEqual(
            expect.objectContaining({
              level: 30,
              msg: 'bad request',
              // the logger redacts every `code`: PostgreSQL's message names the refusal
              err: expect.objectContaining({ message: expect.stringMatching(message) }),
            }),
          );
        }
        const broken = await app.inject({ url: '/api/test/broken' });
        expect(broken.statusCode).toBe(500);
        expect(broken.json()).toMatchObject({ code: 'internalError' });
      } finally {
        await app.close();
        await drop();
      }
    },
  );
});

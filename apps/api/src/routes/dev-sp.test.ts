import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_SP_PATH, PRODUCT_TOKEN_TTL_MS, SESSION_COOKIE } from '@frontdoor/contract';
import { DIALECTS, createTestApp, seedUser, signedInClient, type TestApp } from '../../test/harness.ts';
import { sessionView } from '../services/current-user.ts';
import { seedDemo } from '../services/demo.ts';
import { checkProductToken } from '../services/dev-sp.ts';
import { startMasquerade } from '../services/masquerade.ts';
import { readSession } from '../services/sessions.ts';
import { findUserById } from '../services/users.ts';
import { styleHash } from '../services/security-headers.ts';
import { PAGE_STYLE, escapeHtml } from '../services/html.ts';

const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' };

describe.each(DIALECTS)('/dev/sp, the demo product, on $dialect', ({ dialect, skip }) => {
  let t: TestApp;
  beforeAll(async () => {
    if (!skip) t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it.skipIf(skip)('before the seed: not signed in, and says to run npm run seed', async () => {
    const res = await t.client().get(DEV_SP_PATH);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('<h2>Not signed in</h2>');
    expect(res.body).toContain('<code>npm run seed</code>');
    // no provider to sign in with yet: back to the page that says so
    const login = await t.client().get(`${DEV_SP_PATH}/log-in`);
    expect(login.statusCode).toBe(303);
    expect(login.headers.location).toBe(DEV_SP_PATH);
  });

  it.skipIf(skip)(
    'works under the strict CSP: its one stylesheet is allowed by hash, no script',
    async () => {
      const res = await t.client().get(DEV_SP_PATH);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain(styleHash(PAGE_STYLE));
      expect(csp).not.toContain('unsafe-inline');
      expect(res.body).toContain(`<style>${PAGE_STYLE}</style>`);
      expect(res.body).not.toMatch(/<script|\son\w+=/i);
    },
  );

  it.skipIf(skip)('"Sign in" opens a new login request of the demo provider returning here', async () => {
    await seedDemo(t.ctx);
    const res = await t.client().get(`${DEV_SP_PATH}/log-in`);
    expect(res.statusCode).toBe(303);
    const csrf = /^\/log-in\/([^/]+)$/.exec(String(res.headers.location))?.[1];
    expect(csrf).toBeTruthy();
    const params = await t.client().get(`/api/gateway/getCsrfLogin/${csrf}`);
    expect(params.json().payload).toEqual({
      url: `http://localhost:8080${DEV_SP_PATH}`,
      isTeacher: false,
      sp_id: 'demo',
    });
    expect((await t.client().get(DEV_SP_PATH)).body).toContain(`href="${DEV_SP_PATH}/log-in">Sign in</a>`);
  });

  it.skipIf(skip)(
    'signed in: the person, auth/sig’s signature and the product token verified against the JWKS, all escaped',
    async () => {
      const user = await seedUser(t, {
        email: 'dev-sp@school.test',
        first: '<img src=x onerror=alert(1)>',
        last: 'O"Neil & Co',
        roles: { teacher: [1, 2] },
      });
      const c = await signedInClient(t, user.id);
      const res = await c.get(DEV_SP_PATH);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<h2>Signed in</h2>');
      expect(res.body).toContain(
        'Signed in as <strong>&lt;img src=x onerror=alert(1)&gt; O&quot;Neil &amp; Co</strong> (dev-sp@school.test)',
      );
      expect(res.body).not.toContain('<img');
      // the signature as auth/sig answers it, roles included
      const sig = (await c.get('/api/auth/sig')).json();
      expect(res.body).toContain(`<pre>${escapeHtml(JSON.stringify(sig.payload.signature, null, 2))}</pre>`);
      expect(res.body).toContain('<strong>Verified</strong>');
      expect(res.body).toContain(`&quot;sub&quot;: &quot;${user.id}&quot;`);
      expect(res.body).toContain(`&quot;aud&quot;: &quot;frontdoor-products&quot;`);
      expect(res.body).toContain('&quot;alg&quot;: &quot;ES256&quot;');
      expect(res.body).toContain(`action="${DEV_SP_PATH}/sign-out"`);
      expect(res.body).toContain('Sign in again');
    },
  );

  it.skipIf(skip)('shows a masquerade: the administrator and the user acted as', async () => {
    const admin = await seedUser(t, {
      email: 'dev-sp-admin@school.test',
      first: 'Ada',
      last: 'Admin',
      roles: { admin: [] },
    });
    const target = await seedUser(t, { email: 'dev-sp-target@school.test', first: 'Tom', last: 'Target' });
    const c = await signedInClient(t, admin.id);
    await startMasquerade(t.ctx, admin, target);
    const res = await c.get(DEV_SP_PATH);
    expect(res.body).toContain(
      'Signed in as <strong>Ada Admin</strong> (dev-sp-admin@school.test), acting as <strong>Tom Target</strong> (dev-sp-target@school.test) (masquerade)',
    );
    expect(res.body).toContain(`&quot;masq&quot;: &quot;${target.id}&quot;`);
  });

  it.skipIf(skip)(
    'a product refuses a token that is tampered with or expired; the page says why',
    async () => {
      const user = await seedUser(t, { email: 'dev-sp-token@school.test' });
      const c = await signedInClient(t, user.id);
      const session = await readSession(t.db, c.cookies.get(SESSION_COOKIE), t.clock.now());
      const signedIn = { session: session!, user: (await findUserById(t.db, user.id))!, masq: undefined };
      const view = await sessionView(t.ctx, signedIn);
      if (!view.loggedin) throw new Error('expected a session');
      const token = view.payload.token;
      expect((await checkProductToken(t.ctx, token)).problem).toBeNull();
      const [header, claims] = token.split('.');
      const forged = `${header}.${Buffer.from(JSON.stringify({ sub: 'someone-else' })).toString('base64url')}.${token.split('.')[2]}`;
      expect((await checkProductToken(t.ctx, forged)).problem).toMatch(/signature/i);
      expect((await checkProductToken(t.ctx, `${header}.${claims}.`)).problem).toBeTruthy();
      const later = { ...t.ctx, now: () => t.clock.now() + PRODUCT_TOKEN_TTL_MS + 1000 };
      expect((await checkProductToken(later, token)).problem).toMatch(/exp/);
    },
  );

  it.skipIf(skip)('"Sign out" ends the session and comes back here signed out', async () => {
    const user = await seedUser(t, { email: 'dev-sp-out@school.test' });
    const c = await signedInClient(t, user.id);
    const res = await c.request({
      method: 'POST',
      url: `${DEV_SP_PATH}/sign-out`,
      headers: SAME_ORIGIN,
      payload: '',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(DEV_SP_PATH);
    expect(c.cookies.has(SESSION_COOKIE)).toBe(false);
    expect((await c.get('/api/auth/sig')).json().loggedin).toBe(false);
    expect((await c.get(DEV_SP_PATH)).body).toContain('<h2>Not signed in</h2>');
  });

  it.skipIf(skip)('another site cannot sign the browser out (403, the session lives on)', async () => {
    const user = await seedUser(t, { email: 'dev-sp-csrf@school.test' });
    const c = await signedInClient(t, user.id);
    const token = c.cookies.get(SESSION_COOKIE);
    for (const headers of [
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.test' },
      { origin: 'https://evil.test' },
      { referer: 'https://evil.test/page' },
    ]) {
      const res = await c.request({
        method: 'POST',
        url: `${DEV_SP_PATH}/sign-out`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: '',
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('crossSiteRequest');
    }
    expect(await readSession(t.db, token, t.clock.now())).not.toBeNull();
  });
});

describe('/dev/sp in production', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      env: {
        APP_ENV: 'production',
        DATA_DIR: '/var/lib/frontdoor',
        SMTP_URL: 'smtp://127.0.0.1:1',
        SECRET: 'a-production-secret-of-32-bytes-at-least-0123456789',
        PUBLIC_URL: 'https://portal.frontdoor.test',
      },
    });
  });
  afterAll(async () => t.close());

  it('answers 404 to every demo route, also to browsers', async () => {
    const html = { accept: 'text/html' };
    for (const url of [DEV_SP_PATH, `${DEV_SP_PATH}/log-in`]) {
      const res = await t.app.inject({ url, headers: html });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('notFound');
    }
    const out = await t.app.inject({ method: 'POST', url: `${DEV_SP_PATH}/sign-out`, headers: SAME_ORIGIN });
    expect(out.statusCode).toBe(404);
  });
});

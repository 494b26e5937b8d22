import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, jwtVerify } from 'jose';
import {
  COOKIE_HASH_TTL_MS,
  CSRF_COOKIE,
  LOGIN_REQUEST_TTL_MS,
  PRODUCT_JWKS_PATH,
  PRODUCT_TOKEN_AUDIENCE,
  SESSION_COOKIE,
  messages,
  sessionSchema,
} from '@frontdoor/contract';
import {
  DIALECTS,
  createTestApp,
  masqueradingClient,
  seedServiceProvider,
  seedUser,
  signedInClient,
  TEST_PASSWORD,
  type TestApp,
} from '../../test/harness.ts';
import * as messageCatalogs from '@frontdoor/contract/message-catalogs';
import { createAccessCode } from '../services/access-codes.ts';
import { createCookieHash } from '../services/cookie-hashes.ts';
import { escapeHtml } from '../services/html.ts';
import { createLoginRequest } from '../services/login-requests.ts';
import { DAY_MS } from '../services/limits.ts';
import { createSession, readSession } from '../services/sessions.ts';
import { startMasquerade } from '../services/masquerade.ts';
import { resolveUpstreamAccount } from '../identity/linked-identities.ts';
import { parseAdminArgs, runAdminCommand } from '../admin/commands.ts';
import type { UpstreamIdentity } from '../identity/upstream-identity.ts';

/** A Clever student as the roster gives them: an untrusted email, a district, a school, a role. */
const cleverStudent: UpstreamIdentity = {
  provider: 'Clever',
  subject: '5f1a2b3c4d5e6f7a8b9c0d1e',
  email: 'kid@district.test',
  emailVerified: false,
  emailTrusted: false,
  linkableEmail: false,
  first: 'Kim',
  last: 'Kid',
  directory: { district: 'd-42', schools: ['s-7'], roles: ['student'] },
};

/** The claims of a product token, verified as a product does: with the keys the portal publishes. */
async function productTokenClaims(t: TestApp, c: Awaited<ReturnType<typeof signedInClient>>, token: string) {
  const jwks = (await c.get(PRODUCT_JWKS_PATH)).json();
  const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
    algorithms: ['ES256'],
    issuer: t.ctx.config.publicUrl,
    audience: PRODUCT_TOKEN_AUDIENCE,
    currentDate: new Date(t.clock.now()),
  });
  return payload;
}

describe.each(DIALECTS)('auth/* on $dialect', ({ dialect, skip }) => {
  let t: TestApp;
  beforeAll(async () => {
    if (!skip) t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  describe.skipIf(skip)('auth/validateEmail', () => {
    it('answers each email status of §3', async () => {
      await seedUser(t, { email: 'login@school.test' });
      await seedUser(t, { email: 'unconfirmed@school.test', confirmed: false });
      await seedUser(t, { email: 'verify@school.test', password: null });
      await seedUser(t, { email: 'reset@school.test', mustReset: true });
      const c = t.client();
      const status = async (email: string) => (await c.post('/api/auth/validateEmail', { email })).json();
      expect(await status('LOGIN@School.test ')).toEqual({ status: 'success', payload: 'login' });
      expect(await status('unconfirmed@school.test')).toEqual({ status: 'success', payload: 'unconfirmed' });
      expect(await status('verify@school.test')).toEqual({ status: 'success', payload: 'verify' });
      expect(await status('reset@school.test')).toEqual({ status: 'success', payload: 'reset-password' });
      expect(await status('nobody@school.test')).toEqual({ status: 'success', payload: 'create-account' });
    });

    it('finds an account made with a look-alike domain by the address its mail goes to', async () => {
      // an operator's `user create` typed with a full-width s: Chromium's email field sends the ASCII form
      const { values } = parseAdminArgs(['--email', 'ana@ｓchool.test', '--first', 'Ana', '--last', 'Lima']);
      await runAdminCommand(t.ctx, ['user', 'create'], values);
      const c = t.client();
      const status = async (email: string) => (await c.post('/api/auth/validateEmail', { email })).json();
      expect(await status('ana@school.test')).toEqual({ status: 'success', payload: 'verify' });
      expect(await status('ana@school\uFE00.test')).toEqual({ status: 'success', payload: 'verify' });
    });

    it("finds an account by its address typed in an IME's full-width mode, as the same slip in the domain", async () => {
      await seedUser(t, { email: 'student@demo.example' });
      const res = await t
        .client()
        .post('/api/auth/validateEmail', { email: 'ｓｔｕｄｅｎｔ@ｄｅｍｏ.example' });
      expect(res.json()).toEqual({ status: 'success', payload: 'login' });
    });

    it('refuses an invalid email with the contract message', async () => {
      const res = await t.client().post('/api/auth/validateEmail', { email: 'not-an-email' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        status: 'error',
        msg: messages.emailFormatInvalid,
        code: 'emailFormatInvalid',
      });
    });

    it('refuses a missing body field', async () => {
      const res = await t.client().post('/api/auth/validateEmail', {});
      expect(res.statusCode).toBe(400);
      expect(res.json().status).toBe('error');
    });
  });

  describe.skipIf(skip)('auth/sig', () => {
    it('says not logged in without a session', async () => {
      const res = await t.client().get('/api/auth/sig');
      expect(res.statusCode).toBe(200);
      expect(sessionSchema.parse(res.json())).toEqual({ loggedin: false, payload: null });
    });

    it('where cookies are Secure, reads the session only from __Host-fd_session: one planted under the plain name by a sibling subdomain is no session', async () => {
      const secure = await createTestApp(dialect, { env: { PUBLIC_URL: 'https://portal.school.test' } });
      try {
        const user = await seedUser(secure, { email: 'host-only@school.test' });
        const token = await createSession(secure.db, user.id, { now: secure.clock.now() });
        const sig = (cookie: string) =>
          secure.app.inject({ url: '/api/auth/sig', headers: { cookie } }).then((res) => res.json());
        expect(await sig(`${SESSION_COOKIE}=${token}`)).toMatchObject({ loggedin: false });
        expect(await sig(`__Host-${SESSION_COOKIE}=${token}`)).toMatchObject({ loggedin: true });
        // and a sign-in sets it under that name, as the prefix requires: Secure, path '/'; without
        // Max-Age, so it ends with the browser's session (a shared device's browser closed)
        const login = await secure.client().post('/api/cognito/login', {
          email: 'host-only@school.test',
          password: TEST_PASSWORD,
        });
        expect(String(login.headers['set-cookie'])).toMatch(
          /__Host-fd_session=[\w-]+; Path=\/; HttpOnly; Secure; SameSite=Lax/,
        );
      } finally {
        await secure.close();
      }
    });

    it('where cookies are Secure, a sign-out or the next sign-in also ends the session of a plain fd_session an older release set: an upgrade leaves none the person cannot end', async () => {
      const secure = await createTestApp(dialect, { env: { PUBLIC_URL: 'https://portal.school.test' } });
      try {
        const user = await seedUser(secure, { email: 'upgraded@school.test' });
        const live = (token: string) => readSession(secure.db, token, secure.clock.now());
        // signed in before the upgrade, the browser holds the session under the plain name
        const before = await createSession(secure.db, user.id, { now: secure.clock.now() });
        const logout = await secure.app.inject({
          url: '/api/cognito/logout',
          headers: { cookie: `${SESSION_COOKIE}=${before}` },
        });
        expect(logout.statusCode).toBe(200);
        expect(await live(before)).toBeNull();
        expect(String(logout.headers['set-cookie'])).toMatch(new RegExp(`(^|,)\\s*${SESSION_COOKIE}=;`));
        // the next person on the device signs in: the previous one's session ends with it
        const previous = await createSession(secure.db, user.id, { now: secure.clock.now() });
        const next = await seedUser(secure, { email: 'next-on-device@school.test' });
        const login = await secure.app.inject({
          method: 'POST',
          url: '/api/cognito/login',
          headers: {
            cookie: `${SESSION_COOKIE}=${previous}; __Host-${CSRF_COOKIE}=t0k3n`,
            'x-csrf-token': 't0k3n',
          },
          payload: { email: next.email, password: TEST_PASSWORD },
        });
        expect(login.statusCode).toBe(200);
        expect(await live(previous)).toBeNull();
      } finally {
        await secure.close();
      }
    });

    /** The claims of a token verified as the product `audience` verifies it (its sp_id, docs/identity.md). */
    async function verifiedAs(
      c: Awaited<ReturnType<typeof signedInClient>>,
      token: string,
      audience: string,
    ) {
      const jwks = (await c.get(PRODUCT_JWKS_PATH)).json();
      const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
        algorithms: ['ES256'],
        issuer: t.ctx.config.publicUrl,
        audience,
        currentDate: new Date(t.clock.now()),
      });
      return payload;
    }
    async function tokenFrom(c: Awaited<ReturnType<typeof signedInClient>>, headers: Record<string, string>) {
      const session = sessionSchema.parse((await c.get('/api/auth/sig', headers)).json());
      if (!session.loggedin) throw new Error('not signed in');
      return session.payload;
    }

    it('returns the signature and a verifiable product token for a session', async () => {
      const user = await seedUser(t, { email: 'sig@school.test', roles: { teacher: [1, 2] } });
      const c = await signedInClient(t, user.id);
      const res = await c.get('/api/auth/sig');
      const session = sessionSchema.parse(res.json());
      expect(session.loggedin).toBe(true);
      if (!session.loggedin) return;
      expect(session.payload.signature).toEqual({
        user: {
          id: user.id,
          email: 'sig@school.test',
          first: 'Ada',
          last: 'Lovelace',
          roles: { teacher: [1, 2] },
          identities: [],
        },
      });
      const payload = await productTokenClaims(t, c, session.payload.token);
      expect(payload.sub).toBe(user.id);
      expect(payload.identities).toEqual([]);
      // a session that does not say how it started (one of before migration 027) claims no method
      expect(payload.amr).toBeUndefined();
      expect(payload.sign_in_sp).toBeUndefined();
    });

    it("a password session's token says so: amr ['pwd'], no sign_in_sp", async () => {
      const user = await seedUser(t, { email: 'sig-pwd@school.test' });
      const c = t.client();
      const login = await c.post('/api/cognito/login', {
        email: 'sig-pwd@school.test',
        password: TEST_PASSWORD,
      });
      expect(login.statusCode).toBe(200);
      const { token } = await tokenFrom(c, {});
      const claims = await productTokenClaims(t, c, token);
      expect(claims.sub).toBe(user.id);
      expect(claims.amr).toEqual(['pwd']);
      expect(claims.sign_in_sp).toBeUndefined();
    });

    it("auth/sig from product A's origin mints aud [A, 'frontdoor-products'] and azp A; jwtVerify with B's audience refuses it", async () => {
      await seedServiceProvider(t, 'sig-product-a', ['https://a.products.test']);
      await seedServiceProvider(t, 'sig-product-b', ['https://b.products.test']);
      const user = await seedUser(t, { email: 'sig-aud@school.test' });
      const c = await signedInClient(t, user.id);
      const { token, signature } = await tokenFrom(c, { origin: 'https://a.products.test' });
      const claims = await verifiedAs(c, token, 'sig-product-a');
      expect(claims.aud).toEqual(['sig-product-a', PRODUCT_TOKEN_AUDIENCE]);
      expect(claims.azp).toBe('sig-product-a');
      // B, verifying its own id as the docs say, refuses the token handed to A
      await expect(verifiedAs(c, token, 'sig-product-b')).rejects.toMatchObject({
        code: 'ERR_JWT_CLAIM_VALIDATION_FAILED',
        claim: 'aud',
      });
      // a product still verifying the shared audience keeps working until a later release drops it
      expect((await productTokenClaims(t, c, token)).sub).toBe(user.id);
      // the signature the browser gets is as before
      expect(Object.keys(signature)).toEqual(['user']);
    });

    it("from the portal's own origin: aud 'frontdoor-products' only", async () => {
      // the demo product registers the portal's own origin: still no product of the portal's pages
      const portal = new URL(t.ctx.config.publicUrl).origin;
      await seedServiceProvider(t, 'sig-portal-demo', [portal]);
      const user = await seedUser(t, { email: 'sig-portal@school.test' });
      const c = await signedInClient(t, user.id);
      const asked: Record<string, string>[] = [
        { origin: portal },
        {},
        { origin: 'https://nobody.products.test' },
      ];
      for (const headers of asked) {
        const claims = await productTokenClaims(t, c, (await tokenFrom(c, headers)).token);
        expect(claims.aud).toBe(PRODUCT_TOKEN_AUDIENCE);
        expect(claims.azp).toBeUndefined();
      }
    });

    it('from an origin two products registered: no product in aud, no azp (which one asks, nothing tells)', async () => {
      await seedServiceProvider(t, 'sig-shared-1', ['https://shared.products.test']);
      await seedServiceProvider(t, 'sig-shared-2', [
        'https://other.products.test',
        'https://shared.products.test',
      ]);
      const user = await seedUser(t, { email: 'sig-shared@school.test' });
      const c = await signedInClient(t, user.id);
      const claims = await productTokenClaims(
        t,
        c,
        (await tokenFrom(c, { origin: 'https://shared.products.test' })).token,
      );
      expect(claims.aud).toBe(PRODUCT_TOKEN_AUDIENCE);
      expect(claims.azp).toBeUndefined();
    });

    it("carries the account's linked identities, as the provider asserted them, in the signature and the token", async () => {
      const { user } = await resolveUpstreamAccount(t.db, cleverStudent, t.clock.now());
      const c = await signedInClient(t, user.id);
      const session = sessionSchema.parse((await c.get('/api/auth/sig')).json());
      if (!session.loggedin) throw new Error('not signed in');
      const identity = {
        provider: 'Clever',
        subject: '5f1a2b3c4d5e6f7a8b9c0d1e',
        email: 'kid@district.test',
        emailVerified: false,
        emailTrusted: false,
        district: 'd-42',
        schools: ['s-7'],
        roles: ['student'],
      };
      expect(session.payload.signature.user).toMatchObject({
        id: user.id,
        // never linked nor shown by an untrusted email
        email: expect.stringMatching(/^clever-[0-9a-f]{20}@federated\.invalid$/),
        identities: [identity],
      });
      const payload = await productTokenClaims(t, c, session.payload.token);
      expect(payload.identities).toEqual([identity]);
    });

    it('lists an identity linked before its claims were kept as asserting nothing', async () => {
      const user = await seedUser(t, { email: 'old-link@school.test' });
      await t.db
        .insertInto('user_identities')
        .values({
          user_id: user.id,
          provider: 'Google',
          subject: 'g-old',
          email: 'old-link@school.test',
          created_at: t.clock.now(),
          claims: null,
        })
        .execute();
      const c = await signedInClient(t, user.id);
      const session = sessionSchema.parse((await c.get('/api/auth/sig')).json());
      expect(session.loggedin && session.payload.signature.user.identities).toEqual([
        {
          provider: 'Google',
          subject: 'g-old',
          email: 'old-link@school.test',
          emailVerified: false,
          emailTrusted: false,
        },
      ]);
    });

    it('lists the linked identities oldest first, also after the older one was signed in with again', async () => {
      const user = await seedUser(t, { email: 'two-links@school.test' });
      const link = (provider: 'Google' | 'Microsoft', subject: string) =>
        t.db
          .insertInto('user_identities')
          .values({
            user_id: user.id,
            provider,
            subject,
            email: null,
            created_at: t.clock.now(),
            claims: null,
          })
          .execute();
      await link('Google', 'g-first');
      await link('Microsoft', 'm-second');
      // a later sign-in with the older link rewrites its claims
      await t.db
        .updateTable('user_identities')
        .set({ claims: JSON.stringify({ emailVerified: true, emailTrusted: false }) })
        .where('subject', '=', 'g-first')
        .execute();
      const c = await signedInClient(t, user.id);
      const session = sessionSchema.parse((await c.get('/api/auth/sig')).json());
      expect(session.loggedin && session.payload.signature.user.identities?.map((i) => i.subject)).toEqual([
        'g-first',
        'm-second',
      ]);
    });

    it('shows the masqueraded user as signature.masq', async () => {
      const { client } = await masqueradingClient(t, 'admin@school.test', 'masq-student@school.test');
      const session = sessionSchema.parse((await client.get('/api/auth/sig')).json());
      expect(session.loggedin && session.payload.signature.masq?.email).toBe('masq-student@school.test');
      expect(session.loggedin && session.payload.signature.user.email).toBe('admin@school.test');
    });

    it("a masquerade's token carries who the masqueraded user is (masq_email, …) and its identities as masq_identities", async () => {
      const admin = await seedUser(t, { email: 'masq-admin@school.test', roles: { admin: [1] } });
      const { user: student } = await resolveUpstreamAccount(
        t.db,
        {
          ...cleverStudent,
          subject: 'masq-student-clever-id',
        },
        t.clock.now(),
      );
      const c = await signedInClient(t, admin.id);
      await startMasquerade(t.ctx, admin, student);
      const session = sessionSchema.parse((await c.get('/api/auth/sig')).json());
      if (!session.loggedin) throw new Error('not signed in');
      expect(session.payload.signature.masq?.identities?.[0]).toMatchObject({
        provider: 'Clever',
        subject: 'masq-student-clever-id',
        roles: ['student'],
      });
      const claims = JSON.parse(
        Buffer.from(session.payload.token.split('.')[1] ?? '', 'base64url').toString(),
      ) as Record<string, unknown>;
      expect(claims).toMatchObject({
        sub: admin.id,
        email: 'masq-admin@school.test',
        roles: { admin: [1] },
        masq: student.id,
        masq_email: student.email,
        masq_given_name: student.first,
        masq_family_name: student.last,
        masq_roles: {},
        identities: [],
      });
      expect(claims.masq_identities).toEqual(session.payload.signature.masq?.identities);
    });

    it('forgets an expired or revoked session', async () => {
      const user = await seedUser(t, { email: 'expiring@school.test' });
      const c = await signedInClient(t, user.id);
      await t.db
        .updateTable('sessions')
        .set({ expires_at: t.clock.now() - 1 })
        .where('user_id', '=', user.id)
        .execute();
      expect((await c.get('/api/auth/sig')).json().loggedin).toBe(false);
    });
  });

  describe.skipIf(skip)('auth/setBasicUserRole', () => {
    it('needs a session', async () => {
      const res = await t.client().get('/api/auth/setBasicUserRole/1');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ status: 'error', msg: messages.notSignedIn, code: 'notSignedIn' });
    });

    it('sets and clears the student flag', async () => {
      const user = await seedUser(t, { email: 'student-flag@school.test' });
      const c = await signedInClient(t, user.id);
      expect((await c.get('/api/auth/setBasicUserRole/1')).json()).toEqual({
        status: 'success',
        payload: { isStudent: true },
      });
      const row = await t.db
        .selectFrom('users')
        .select('is_student')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row.is_student).toBe(1);
      await c.get('/api/auth/setBasicUserRole/0');
      const after = await t.db
        .selectFrom('users')
        .select('is_student')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(after.is_student).toBe(0);
    });

    it('an administrator acting as someone else answers for no one', async () => {
      const {
        admin,
        as: student,
        client,
      } = await masqueradingClient(t, 'flag-admin@school.test', 'flag-masq-student@school.test');
      const res = await client.get('/api/auth/setBasicUserRole/1');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ status: 'error', msg: messages.forbidden, code: 'forbidden' });
      const rows = await t.db
        .selectFrom('users')
        .select('is_student')
        .where('id', 'in', [admin.id, student.id])
        .execute();
      expect(rows.map((r) => r.is_student)).toEqual([null, null]);
    });

    it('refuses anything but 0 or 1', async () => {
      const user = await seedUser(t, { email: 'student-flag-2@school.test' });
      const res = await (await signedInClient(t, user.id)).get('/api/auth/setBasicUserRole/2');
      expect(res.statusCode).toBe(400);
    });
  });

  describe.skipIf(skip)('auth/cookie', () => {
    const returnUrl = 'https://app.cookieland.test/classes?x=1';
    let userId: string;
    beforeAll(async () => {
      await seedServiceProvider(t, 'cookieland', ['https://app.cookieland.test']);
      await seedServiceProvider(t, 'otherland', ['https://other.test']);
      userId = (await seedUser(t, { email: 'cookie-student@school.test' })).id;
    });
    const url = (q: Record<string, string>) => `/api/auth/cookie?${new URLSearchParams(q).toString()}`;
    /** A browser holding fd_csrf = `browser`, as the SPA's after its first call. */
    const browserClient = (browser: string) => {
      const c = t.client();
      c.cookies.set(CSRF_COOKIE, browser);
      return c;
    };
    /** What the access-code page holds after a good code: the hash for its browser and its sign-in request. */
    async function signInLink(browser: string, spId = 'cookieland') {
      const hash = await createCookieHash(t.db, { userId, spId, browser }, t.clock.now());
      const token = await createLoginRequest(t.db, { spId, url: returnUrl, isTeacher: false }, t.clock.now());
      return { hash, token, return_url: returnUrl };
    }

    it('sets the session cookie and redirects to an allowed return url, once, never cached', async () => {
      const link = await signInLink('browser-1');
      const res = await browserClient('browser-1').get(url(link));
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(returnUrl);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      const cookie = res.cookies.find((k) => k.name === SESSION_COOKIE);
      expect(cookie?.httpOnly).toBe(true);
      expect(cookie?.sameSite).toBe('Lax');
      expect((await readSession(t.db, cookie?.value, t.clock.now()))?.userId).toBe(userId);
      const again = await browserClient('browser-1').get(url(link));
      expect(again.statusCode).toBe(400);
      expect(again.json().code).toBe('cookieHashInvalid');
      expect(again.headers['cache-control']).toBe('no-store');
    });

    it('redirects to a return url with characters a header cannot carry (a course named 数学, a NUL) as its percent-encoded form', async () => {
      for (const [returnUrl, location] of [
        [
          'https://app.cookieland.test/classes?course=数学',
          'https://app.cookieland.test/classes?course=%E6%95%B0%E5%AD%A6',
        ],
        [
          'https://app.cookieland.test/classes?x=\u0000#é',
          'https://app.cookieland.test/classes?x=%00#%C3%A9',
        ],
      ] as const) {
        const link = { ...(await signInLink('browser-unicode')), return_url: returnUrl };
        const res = await browserClient('browser-unicode').get(url(link), { accept: 'text/html' });
        expect(res.statusCode, returnUrl).toBe(302);
        expect(res.headers.location).toBe(location);
        expect(res.cookies.find((k) => k.name === SESSION_COOKIE)).toBeDefined();
      }
    });

    it('is redeemed only by the browser that asked for it (no login CSRF)', async () => {
      const link = await signInLink('victim-would-be-attacker');
      for (const other of [t.client(), browserClient('someone-else')]) {
        const res = await other.get(url(link));
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('cookieHashInvalid');
        expect(res.cookies.find((k) => k.name === SESSION_COOKIE)).toBeUndefined();
      }
      expect((await browserClient('victim-would-be-attacker').get(url(link))).statusCode).toBe(302);
    });

    it("tells a browser that keeps no cookies (the class-code page's redirect, no fd_csrf at all) so, without spending the hash", async () => {
      const link = await signInLink('browser-blocked');
      const sameOrigin = { 'sec-fetch-site': 'same-origin' };
      const page = await t.client().get(url(link), { ...sameOrigin, accept: 'text/html' });
      expect(page.statusCode).toBe(403);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain(escapeHtml(messages.cookiesBlocked));
      expect(page.cookies.find((k) => k.name === SESSION_COOKIE)).toBeUndefined();
      expect((await t.client().get(url(link), sameOrigin)).json()).toEqual({
        status: 'error',
        msg: messages.cookiesBlocked,
        code: 'cookiesBlocked',
      });
      // another browser's cookie, or a link typed or pasted into a browser without one: not its sign-in
      for (const [client, headers] of [
        [browserClient('someone-else'), sameOrigin],
        [t.client(), { 'sec-fetch-site': 'none' }],
        [t.client(), {}],
      ] as const) {
        const res = await client.get(url(link), headers);
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('cookieHashInvalid');
      }
      expect((await browserClient('browser-blocked').get(url(link))).statusCode).toBe(302);
    });

    it('requires the sign-in request token', async () => {
      const { token: _token, ...withoutToken } = await signInLink('browser-2');
      const res = await browserClient('browser-2').get(url(withoutToken));
      expect(res.statusCode).toBe(400);
      expect(res.cookies.find((k) => k.name === SESSION_COOKIE)).toBeUndefined();
    });

    it("on a shared device the previous person's session ends when the next one redeems a code", async () => {
      const previous = await seedUser(t, { email: 'cookie-previous@school.test' });
      const c = await signedInClient(t, previous.id);
      c.cookies.set(CSRF_COOKIE, 'shared-device');
      const previousToken = c.cookies.get(SESSION_COOKIE);
      expect((await c.get(url(await signInLink('shared-device')))).statusCode).toBe(302);
      expect(await readSession(t.db, previousToken, t.clock.now())).toBeNull();
      expect((await readSession(t.db, c.cookies.get(SESSION_COOKIE), t.clock.now()))?.userId).toBe(userId);
    });

    it('finishes a class-code sign-in started within the request’s hour, typed after it; not once the request is gone', async () => {
      // the page was opened on the link before the lesson: the request's hour is over when the code is typed
      const token = await createLoginRequest(
        t.db,
        { spId: 'cookieland', url: returnUrl, isTeacher: false },
        t.clock.now(),
      );
      t.clock.advance(LOGIN_REQUEST_TTL_MS + 20 * 60_000);
      const hash = await createCookieHash(
        t.db,
        { userId, spId: 'cookieland', browser: 'late' },
        t.clock.now(),
      );
      const res = await browserClient('late').get(url({ hash, token, return_url: returnUrl }));
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(returnUrl);
      // past what pruning keeps, it is no request
      t.clock.advance(DAY_MS);
      const later = await createCookieHash(
        t.db,
        { userId, spId: 'cookieland', browser: 'late' },
        t.clock.now(),
      );
      const gone = await browserClient('late').get(url({ hash: later, token, return_url: returnUrl }));
      expect(gone.statusCode).toBe(400);
      expect(gone.json().code).toBe('loginRequestNotFound');
    });

    it('refuses a token of another service provider, without consuming the hash', async () => {
      const link = await signInLink('browser-3');
      const token = await createLoginRequest(
        t.db,
        { spId: 'otherland', url: 'https://other.test/', isTeacher: false },
        t.clock.now(),
      );
      const res = await browserClient('browser-3').get(url({ ...link, token }));
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('loginRequestNotFound');
      expect((await browserClient('browser-3').get(url(link))).statusCode).toBe(302);
    });

    it('never redirects to an origin the service provider does not allow', async () => {
      const link = await signInLink('browser-4');
      for (const bad of [
        'https://evil.test/',
        'https://app.cookieland.test.evil.test/',
        'http://app.cookieland.test/',
      ]) {
        const res = await browserClient('browser-4').get(url({ ...link, return_url: bad }));
        expect(res.statusCode).toBe(400);
        expect(res.headers.location).toBeUndefined();
        expect(res.json()).toEqual({
          status: 'error',
          msg: messages.returnUrlNotAllowed,
          code: 'returnUrlNotAllowed',
        });
      }
    });

    it('lives 60 seconds; an expired or unknown hash gets a page for browsers', async () => {
      expect(COOKIE_HASH_TTL_MS).toBeLessThanOrEqual(60_000);
      const link = await signInLink('browser-5');
      t.clock.advance(COOKIE_HASH_TTL_MS + 1);
      const res = await browserClient('browser-5').get(url(link), { accept: 'text/html' });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain(messages.cookieHashInvalid);
      expect(res.headers.location).toBeUndefined();
      expect((await browserClient('browser-5').get(url({ ...link, hash: 'nope' }))).json().code).toBe(
        'cookieHashInvalid',
      );
    });

    it("gives that page in the browser's language, its way back the class-code page of the sign-in request", async () => {
      const link = await signInLink('browser-6');
      t.clock.advance(COOKIE_HASH_TTL_MS + 1);
      const res = await browserClient('browser-6').get(url(link), {
        accept: 'text/html',
        'accept-language': 'de-DE,de;q=0.9',
      });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('<html lang="de" dir="ltr">');
      expect(res.body).toContain(messageCatalogs.de.cookieHashInvalid);
      // the way back is the class-code page of the sign-in request: the code typed again goes on
      expect(res.body).toContain(`href="${t.ctx.config.publicUrl}/access-code/${link.token}"`);
      // a request the portal does not know, or past its hour (the class-code page would refuse it): the login page
      const unknown = await browserClient('browser-6').get(url({ ...link, token: 'unknown' }), {
        accept: 'text/html',
      });
      expect(unknown.body).toContain(`href="${t.ctx.config.publicUrl}/log-in"`);
      t.clock.advance(LOGIN_REQUEST_TTL_MS);
      const past = await browserClient('browser-6').get(url(link), { accept: 'text/html' });
      expect(past.body).toContain(`href="${t.ctx.config.publicUrl}/log-in"`);
    });

    it('refuses a missing query with 400', async () => {
      expect((await t.client().get('/api/auth/cookie')).statusCode).toBe(400);
      expect((await t.client().get(url({ hash: 'x', return_url: 'not a url', token: 't' }))).statusCode).toBe(
        400,
      );
    });

    it('works end to end from an access code, in the browser that typed it', async () => {
      const { code } = await createAccessCode(t.ctx, { spId: 'cookieland', userId });
      const c = t.client();
      const redeemed = (await c.get(`/api/accessCodes/login/${code}/cookieland`)).json();
      const token = await createLoginRequest(
        t.db,
        { spId: 'cookieland', url: returnUrl, isTeacher: false },
        t.clock.now(),
      );
      const link = { hash: redeemed.payload.cookie_hash, return_url: returnUrl, token };
      expect((await t.client().get(url(link))).statusCode).toBe(400);
      expect((await c.get(url(link))).statusCode).toBe(302);
    });

    it("an access code's session: the token says so (amr ['access_code']) and whose code it was (sign_in_sp), to every product", async () => {
      const link = await signInLink('browser-amr');
      const c = browserClient('browser-amr');
      expect((await c.get(url(link))).statusCode).toBe(302);
      const session = sessionSchema.parse(
        (await c.get('/api/auth/sig', { origin: 'https://other.test' })).json(),
      );
      if (!session.loggedin) throw new Error('not signed in');
      const claims = await productTokenClaims(t, c, session.payload.token);
      expect(claims.amr).toEqual(['access_code']);
      expect(claims.sign_in_sp).toBe('cookieland');
      expect(claims.azp).toBe('otherland');
    });

    it("a pupil's access code while the account is turned off (user disable): 403 accountDisabled, a page in the browser's language, no session; user enable lets it in", async () => {
      const pupil = await seedUser(t, { email: 'turned-off-pupil@school.test' });
      const { code } = await createAccessCode(t.ctx, { spId: 'cookieland', userId: pupil.id });
      const admin = (...argv: string[]) => {
        const { positionals, values } = parseAdminArgs(argv);
        return runAdminCommand(t.ctx, positionals, values);
      };
      await admin('user', 'disable', '--id', pupil.id, '--yes');
      const c = t.client();
      const signIn = async (headers?: Record<string, string>) => {
        const redeemed = (await c.get(`/api/accessCodes/login/${code}/cookieland`)).json();
        const token = await createLoginRequest(
          t.db,
          { spId: 'cookieland', url: returnUrl, isTeacher: false },
          t.clock.now(),
        );
        return c.get(url({ hash: redeemed.payload.cookie_hash, return_url: returnUrl, token }), headers);
      };
      const refused = await signIn();
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({
        status: 'error',
        msg: messages.accountDisabled,
        code: 'accountDisabled',
      });
      const page = await signIn({ accept: 'text/html', 'accept-language': 'de-DE,de;q=0.9' });
      expect(page.statusCode).toBe(403);
      expect(page.body).toContain(escapeHtml(messageCatalogs.de.accountDisabled));
      expect(page.cookies.find((k) => k.name === SESSION_COOKIE)).toBeUndefined();
      const sessions = await t.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', pupil.id)
        .execute();
      expect(sessions).toEqual([]);
      // the log shows refused attempts, never a sign-in that did not happen
      const events = async () =>
        (
          await t.db
            .selectFrom('audit_log')
            .select(['event', 'detail'])
            .where('user_id', '=', pupil.id)
            .orderBy('id')
            .execute()
        )
          .filter((e) => e.event.startsWith('sign-in'))
          .map((e) => [e.event, JSON.parse(e.detail)]);
      expect(await events()).toEqual([
        ['sign-in.failed', { method: 'access-code', reason: 'disabled' }],
        ['sign-in.failed', { method: 'access-code', reason: 'disabled' }],
      ]);

      // a link refused while the account was off opens nothing once it is on again: enable spends it
      const refusedLink = await c.get(`/api/accessCodes/login/${code}/cookieland`);
      const linkToken = await createLoginRequest(
        t.db,
        { spId: 'cookieland', url: returnUrl, isTeacher: false },
        t.clock.now(),
      );
      const stale = url({
        hash: refusedLink.json().payload.cookie_hash,
        return_url: returnUrl,
        token: linkToken,
      });
      expect((await c.get(stale)).statusCode).toBe(403);

      await admin('user', 'enable', '--id', pupil.id);
      expect((await c.get(stale)).json()).toMatchObject({ code: 'cookieHashInvalid' });
      expect((await signIn()).statusCode).toBe(302);
      expect((await events()).at(-1)).toEqual(['sign-in', { method: 'access-code' }]);
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, messages } from '@frontdoor/contract';
import {
  DIALECTS,
  TEST_PASSWORD,
  createTestApp,
  seedUser,
  signedInClient,
  type TestApp,
} from '../../test/harness.ts';
import { readSession } from './sessions.ts';
import { routedPath, sentBySameSite } from './route-policy.ts';

const ADA = 'ada@school.test';
const form = `email=${encodeURIComponent(ADA)}&password=${encodeURIComponent(TEST_PASSWORD)}`;

/** The same POST cognito/login written the ways a router may decode, collapse or tolerate. */
const LOGIN_SPELLINGS = [
  '/%61pi/cognito/login',
  '/%61%70%69/cognito/%6Cogin',
  '/api%2Fcognito/login',
  '/api/cognito%2Flogin',
  '//api/cognito/login',
  '/api//cognito/login',
  '/api/cognito/login/',
  '/api/cognito/login.',
  '/api/./cognito/login',
  '/x/../api/cognito/login',
];

describe('routedPath', () => {
  it('decodes and collapses slashes as the router does, and survives broken escapes', () => {
    expect(routedPath('/%61pi/cognito/login?x=1')).toBe('/api/cognito/login');
    expect(routedPath('//api//auth/sig')).toBe('/api/auth/sig');
    expect(routedPath('/%E0%A4%A')).toBe('/%E0%A4%A');
  });
});

describe('sentBySameSite', () => {
  const config = { publicUrl: 'https://portal.test', corsOrigins: [] as string[] };
  const req = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;
  it('trusts Sec-Fetch-Site, then Origin or Referer, and lets non-browser clients through', () => {
    expect(sentBySameSite(req({ 'sec-fetch-site': 'same-origin' }), config)).toBe(true);
    expect(sentBySameSite(req({ 'sec-fetch-site': 'none' }), config)).toBe(true);
    expect(sentBySameSite(req({ 'sec-fetch-site': 'cross-site' }), config)).toBe(false);
    expect(sentBySameSite(req({ 'sec-fetch-site': 'same-site' }), config)).toBe(false);
    expect(sentBySameSite(req({ referer: 'https://evil.test/page' }), config)).toBe(false);
    expect(sentBySameSite(req({ origin: 'https://portal.test' }), config)).toBe(true);
    expect(sentBySameSite(req({}), config)).toBe(true);
  });
  it("accepts a product's origin (CORS_ORIGINS) for a product call only, and only when the browser names it", () => {
    const split = { ...config, corsOrigins: ['https://app.school.test'] };
    const cross = { 'sec-fetch-site': 'cross-site' };
    const product = (headers: Record<string, string>) => sentBySameSite(req(headers), split, true);
    expect(product({ ...cross, origin: 'https://app.school.test' })).toBe(true);
    expect(product({ ...cross, origin: 'https://evil.test' })).toBe(false);
    expect(product(cross)).toBe(false);
    // a sibling subdomain or port is not the product unless the browser names the product's origin
    expect(product({ 'sec-fetch-site': 'same-site' })).toBe(false);
    expect(product({ 'sec-fetch-site': 'same-site', referer: 'https://evil.school.test/' })).toBe(false);
    expect(product({ 'sec-fetch-site': 'same-site', origin: 'https://app.school.test' })).toBe(true);
    // any other call that changes something is the portal's own
    expect(
      sentBySameSite(req({ 'sec-fetch-site': 'same-site', origin: 'https://app.school.test' }), split),
    ).toBe(false);
  });
});

describe.each(DIALECTS)('route policy from the matched route ($dialect)', ({ dialect, skip }) => {
  let t: TestApp;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestApp(dialect, { env: { RATE_LIMIT_MULTIPLIER: '1', LIMIT_FLOOD_PER_MINUTE: '40' } });
    await seedUser(t, { email: ADA });
  });
  afterAll(async () => t?.close());

  it.skipIf(skip)('a cross-site form POST reaches no API route, however the path is spelled', async () => {
    for (const url of ['/api/cognito/login', ...LOGIN_SPELLINGS]) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        payload: form,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
      });
      expect([403, 404, 415], `${url} answered ${res.statusCode}`).toContain(res.statusCode);
      expect(res.cookies.find((c) => c.name === SESSION_COOKIE && c.value)).toBeUndefined();
    }
  });

  it.skipIf(skip)('an API route reached by an encoded path still requires the CSRF header', async () => {
    const json = { 'content-type': 'application/json', cookie: `${CSRF_COOKIE}=t` };
    for (const url of ['/%61pi/cognito/login', '/api/cognito/login/']) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        payload: { email: ADA, password: 'x' },
        headers: json,
      });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden' });
    }
    const res = await t.app.inject({
      method: 'POST',
      url: '/%61pi/cognito/login',
      payload: { email: ADA, password: TEST_PASSWORD },
      headers: { ...json, [CSRF_HEADER]: 't' },
    });
    expect(res.statusCode).toBe(200);
  });

  it.skipIf(skip)('the API reads JSON only, also in the identity scope that parses forms', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/cognito/login',
      payload: form,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `${CSRF_COOKIE}=t`,
        [CSRF_HEADER]: 't',
      },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ status: 'error', code: 'badRequest' });
  });

  it.skipIf(skip)('wrong passwords through an encoded path count like any other', async () => {
    const headers = { cookie: `${CSRF_COOKIE}=t`, [CSRF_HEADER]: 't' };
    const attempt = (url: string) =>
      t.app.inject({
        method: 'POST',
        url,
        payload: { email: ADA, password: 'Wrong-Password-1' },
        headers,
        remoteAddress: '198.51.100.9',
      });
    // from the 5th consecutive failure the account waits (services/limits.ts)
    for (let i = 0; i < 5; i++) expect((await attempt('/%61pi/cognito/login')).statusCode).toBe(401);
    const refused = await attempt('/api/cognito/login');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'tooManyFailures' });
  });

  it.skipIf(skip)('the flood guard counts API calls made through encoded paths', async () => {
    const address = '198.51.100.77';
    const statuses: number[] = [];
    for (let i = 0; i < 41; i++) {
      const url = i % 2 ? '/%61pi/auth/sig' : '/api/%61uth/sig/';
      statuses.push((await t.app.inject({ url, remoteAddress: address })).statusCode);
    }
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe.each(DIALECTS)('state-changing GETs refuse other sites ($dialect)', ({ dialect, skip }) => {
  let t: TestApp;
  let userId: string;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestApp(dialect);
    userId = (await seedUser(t, { email: 'grace@school.test' })).id;
  });
  afterAll(async () => t?.close());

  const crossSite = { 'sec-fetch-site': 'cross-site', referer: 'https://evil.test/' };
  /** The student answer a refused call must not have set. */
  const isStudent = async () =>
    (await t.db.selectFrom('users').select('is_student').where('id', '=', userId).executeTakeFirst())
      ?.is_student;

  it.skipIf(skip)('logout from another site leaves the session; from the portal it ends it', async () => {
    const client = await signedInClient(t, userId);
    const token = client.cookies.get(SESSION_COOKIE);
    const refused = await client.get('/api/cognito/logout', crossSite);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      status: 'error',
      code: 'crossSiteRequest',
      msg: messages.crossSiteRequest,
    });
    expect(await readSession(t.db, token, t.clock.now())).not.toBeNull();
    expect((await client.get('/api/cognito/logout', { 'sec-fetch-site': 'same-origin' })).statusCode).toBe(
      200,
    );
    expect(await readSession(t.db, token, t.clock.now())).toBeNull();
  });

  it.skipIf(skip)('a HEAD from another site is refused like its GET: the session stays', async () => {
    const client = await signedInClient(t, userId);
    const token = client.cookies.get(SESSION_COOKIE);
    for (const url of ['/api/cognito/logout', '/api/auth/setBasicUserRole/1']) {
      const res = await client.request({ method: 'HEAD', url, headers: crossSite });
      expect(res.statusCode, url).toBe(403);
    }
    expect(await readSession(t.db, token, t.clock.now())).not.toBeNull();
    expect(await isStudent()).not.toBe(1);
  });

  it.skipIf(skip)(
    'setBasicUserRole, resend_verification and forgotPassword refuse another site',
    async () => {
      const client = await signedInClient(t, userId);
      for (const url of [
        '/api/auth/setBasicUserRole/1',
        '/%61pi/auth/setBasicUserRole/1',
        '/api/cognito/resend_verification/grace%40school.test',
        '/oidc/forgotPassword?login_hint=grace%40school.test',
      ]) {
        const res = await client.get(url, crossSite);
        expect(res.statusCode, url).toBe(403);
      }
      // the forgotPassword url as the SPA sends it, a form POST, is refused from another site alike
      const posted = await t.app.inject({
        method: 'POST',
        url: '/oidc/forgotPassword',
        headers: { ...crossSite, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'login_hint=grace%40school.test',
      });
      expect(posted.statusCode).toBe(403);
      expect(await isStudent()).not.toBe(1);
      expect(await t.db.selectFrom('outbox').selectAll().execute()).toEqual([]);
      expect(
        (await client.get('/api/auth/setBasicUserRole/1', { 'sec-fetch-site': 'same-origin' })).statusCode,
      ).toBe(200);
    },
  );
});

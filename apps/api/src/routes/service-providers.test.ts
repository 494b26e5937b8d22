import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, LOGIN_REQUEST_TTL_MS, loginParamsSchema, messages } from '@frontdoor/contract';
import {
  DIALECTS,
  basicAuth,
  createTestApp,
  seedServiceProvider,
  seedUser,
  type TestApp,
} from '../../test/harness.ts';
import { createAccessCode } from '../services/access-codes.ts';
import { sha256 } from '../services/crypto.ts';

describe.each(DIALECTS)('gateway, devportal and accessCodes on $dialect', ({ dialect, skip }) => {
  let t: TestApp;
  let sp: { sp_id: string; clientId: string; clientSecret: string };
  beforeAll(async () => {
    if (skip) return;
    t = await createTestApp(dialect);
    sp = await seedServiceProvider(t, 'mathworld', ['https://app.mathworld.test']);
    await seedServiceProvider(t, 'readingroom', ['https://reading.test']);
  });
  afterAll(async () => t?.close());

  describe.skipIf(skip)('gateway/createCsrfLogin and gateway/getCsrfLogin', () => {
    const create = (auth: string | undefined, body: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/gateway/createCsrfLogin',
        headers: auth ? { authorization: auth } : {},
        payload: body as object,
      });

    it('creates a login request for an authenticated service provider (no CSRF cookie needed) and reads it back', async () => {
      const res = await create(basicAuth(sp.clientId, sp.clientSecret), {
        url: 'https://app.mathworld.test/home',
        isTeacher: true,
      });
      expect(res.statusCode).toBe(200);
      const { csrf } = res.json().payload;
      const params = await t.client().get(`/api/gateway/getCsrfLogin/${csrf}`);
      expect(loginParamsSchema.parse(params.json().payload)).toEqual({
        url: 'https://app.mathworld.test/home',
        isTeacher: true,
        sp_id: 'mathworld',
      });
    });

    it('keeps a return url percent-encoded, as a redirect to it must be sent', async () => {
      const res = await create(basicAuth(sp.clientId, sp.clientSecret), {
        url: 'https://app.mathworld.test/cours/élève?course=数学',
      });
      const params = await t.client().get(`/api/gateway/getCsrfLogin/${res.json().payload.csrf}`);
      expect(params.json().payload.url).toBe(
        'https://app.mathworld.test/cours/%C3%A9l%C3%A8ve?course=%E6%95%B0%E5%AD%A6',
      );
    });

    it('refuses missing or wrong credentials with 401', async () => {
      for (const auth of [
        undefined,
        basicAuth(sp.clientId, 'wrong'),
        basicAuth('nobody', sp.clientSecret),
        'Bearer x',
      ]) {
        const res = await create(auth, { url: 'https://app.mathworld.test/' });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({
          status: 'error',
          msg: messages.serviceProviderAuthFailed,
          code: 'serviceProviderAuthFailed',
        });
        expect(res.headers['www-authenticate']).toContain('Basic');
      }
    });

    it('refuses a return url outside the provider origins and a bad body', async () => {
      const auth = basicAuth(sp.clientId, sp.clientSecret);
      expect((await create(auth, { url: 'https://evil.test/' })).json().code).toBe('returnUrlNotAllowed');
      expect((await create(auth, { url: 'not a url' })).statusCode).toBe(400);
      expect((await create(auth, { url: 'https://app.mathworld.test/', isTeacher: 'yes' })).statusCode).toBe(
        400,
      );
    });

    it('forgets an expired or unknown request with 404', async () => {
      const res = await create(basicAuth(sp.clientId, sp.clientSecret), {
        url: 'https://app.mathworld.test/',
      });
      const { csrf } = res.json().payload;
      t.clock.advance(LOGIN_REQUEST_TTL_MS);
      const expired = await t.client().get(`/api/gateway/getCsrfLogin/${csrf}`);
      expect(expired.statusCode).toBe(404);
      expect(expired.json()).toEqual({
        status: 'error',
        msg: messages.loginRequestNotFound,
        code: 'loginRequestNotFound',
      });
      expect((await t.client().get('/api/gateway/getCsrfLogin/unknown')).statusCode).toBe(404);
    });
  });

  describe.skipIf(skip)('devportal/getInviteEmail', () => {
    it('returns the email of a live invite; 409 inviteAccepted for one its account used; 404 for used (its account gone), expired or unknown', async () => {
      const now = t.clock.now();
      await t.db
        .insertInto('invites')
        .values([
          {
            code: 'live',
            email: 'invitee@school.test',
            created_at: now,
            expires_at: now + 1000,
            used_at: null,
          },
          { code: 'used', email: 'x@school.test', created_at: now, expires_at: now + 1000, used_at: now },
          { code: 'old', email: 'y@school.test', created_at: now, expires_at: now, used_at: null },
        ])
        .execute();
      expect((await t.client().get('/api/devportal/getInviteEmail/live')).json()).toEqual({
        status: 'success',
        payload: { email: 'invitee@school.test' },
      });
      // opened again once its sign-up went through (confirmed or not yet): the person goes on to sign in
      await seedUser(t, { email: 'accepted@school.test', confirmed: false });
      await t.db
        .insertInto('invites')
        .values({
          code: 'accepted',
          email: 'accepted@school.test',
          created_at: now,
          expires_at: now + 1000,
          used_at: now,
        })
        .execute();
      const accepted = await t.client().get('/api/devportal/getInviteEmail/accepted');
      expect(accepted.statusCode).toBe(409);
      expect(accepted.json()).toMatchObject({ code: 'inviteAccepted', msg: messages.inviteAccepted });
      for (const code of ['used', 'old', 'nope']) {
        const res = await t.client().get(`/api/devportal/getInviteEmail/${code}`);
        expect(res.statusCode).toBe(404);
        expect(res.json().msg).toBe(messages.inviteNotFound);
      }
    });
  });

  describe.skipIf(skip)('accessCodes/login', () => {
    it('redeems a code for a single-use cookie hash bound to the student and provider', async () => {
      const student = await seedUser(t, { email: 'pupil@school.test' });
      const { code } = await createAccessCode(t.ctx, { spId: 'mathworld', userId: student.id });
      expect(code).toMatch(/^\d{6}$/);
      const res = await t.client().get(`/api/accessCodes/login/${code}/mathworld`, {
        cookie: `${CSRF_COOKIE}=this-browser`,
      });
      expect(res.statusCode).toBe(200);
      const { cookie_hash, sp_id } = res.json().payload;
      expect(sp_id).toBe('mathworld');
      // stored bound to the browser that typed the code (services/cookie-hashes.ts)
      const row = await t.db
        .selectFrom('cookie_hashes')
        .selectAll()
        .where('hash_digest', '=', sha256(`${cookie_hash}\nthis-browser`))
        .executeTakeFirstOrThrow();
      expect(row.user_id).toBe(student.id);
    });

    it('names the product being signed into when the code belongs to another one', async () => {
      const student = await seedUser(t, { email: 'reader@school.test' });
      const { code } = await createAccessCode(t.ctx, { spId: 'readingroom', userId: student.id });
      const res = await t.client().get(`/api/accessCodes/login/${code}/mathworld`);
      expect(res.statusCode).toBe(400);
      // the code is readingroom's: the sentence is about mathworld, and never names whose code it is
      expect(res.json().msg).toBe('The code you entered is not for mathworld Learning');
      expect(res.json().msg.startsWith(messages.accessCodeWrongProviderPrefix)).toBe(true);
      // the SPA knows it by this code, never by its text, and says it in the page's language with the
      // name it is given apart
      expect(res.json().code).toBe('accessCodeWrongProviderPrefix');
      expect(res.json().sp_name).toBe('mathworld Learning');
    });

    it('refuses unknown or revoked codes (404) and codes of the wrong length (400)', async () => {
      const student = await seedUser(t, { email: 'revoked@school.test' });
      const { code, id } = await createAccessCode(t.ctx, { spId: 'mathworld', userId: student.id });
      await t.db
        .updateTable('access_codes')
        .set({ revoked_at: t.clock.now() })
        .where('id', '=', id)
        .execute();
      for (const c of [code, '00000x']) {
        const res = await t.client().get(`/api/accessCodes/login/${c}/mathworld`);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({
          status: 'error',
          msg: messages.accessCodeNotFound,
          code: 'accessCodeNotFound',
        });
      }
      const short = await t.client().get('/api/accessCodes/login/12345/mathworld');
      expect(short.statusCode).toBe(400);
      expect(short.json().msg).toBe(messages.accessCodeLength);
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIALECTS,
  TEST_PASSWORD,
  createTestApp,
  lastMail,
  seedServiceProvider,
  seedUser,
  type TestApp,
  wrongCode,
} from '../../test/harness.ts';
import { createAccessCode } from './access-codes.ts';
import { listAudit } from './audit.ts';
import { createLoginRequest } from './login-requests.ts';

const WRONG = 'Wrong-Passw0rd-Typed';
const NEW_PASSWORD = 'Brand-New-Quartz-Lantern-7';
/** What fastify.inject reports as the client's address. */
const ADDRESS = '127.0.0.1';

describe.each(DIALECTS)('audit log on $dialect', ({ dialect, skip }) => {
  let t: TestApp;
  beforeAll(async () => {
    if (!skip) t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  /** The newest `n` entries, oldest first, as [event, user id, provider, address, detail]. */
  const newest = async (n: number) => {
    const entries = await listAudit(t.ctx, { limit: n });
    return {
      rows: entries.reverse().map((e) => [e.event, e.user_id, e.sp_id, e.address, e.detail]),
      text: JSON.stringify(entries),
    };
  };

  it.skipIf(skip)(
    'writes password sign-ins, failed ones and the session started, with the address; never a password or a typed email',
    async () => {
      const email = 'pupil@audit.test';
      const user = await seedUser(t, { email });
      const c = t.client();
      expect((await c.post('/api/cognito/login', { email, password: WRONG })).statusCode).toBe(401);
      const unknown = { email: 'nobody@audit.test', password: WRONG };
      expect((await c.post('/api/cognito/login', unknown)).statusCode).toBe(401);
      expect((await c.post('/api/cognito/login', { email, password: TEST_PASSWORD })).statusCode).toBe(200);

      const { rows, text } = await newest(4);
      expect(rows).toEqual([
        ['sign-in.failed', user.id, null, ADDRESS, { method: 'password' }],
        ['sign-in.failed', null, null, ADDRESS, { method: 'password', unknownAccount: true }],
        ['sign-in', user.id, null, ADDRESS, { method: 'password' }],
        ['session.started', user.id, null, ADDRESS, { via: 'password' }],
      ]);
      for (const secret of [WRONG, TEST_PASSWORD, 'nobody@audit.test', email])
        expect(text).not.toContain(secret);
    },
  );

  it.skipIf(skip)(
    'writes access-code sign-ins, wrong codes and the session auth/cookie starts; never a code or a hash',
    async () => {
      const spId = 'audit-sp';
      const returnUrl = 'https://app.audit.test/class';
      await seedServiceProvider(t, spId, ['https://app.audit.test']);
      const student = await seedUser(t, { email: 'coder@audit.test' });
      const { code } = await createAccessCode(t.ctx, { spId, userId: student.id });
      const c = t.client();
      await c.get('/api/auth/sig');
      const wrong = code === '000000' ? '111111' : '000000';
      expect((await c.get(`/api/accessCodes/login/${wrong}/${spId}`)).statusCode).toBe(404);
      const good = await c.get(`/api/accessCodes/login/${code}/${spId}`);
      const hash = String(good.json().payload.cookie_hash);
      const token = await createLoginRequest(t.db, { spId, url: returnUrl, isTeacher: false }, t.clock.now());
      const query = new URLSearchParams({ hash, return_url: returnUrl, token });
      expect((await c.get(`/api/auth/cookie?${query.toString()}`)).statusCode).toBe(302);

      const { rows, text } = await newest(3);
      expect(rows).toEqual([
        ['sign-in.failed', null, spId, ADDRESS, { method: 'access-code' }],
        ['sign-in', student.id, spId, ADDRESS, { method: 'access-code' }],
        ['session.started', student.id, spId, ADDRESS, { via: 'cookie' }],
      ]);
      for (const secret of [code, wrong, hash]) expect(text).not.toContain(secret);
    },
  );

  it.skipIf(skip)(
    'writes a password reset: the code mailed, a wrong code, the new password set',
    async () => {
      const email = 'forgetful@audit.test';
      const user = await seedUser(t, { email });
      const c = t.client();
      expect((await c.post('/api/cognito/sendreset', { un: email })).statusCode).toBe(200);
      const { code = '' } = await lastMail(t, email);
      const wrong = wrongCode(code);
      const reset = (resetCode: string) =>
        c.post('/api/cognito/reset', {
          un: email,
          code: resetCode,
          pw: NEW_PASSWORD,
          confirmPw: NEW_PASSWORD,
        });
      expect((await reset(wrong)).statusCode).toBe(400);
      expect((await reset(code)).statusCode).toBe(200);

      const { rows, text } = await newest(3);
      expect(rows).toEqual([
        ['password.reset-requested', user.id, null, ADDRESS, {}],
        ['code.failed', user.id, null, ADDRESS, { purpose: 'reset' }],
        ['password.reset', user.id, null, ADDRESS, {}],
      ]);
      for (const secret of [code, wrong, NEW_PASSWORD, email]) expect(text).not.toContain(secret);
    },
  );
});

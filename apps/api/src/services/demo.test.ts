import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordFlags } from '@frontdoor/contract';
import { DIALECTS, createTestApp, type TestApp } from '../../test/harness.ts';
import { countLiveCodes } from './access-codes.ts';
import { DEMO_ACCOUNTS, DEMO_SP, DemoRefused, demoInstructions, seedDemo } from './demo.ts';
import { passwordRefusal } from './password-policy.ts';
import { hashPassword } from './users.ts';

describe('the demo accounts', () => {
  it.each(Object.values(DEMO_ACCOUNTS))('$email has a password the rules accept', (account) => {
    expect(passwordFlags(account.password)).toEqual([]);
    expect(passwordRefusal(account.password, account)).toBeNull();
  });
});

describe.each(DIALECTS)('npm run seed (seedDemo) on $dialect', ({ dialect, skip }) => {
  let t: TestApp;
  beforeAll(async () => {
    if (!skip) t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  const csrfOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
  const count = async (table: 'service_providers' | 'users') =>
    Number(
      (
        await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it.skipIf(skip)('refuses production before writing anything', async () => {
    const production = { ...t.ctx, config: { ...t.ctx.config, production: true } };
    await expect(seedDemo(production)).rejects.toThrow(DemoRefused);
    expect(await count('service_providers')).toBe(0);
    expect(await count('users')).toBe(0);
  });

  it.skipIf(skip)(
    'run twice: nothing duplicated, the accounts get their documented password back, one live code',
    async () => {
      const first = await seedDemo(t.ctx);
      expect(first.serviceProvider).toMatchObject({
        spId: DEMO_SP.spId,
        returnUrl: 'http://localhost:8080/dev/sp',
        created: true,
      });
      expect(first.serviceProvider.clientSecret).toBeTruthy();
      expect(first.accounts.student.created).toBe(true);

      // meanwhile the newcomer changed the student's password and got the account locked
      await t.db
        .updateTable('users')
        .set({
          password_hash: await hashPassword('Another-Secret-99'),
          locked_at: t.clock.now(),
          failed_attempts: 9,
        })
        .where('id', '=', first.accounts.student.id)
        .execute();
      t.clock.advance(60_000);

      const second = await seedDemo(t.ctx);
      expect(second.serviceProvider).toMatchObject({
        clientId: first.serviceProvider.clientId,
        created: false,
      });
      expect(second.serviceProvider.clientSecret).toBeUndefined();
      expect(second.accounts.student).toMatchObject({ id: first.accounts.student.id, created: false });
      expect(second.accounts.teacher).toMatchObject({ id: first.accounts.teacher.id, created: false });
      expect(await count('service_providers')).toBe(1);
      expect(await count('users')).toBe(2);
      expect(await countLiveCodes(t.db, DEMO_SP.spId, t.clock.now())).toBe(1);
      expect(second.loginUrl).not.toBe(first.loginUrl);

      // the replaced code is dead, the new one and the documented password work
      const c = t.client();
      const old = await c.get(`/api/accessCodes/login/${first.accessCode.code}/${DEMO_SP.spId}`);
      expect(old.statusCode).toBeGreaterThanOrEqual(400);
      const fresh = await c.get(`/api/accessCodes/login/${second.accessCode.code}/${DEMO_SP.spId}`);
      expect(fresh.statusCode).toBe(200);
      const login = await t.client().post('/api/cognito/login', {
        email: DEMO_ACCOUNTS.student.email,
        password: DEMO_ACCOUNTS.student.password,
      });
      expect(login.statusCode).toBe(200);
    },
  );

  it.skipIf(skip)('adds a new PUBLIC_URL origin to the provider instead of failing', async () => {
    const moved = { ...t.ctx, config: { ...t.ctx.config, publicUrl: 'http://127.0.0.1:9090' } };
    const seed = await seedDemo(moved);
    expect(seed.devSpUrl).toBe('http://127.0.0.1:9090/dev/sp');
    const res = await t.client().get(`/api/gateway/getCsrfLogin/${csrfOf(seed.loginUrl)}`);
    expect(res.json().payload.url).toBe('http://127.0.0.1:9090/dev/sp');
    const sp = await t.db.selectFrom('service_providers').select('origins').executeTakeFirstOrThrow();
    expect(JSON.parse(sp.origins)).toEqual(['http://localhost:8080', 'http://127.0.0.1:9090']);
  });

  it.skipIf(skip)(
    'what it creates works through the API: the login request, the access code and the password end on /dev/sp signed in',
    async () => {
      const seed = await seedDemo(t.ctx);
      const csrf = csrfOf(seed.loginUrl);
      expect(csrfOf(seed.accessCodeUrl)).toBe(csrf);
      const params = await t.client().get(`/api/gateway/getCsrfLogin/${csrf}`);
      expect(params.json().payload).toEqual({ url: seed.devSpUrl, isTeacher: false, sp_id: DEMO_SP.spId });

      // the student's code, redeemed in the browser that typed it, returns to /dev/sp with a session
      const student = t.client();
      const redeemed = await student.get(`/api/accessCodes/login/${seed.accessCode.code}/${DEMO_SP.spId}`);
      const query = new URLSearchParams({
        hash: redeemed.json().payload.cookie_hash,
        return_url: seed.devSpUrl,
        token: csrf,
      });
      const back = await student.get(`/api/auth/cookie?${query.toString()}`);
      expect(back.statusCode).toBe(302);
      expect(back.headers.location).toBe(seed.devSpUrl);
      const page = await student.get('/dev/sp');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Signed in as <strong>Sam Rivera</strong> (student@demo.example)');
      expect(page.body).toContain('<strong>Verified</strong>');

      // the teacher signs in with the printed password
      const teacher = t.client();
      const login = await teacher.post('/api/cognito/login', {
        email: seed.accounts.teacher.email,
        password: seed.accounts.teacher.password,
      });
      expect(login.json().payload).toEqual({ redirect: '/post-login' });
      expect((await teacher.get('/dev/sp')).body).toContain('(teacher@demo.example)');

      // what the person reads: every URL to open, the accounts and the code
      const text = demoInstructions(seed);
      for (const part of [
        seed.loginUrl,
        seed.accessCodeUrl,
        seed.accessCode.code,
        seed.devSpUrl,
        'http://localhost:8080/dev/mailbox',
        `${DEMO_ACCOUNTS.student.email}  password ${DEMO_ACCOUNTS.student.password}`,
        `${DEMO_ACCOUNTS.teacher.email}  password ${DEMO_ACCOUNTS.teacher.password}`,
      ])
        expect(text).toContain(part);
    },
  );
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SESSION_COOKIE,
  SESSION_IDLE_MS,
  SESSION_SEEN_REFRESH_MS,
  SESSION_TTL_MS,
  sessionSchema,
} from '@frontdoor/contract';
import {
  DIALECTS,
  TEST_PASSWORD,
  basicAuth,
  createTestApp,
  seedServiceProvider,
  seedUser,
  signedInClient,
  type TestApp,
} from '../../test/harness.ts';
import type { ApiClient } from '../../test/harness.ts';
import { sha256 } from './crypto.ts';
import { createAccessCode } from './access-codes.ts';
import { createLoginRequest } from './login-requests.ts';
import { isSessionActive, replaceSession } from './sessions.ts';

const MINUTE_MS = 60 * 1000;

describe.each(DIALECTS)('session lifetimes on $dialect', ({ dialect, skip }) => {
  let t: TestApp;
  beforeAll(async () => {
    if (!skip) t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  const signedIn = async (c: ApiClient) =>
    sessionSchema.parse((await c.get('/api/auth/sig')).json()).loggedin;
  const lastSeen = async (c: ApiClient) =>
    (
      await t.db
        .selectFrom('sessions')
        .select('last_seen_at')
        .where('id', '=', sha256(c.cookies.get(SESSION_COOKIE) ?? ''))
        .executeTakeFirstOrThrow()
    ).last_seen_at;

  it.skipIf(skip)(
    'an account deleted while it signs in (an administrator at the same moment) gets no session: 401, never a 500',
    async () => {
      const user = await seedUser(t, { email: 'deleted-meanwhile@school.test' });
      await t.db.deleteFrom('users').where('id', '=', user.id).execute();
      const start = { via: 'password', address: '198.51.100.9' } as const;
      await expect(replaceSession(t.db, [], user.id, t.clock.now(), start)).rejects.toMatchObject({
        statusCode: 401,
        code: 'incorrectCredentials',
      });
    },
  );

  it.skipIf(skip)(
    'an account turned off (user disable) gets no session: 403 accountDisabled, no row written',
    async () => {
      const user = await seedUser(t, { email: 'disabled-signs-in@school.test' });
      await t.db.updateTable('users').set({ disabled_at: t.clock.now() }).where('id', '=', user.id).execute();
      const start = { via: 'cookie', spId: 'math', address: '198.51.100.9' } as const;
      await expect(replaceSession(t.db, [], user.id, t.clock.now(), start)).rejects.toMatchObject({
        statusCode: 403,
        code: 'accountDisabled',
      });
      const rows = await t.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute();
      expect(rows).toEqual([]);
    },
  );

  it.skipIf(skip)(
    "a session of an account turned off is not live, for the portal and a product's gateway/session alike: one a sign-in wrote as the disable ran",
    async () => {
      const user = await seedUser(t, { email: 'disabled-meanwhile@school.test' });
      const c = await signedInClient(t, user.id);
      const sid = sha256(c.cookies.get(SESSION_COOKIE) ?? '');
      const disabled = async (at: number | null) =>
        t.db.updateTable('users').set({ disabled_at: at }).where('id', '=', user.id).execute();
      // the row stays unrevoked, as one inserted after the disable's revocation would
      await disabled(t.clock.now());
      expect(await signedIn(c)).toBe(false);
      expect(await isSessionActive(t.db, sid, t.clock.now())).toBe(false);
      await disabled(null);
      expect(await isSessionActive(t.db, sid, t.clock.now())).toBe(true);
      expect(await signedIn(c)).toBe(true);
    },
  );

  it.skipIf(skip)(
    'a session idle for longer than SESSION_IDLE_MS ends; one in use goes on to its 8 h lifetime',
    async () => {
      const idle = await signedInClient(t, (await seedUser(t, { email: 'idle@school.test' })).id);
      const active = await signedInClient(t, (await seedUser(t, { email: 'active@school.test' })).id);
      const idleSid = sha256(idle.cookies.get(SESSION_COOKIE) ?? '');
      const started = t.clock.now();

      t.clock.advance(SESSION_IDLE_MS - MINUTE_MS);
      expect(await signedIn(active)).toBe(true);
      t.clock.advance(2 * MINUTE_MS);
      // the idle one was last seen at its start, more than SESSION_IDLE_MS ago
      expect(await signedIn(idle)).toBe(false);
      expect(await isSessionActive(t.db, idleSid, t.clock.now())).toBe(false);
      expect(await signedIn(active)).toBe(true);

      while (t.clock.now() + 30 * MINUTE_MS < started + SESSION_TTL_MS) {
        t.clock.advance(30 * MINUTE_MS);
        expect(await signedIn(active)).toBe(true);
      }
      t.clock.advance(started + SESSION_TTL_MS - t.clock.now());
      expect(await signedIn(active)).toBe(false);
    },
  );

  it.skipIf(skip)(
    "SESSION_IDLE_MINUTES ends an idle session sooner, for the portal and a product's gateway/session alike",
    async () => {
      const lab = await createTestApp(dialect, { env: { SESSION_IDLE_MINUTES: '20' } });
      try {
        const user = await seedUser(lab, { email: 'left-in-the-lab@school.test' });
        const c = await signedInClient(lab, user.id);
        const sid = sha256(c.cookies.get(SESSION_COOKIE) ?? '');
        const sp = await seedServiceProvider(lab, 'lab-sp');
        const active = async () =>
          (
            await lab.app.inject({
              url: `/api/gateway/session/${sid}`,
              headers: { authorization: basicAuth(sp.clientId, sp.clientSecret) },
            })
          ).json().payload.active;
        lab.clock.advance(19 * MINUTE_MS);
        expect(await active()).toBe(true);
        lab.clock.advance(2 * MINUTE_MS);
        expect(await active()).toBe(false);
        expect(sessionSchema.parse((await c.get('/api/auth/sig')).json()).loggedin).toBe(false);
      } finally {
        await lab.close();
      }
    },
  );

  it.skipIf(skip)(
    "each session's start dates the account's last sign-in: a password, an access code's cookie (a provider's callback: identity/loop.test.ts); a failed password does not",
    async () => {
      const lastSignIn = async (id: string) =>
        (
          await t.db
            .selectFrom('users')
            .select('last_sign_in_at')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).last_sign_in_at;
      const pupil = await seedUser(t, { email: 'returning@school.test' });
      expect(await lastSignIn(pupil.id)).toBeNull();
      const login = (password: string) =>
        t.client().post('/api/cognito/login', { email: pupil.email, password });
      expect((await login('Wrong-Passw0rd-Typed')).statusCode).toBe(401);
      expect(await lastSignIn(pupil.id)).toBeNull();
      expect((await login(TEST_PASSWORD)).statusCode).toBe(200);
      const first = t.clock.now();
      expect(await lastSignIn(pupil.id)).toBe(first);

      const spId = 'last-sign-in-sp';
      const returnUrl = 'https://app.last.test/class';
      await seedServiceProvider(t, spId, ['https://app.last.test']);
      const { code } = await createAccessCode(t.ctx, { spId, userId: pupil.id });
      t.clock.advance(MINUTE_MS);
      const c = t.client();
      await c.get('/api/auth/sig');
      const hash = String((await c.get(`/api/accessCodes/login/${code}/${spId}`)).json().payload.cookie_hash);
      // the code alone starts no session: the cookie it is traded for does
      expect(await lastSignIn(pupil.id)).toBe(first);
      const token = await createLoginRequest(t.db, { spId, url: returnUrl, isTeacher: false }, t.clock.now());
      const query = new URLSearchParams({ hash, return_url: returnUrl, token });
      expect((await c.get(`/api/auth/cookie?${query.toString()}`)).statusCode).toBe(302);
      expect(await lastSignIn(pupil.id)).toBe(t.clock.now());
    },
  );

  it.skipIf(skip)('writes the last use at most once every SESSION_SEEN_REFRESH_MS', async () => {
    const c = await signedInClient(t, (await seedUser(t, { email: 'reader@school.test' })).id);
    const created = t.clock.now();
    t.clock.advance(SESSION_SEEN_REFRESH_MS - 1000);
    expect(await signedIn(c)).toBe(true);
    expect(await lastSeen(c)).toBe(created);
    t.clock.advance(1000);
    expect(await signedIn(c)).toBe(true);
    expect(await lastSeen(c)).toBe(t.clock.now());
    const seen = t.clock.now();
    t.clock.advance(SESSION_SEEN_REFRESH_MS / 2);
    expect(await signedIn(c)).toBe(true);
    expect(await lastSeen(c)).toBe(seen);
  });
});

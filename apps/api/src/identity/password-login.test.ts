import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hash, verify } from '@node-rs/argon2';
import { RESET_CODE_TTL_MS, messages } from '@frontdoor/contract';
import {
  DIALECTS,
  TEST_PASSWORD,
  createTestApp,
  lastMail,
  seedUser,
  type TestApp,
} from '../../test/harness.ts';
import {
  ARGON2,
  findUserByEmail,
  hashPassword,
  isCurrentHash,
  upgradePasswordHash,
  verifyPassword,
} from '../services/users.ts';
import { disableUser, enableUser } from '../services/user-admin.ts';

/** What an older deployment stored: argon2id with a fifth of the memory and one pass. */
const WEAKER = { ...ARGON2, memoryCost: 4096, timeCost: 1 };
const CURRENT = new RegExp(
  String.raw`^\$argon2id\$v=19\$m=${ARGON2.memoryCost},t=${ARGON2.timeCost},p=${ARGON2.parallelism}\$`,
);

describe.each(DIALECTS)('password sign-in upgrades old hashes on $dialect', ({ dialect, skip }) => {
  let t: TestApp;
  beforeAll(async () => {
    if (!skip) t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  const login = (email: string, password: string) =>
    t.client().post('/api/cognito/login', { email, password });
  const storedHash = async (email: string) => (await findUserByEmail(t.db, email))?.password_hash ?? '';

  it.skipIf(skip)(
    'a sign-in with a hash of weaker parameters stores one of the current parameters',
    async () => {
      const user = await seedUser(t, { email: 'old-hash@school.test' });
      const weak = await hash(TEST_PASSWORD, WEAKER);
      await t.db.updateTable('users').set({ password_hash: weak }).where('id', '=', user.id).execute();
      expect(isCurrentHash(weak)).toBe(false);

      // a wrong password changes nothing
      expect((await login('old-hash@school.test', 'Wrong-Password-42')).statusCode).toBe(401);
      expect(await storedHash('old-hash@school.test')).toBe(weak);

      expect((await login('old-hash@school.test', TEST_PASSWORD)).json().payload).toEqual({
        redirect: '/post-login',
      });
      const upgraded = await storedHash('old-hash@school.test');
      expect(upgraded).toMatch(CURRENT);
      expect(await verifyPassword(upgraded, TEST_PASSWORD)).toBe(true);

      // the next sign-in works with the new hash and leaves it as it is
      expect((await login('old-hash@school.test', TEST_PASSWORD)).statusCode).toBe(200);
      expect(await storedHash('old-hash@school.test')).toBe(upgraded);
    },
  );

  it.skipIf(skip)(
    'a rehash never undoes a password changed while the sign-in was checked: the new password stays, the old one opens nothing',
    async () => {
      const email = 'rehash-race@school.test';
      const user = await seedUser(t, { email });
      const weak = await hash(TEST_PASSWORD, WEAKER);
      await t.db.updateTable('users').set({ password_hash: weak }).where('id', '=', user.id).execute();
      // the row as the sign-in read it; its owner resets the password before the rehash is written
      const asRead = await findUserByEmail(t.db, email);
      if (!asRead) throw new Error('seeded');
      const reset = 'Chosen-After-Passw0rd';
      await t.db
        .updateTable('users')
        .set({ password_hash: await hashPassword(reset) })
        .where('id', '=', user.id)
        .execute();
      await upgradePasswordHash(t.ctx, asRead, TEST_PASSWORD, 'composed');
      const stored = await storedHash(email);
      expect(await verifyPassword(stored, reset)).toBe(true);
      expect(await verifyPassword(stored, TEST_PASSWORD)).toBe(false);
    },
  );

  it.skipIf(skip)(
    "a password sign-in voids a reset code asked for before it: one left in a mail or in a shared device's history opens nothing",
    async () => {
      const email = 'remembered@school.test';
      await seedUser(t, { email });
      await t.client().post('/api/cognito/sendreset', { un: email });
      const { code } = await lastMail(t, email);
      expect((await login(email, TEST_PASSWORD)).statusCode).toBe(200);
      const pw = 'Someone-Elses-Passw0rd';
      const reset = await t.client().post('/api/cognito/reset', { un: email, code, pw, confirmPw: pw });
      expect(reset.statusCode).toBe(400);
      expect(await verifyPassword(await storedHash(email), TEST_PASSWORD)).toBe(true);
    },
  );

  it.skipIf(skip)(
    'a reset sent again after its answer was lost succeeds again; the used code with another password does not',
    async () => {
      const email = 'reset-twice@school.test';
      await seedUser(t, { email });
      await t.client().post('/api/cognito/sendreset', { un: email });
      const { code } = await lastMail(t, email);
      const pw = 'Chosen-Once-Passw0rd';
      const reset = (password: string) =>
        t.client().post('/api/cognito/reset', { un: email, code, pw: password, confirmPw: password });
      expect((await reset(pw)).statusCode).toBe(200);
      expect((await reset(pw)).statusCode).toBe(200);
      const other = await reset('Someone-Elses-Passw0rd');
      expect(other.statusCode).toBe(400);
      expect(other.json().code).toBe('expiredCode');
      expect(await verifyPassword(await storedHash(email), pw)).toBe(true);
      // a code lives an hour: after that, sent again is only the code it was
      t.clock.advance(RESET_CODE_TTL_MS);
      expect((await reset(pw)).statusCode).toBe(400);
    },
  );

  // é as one character (NFC: most keyboards) and as e and a combining accent (NFD: some keyboards and systems)
  const COMPOSED = 'Caf\u00e9-Cr\u00e8me-42';
  const DECOMPOSED = COMPOSED.normalize('NFD');

  it.skipIf(skip)('a password set composed signs in typed decomposed, and the other way round', async () => {
    await seedUser(t, { email: 'composed@school.test', password: COMPOSED });
    expect((await login('composed@school.test', DECOMPOSED)).statusCode).toBe(200);
    await seedUser(t, { email: 'decomposed@school.test', password: DECOMPOSED });
    expect((await login('decomposed@school.test', COMPOSED)).statusCode).toBe(200);
  });

  it.skipIf(skip)(
    'a hash of a decomposed password as typed, made before passwords were composed, signs in and is replaced by the composed one',
    async () => {
      const user = await seedUser(t, { email: 'typed-nfd@school.test' });
      const legacy = await hash(DECOMPOSED, ARGON2);
      await t.db.updateTable('users').set({ password_hash: legacy }).where('id', '=', user.id).execute();
      expect((await login('typed-nfd@school.test', DECOMPOSED)).statusCode).toBe(200);
      const upgraded = await storedHash('typed-nfd@school.test');
      expect(upgraded).not.toBe(legacy);
      expect(await verify(upgraded, COMPOSED)).toBe(true);
      // typed composed from now on too
      expect((await login('typed-nfd@school.test', COMPOSED)).statusCode).toBe(200);
    },
  );

  it.skipIf(skip)('another argon2 variant (argon2i) is upgraded to argon2id too', async () => {
    const user = await seedUser(t, { email: 'argon2i@school.test' });
    // algorithm 1 = Algorithm.Argon2i
    const argon2i = await hash(TEST_PASSWORD, { ...ARGON2, algorithm: 1 });
    await t.db.updateTable('users').set({ password_hash: argon2i }).where('id', '=', user.id).execute();
    expect((await login('argon2i@school.test', TEST_PASSWORD)).statusCode).toBe(200);
    expect(await storedHash('argon2i@school.test')).toMatch(CURRENT);
  });

  it.skipIf(skip)(
    'a wrong password is the usual counted 401; only the right one hears 403 accountDisabled, and no session starts, even after a reset; user enable lets it in',
    async () => {
      const email = 'turned-off@school.test';
      const user = await seedUser(t, { email });
      await disableUser(t.ctx, user);
      const failures = async () => (await findUserByEmail(t.db, email))?.failed_attempts;

      const wrong = await login(email, 'Wrong-Password-42');
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toMatchObject({ status: 'error', code: 'incorrectCredentials' });
      expect(await failures()).toBe(1);

      const right = await login(email, TEST_PASSWORD);
      expect(right.statusCode).toBe(403);
      expect(right.json()).toMatchObject({
        status: 'error',
        code: 'accountDisabled',
        msg: messages.accountDisabled,
      });
      expect(right.headers['set-cookie']).toBeUndefined();
      const sessions = async () =>
        t.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute();
      expect(await sessions()).toEqual([]);

      // codes are still mailed and a reset still changes the password: it opens nothing
      await t.client().post('/api/cognito/sendreset', { un: email });
      const { code } = await lastMail(t, email);
      const pw = 'Chosen-While-0ff';
      const reset = await t.client().post('/api/cognito/reset', { un: email, code, pw, confirmPw: pw });
      expect(reset.statusCode).toBe(200);
      expect((await login(email, pw)).json()).toMatchObject({ code: 'accountDisabled' });
      expect(await sessions()).toEqual([]);

      await enableUser(t.ctx, user);
      expect((await login(email, pw)).json().payload).toEqual({ redirect: '/post-login' });
    },
  );
});

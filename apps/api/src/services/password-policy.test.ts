import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractEmbeddedMessage, isStrongPassword, messages } from '@frontdoor/contract';
import {
  DIALECTS,
  TEST_PASSWORD,
  createTestApp,
  lastMail,
  seedUser,
  type TestApp,
  wrongCode,
} from '../../test/harness.ts';
import { isCommonPassword, passwordRefusal } from './password-policy.ts';
import { findUserByEmail, verifyPassword } from './users.ts';

/** On the list as it is ('nick1234-rem936'), and passing the composition rule once capitalised. */
const LISTED = 'Nick1234-Rem936';
/** 'password' with the digits and symbol the composition rule asks for. */
const DECORATED = 'Password123!';

describe('common passwords', () => {
  it('the examples pass the composition rule, so only the list refuses them', () => {
    expect([LISTED, DECORATED].every(isStrongPassword)).toBe(true);
  });

  it('refuses a listed password in any letter case', () => {
    expect(isCommonPassword(LISTED)).toBe(true);
    expect(isCommonPassword(LISTED.toUpperCase())).toBe(true);
    expect(isCommonPassword('P030710P$E4O')).toBe(true);
  });

  it('refuses a listed password with digits and symbols added at its start or end', () => {
    expect(isCommonPassword(DECORATED)).toBe(true);
    expect(isCommonPassword('2024!!Sunshine')).toBe(true);
    expect(isCommonPassword('#1-Teacher-2024')).toBe(true);
  });

  it('accepts what is not a listed password, even with listed words inside', () => {
    expect(isCommonPassword(TEST_PASSWORD)).toBe(false);
    expect(isCommonPassword('Password123!x')).toBe(false);
    expect(isCommonPassword('Sunshine-Meadow-42')).toBe(false);
  });

  it('names the first rule a password breaks: the list, then the personal words', () => {
    const ana = { email: 'ana.lima@school.test', first: 'Ana', last: 'Lima' };
    expect(passwordRefusal(DECORATED, ana)).toBe('passwordCommon');
    expect(passwordRefusal('Lima-Sunrise-42', ana)).toBe('passwordPersonal');
    expect(passwordRefusal('9-School-Sunrise', ana)).toBe('passwordPersonal');
    expect(passwordRefusal(TEST_PASSWORD, ana)).toBeNull();
  });
});

describe.each(DIALECTS)('password refusals through the API on $dialect', ({ dialect, skip }) => {
  let t: TestApp;
  beforeAll(async () => {
    if (!skip) t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  const signup = (email: string, pw: string) =>
    t
      .client()
      .post('/api/cognito/signup', { first: 'Grace', last: 'Hopper', email, pw, description: 'teacher' });

  it.skipIf(skip)(
    'sign-up refuses a common password and one with the name or email: 400, no account',
    async () => {
      for (const [email, pw, code] of [
        ['common@school.test', LISTED, 'passwordCommon'],
        ['decorated@school.test', DECORATED, 'passwordCommon'],
        ['named@school.test', 'Grace-Sunrise-42', 'passwordPersonal'],
        ['surnamed@school.test', '7-HOPPER-sunrise', 'passwordPersonal'],
        ['bluebird@school.test', 'Bluebird!Sunrise9', 'passwordPersonal'],
      ] as const) {
        const res = await signup(email, pw);
        expect(res.statusCode, pw).toBe(400);
        expect(res.json()).toEqual({ status: 'error', msg: messages[code], code });
        expect(await findUserByEmail(t.db, email)).toBeUndefined();
      }
      expect((await signup('accepted@school.test', TEST_PASSWORD)).statusCode).toBe(200);
    },
  );

  it.skipIf(skip)(
    'reset refuses them too, as a reset failure the SPA reads; the code stays good for a better password',
    async () => {
      await seedUser(t, { email: 'ada.reset@school.test', first: 'Ada', last: 'Lovelace' });
      await t.client().post('/api/cognito/sendreset', { un: 'ada.reset@school.test' });
      const { code = '' } = await lastMail(t, 'ada.reset@school.test');
      const reset = (pw: string) =>
        t.client().post('/api/cognito/reset', { un: 'ada.reset@school.test', code, pw, confirmPw: pw });

      for (const [pw, refusal] of [
        [LISTED, 'passwordCommon'],
        [DECORATED, 'passwordCommon'],
        ['Lovelace-Sunrise-42', 'passwordPersonal'],
        ['Reset!Sunrise-42', 'passwordPersonal'],
      ] as const) {
        const res = await reset(pw);
        expect(res.statusCode, pw).toBe(400);
        expect(res.json().code).toBe(refusal);
        expect(extractEmbeddedMessage(res.json().msg)).toBe(messages[refusal]);
      }
      expect((await reset('Correct-Zebra-9-Battery')).statusCode).toBe(200);
      const user = await findUserByEmail(t.db, 'ada.reset@school.test');
      expect(await verifyPassword(user?.password_hash ?? null, 'Correct-Zebra-9-Battery')).toBe(true);
    },
  );

  it.skipIf(skip)(
    'a reset without a good code learns nothing of the names it would be checked against',
    async () => {
      await seedUser(t, { email: 'private@school.test', first: 'Ada', last: 'Lovelace' });
      await t.client().post('/api/cognito/sendreset', { un: 'private@school.test' });
      const { code = '' } = await lastMail(t, 'private@school.test');
      const res = await t.client().post('/api/cognito/reset', {
        un: 'private@school.test',
        code: wrongCode(code),
        pw: 'Lovelace-Sunrise-42',
        confirmPw: 'Lovelace-Sunrise-42',
      });
      expect(res.json().code).toBe('invalidVerificationCode');
    },
  );
});

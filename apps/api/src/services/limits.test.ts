import { TableNode, type KyselyPlugin, type QueryId } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ABUSE_LIMITS,
  CODE_MAX_ATTEMPTS,
  CSRF_COOKIE,
  CSRF_HEADER,
  RESEND_COOLDOWN_SECONDS,
  messages,
} from '@frontdoor/contract';
import {
  DIALECTS,
  TEST_PASSWORD,
  basicAuth,
  createTestApp,
  lastMail,
  portalAuthorizeUrl,
  seedServiceProvider,
  seedUser,
  wrongCode,
  type TestApp,
} from '../../test/harness.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Env } from '../config.ts';
import type { Db } from '../db/index.ts';
import {
  PLACE_LEASE_MS,
  accessCodeBudgetOf,
  accessCodeLogin,
  createAccessCode,
  revokeAccessCodes,
  utcDay,
} from './access-codes.ts';
import { memoryCounters } from './counters.ts';
import type { ApiError } from './http.ts';
import { listAudit } from './audit.ts';
import { MAIL_LANGUAGES } from '../mail/render.ts';
import {
  accessCodeBudget,
  accountDelayMs,
  checkGuess,
  countedAddress,
  DAY_MS,
  HOUR_MS,
  addressGuessFailed,
  releaseAddressGuess,
  reserveAddressGuess,
  unlockAccount,
} from './limits.ts';
import { browserTag } from './crypto.ts';
import { createLogger } from './logger.ts';
import { findUserByEmail } from './users.ts';
import { AUTHORIZE_REQUEST_MAX_CHARS } from '../identity/sign-in-steps.ts';

const csrf = { cookie: `${CSRF_COOKIE}=t`, [CSRF_HEADER]: 't' };
const SCHOOL = '203.0.113.7';

/** One call from `address`, as a browser behind that public address would make it. */
async function call(t: TestApp, address: string, method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await t.app.inject({ method, url, headers: csrf, payload, remoteAddress: address });
  return { status: res.statusCode, body: res.json(), retryAfter: res.headers['retry-after'] };
}
const login = (t: TestApp, address: string, email: string, password = TEST_PASSWORD) =>
  call(t, address, 'POST', '/api/cognito/login', { email, password });
const accessCode = (t: TestApp, address: string, code: string, spId: string) =>
  call(t, address, 'GET', `/api/accessCodes/login/${code}/${spId}`);

/**
 * Runs `during` with the app's database failing its next write to access_code_failures that is an
 * update (a guess giving its place back), as a connection terminated by a PostgreSQL blip would.
 */
async function settleFailsOnce<T>(t: TestApp, during: () => Promise<T>): Promise<T> {
  const ctx = t.ctx as { db: Db };
  const db = ctx.db;
  let failed = false;
  const blip: KyselyPlugin = {
    transformQuery: ({ node }) => {
      if (!failed && node.kind === 'UpdateQueryNode' && node.table && TableNode.is(node.table))
        if (node.table.table.identifier.name === 'access_code_failures') {
          failed = true;
          throw new Error('Connection terminated unexpectedly');
        }
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  ctx.db = db.withPlugin(blip);
  try {
    return await during();
  } finally {
    ctx.db = db;
    expect(failed).toBe(true);
  }
}

describe('limit rules', () => {
  it('counts an IPv4 address whole and an IPv6 address by its /64', () => {
    expect(countedAddress('198.51.100.7')).toBe('198.51.100.7');
    expect(countedAddress('::ffff:198.51.100.7')).toBe('198.51.100.7');
    for (const address of ['2001:db8:1:2::1', '2001:0DB8:0001:0002:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::'])
      expect(countedAddress(address), address).toBe('2001:db8:1:2::/64');
    expect(countedAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(countedAddress('::1')).toBe('0:0:0:0::/64');
    expect(countedAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(countedAddress('64:ff9b::198.51.100.7')).toBe('64:ff9b:0:0::/64');
  });

  it('delays an account from its 5th consecutive failure: 1 s doubling, capped at 15 min', () => {
    expect([0, 4].map(accountDelayMs)).toEqual([0, 0]);
    expect([5, 6, 7, 14].map(accountDelayMs)).toEqual([1000, 2000, 4000, 512_000]);
    expect(accountDelayMs(15)).toBe(ABUSE_LIMITS.accountDelayMaxMs);
    expect(accountDelayMs(99)).toBe(ABUSE_LIMITS.accountDelayMaxMs);
  });

  it("keeps a provider's daily takeover chance (failures × live codes / 10^6) at the accepted risk", () => {
    expect([30, 300, 3000].map((k) => accessCodeBudget(0.01, k))).toEqual([333, 33, 3]);
    expect(accessCodeBudget(0.01, 0)).toBe(10_000);
    expect(accessCodeBudget(0.0001, 3000)).toBe(1);
  });
});

describe.each(DIALECTS)('abuse limits on $dialect', ({ dialect, skip }) => {
  // a suite's apps (beforeAll) go at the end; a test's own go with it: on PostgreSQL each holds
  // connections, and the file's dozens of apps kept to its end passed the server's 100 on a fast machine
  const apps: TestApp[] = [];
  const testApps: TestApp[] = [];
  let inTest = false;
  const open = async (env: Env = {}, logger?: Logger) => {
    const t = await createTestApp(dialect, { env: { RATE_LIMIT_MULTIPLIER: '1', ...env }, logger });
    (inTest ? testApps : apps).push(t);
    return t;
  };
  beforeEach(() => {
    inTest = true;
  });
  afterEach(async () => {
    inTest = false;
    await Promise.all(testApps.splice(0).map((t) => t.close()));
  });
  afterAll(async () => {
    await Promise.all(apps.map((t) => t.close()));
  });

  describe.skipIf(skip)('a class behind one address', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await open();
      await seedServiceProvider(t, 'mathworld');
    });

    it('30 students sign in by password and 30 by access code in the same minute: no 429', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) {
        const email = `student${i}@school.test`;
        const student = await seedUser(t, { email });
        const { code } = await createAccessCode(t.ctx, { spId: 'mathworld', userId: student.id });
        statuses.push((await call(t, SCHOOL, 'POST', '/api/auth/validateEmail', { email })).status);
        statuses.push((await login(t, SCHOOL, email)).status);
        statuses.push((await accessCode(t, SCHOOL, code, 'mathworld')).status);
      }
      expect(statuses).toEqual(Array(90).fill(200));
    });

    it("one student's typos do not spend the class's budget: 10 wrong codes, then the right one", async () => {
      const student = await seedUser(t, { email: 'typist@school.test' });
      const { code } = await createAccessCode(t.ctx, { spId: 'mathworld', userId: student.id });
      for (let i = 0; i < 10; i++)
        expect(
          (await accessCode(t, SCHOOL, String((Number(code) + 1 + i) % 1e6).padStart(6, '0'), 'mathworld'))
            .status,
        ).toBe(404);
      expect((await accessCode(t, SCHOOL, code, 'mathworld')).status).toBe(200);
    });

    it('a class on one shared account: 30 right passwords at the same moment all sign in', async () => {
      const email = 'class-3b@school.test';
      await seedUser(t, { email });
      const answers = await Promise.all(Array.from({ length: 30 }, () => login(t, SCHOOL, email)));
      expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
    });
  });

  describe.skipIf(skip)('per account', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await open();
    });
    /** An account one failure short of its lock, its last failure a day ago. */
    const oneFailureFromLock = (userId: string) =>
      t.db
        .updateTable('users')
        .set({
          failed_attempts: ABUSE_LIMITS.accountLockAfterFailures - 1,
          last_failed_at: t.clock.now() - DAY_MS,
        })
        .where('id', '=', userId)
        .execute();

    it('from the 5th failure a growing delay answers 429 with Retry-After; a success resets it', async () => {
      const email = 'delayed@school.test';
      await seedUser(t, { email });
      for (let i = 0; i < 5; i++) expect((await login(t, SCHOOL, email, 'Wrong-Passw0rd!')).status).toBe(401);
      const waiting = await login(t, SCHOOL, email);
      expect(waiting).toMatchObject({ status: 429, retryAfter: '1', body: { code: 'tooManyFailures' } });
      expect(waiting.body.msg).toBe(messages.tooManyFailures);
      t.clock.advance(1000);
      expect((await login(t, SCHOOL, email, 'Wrong-Passw0rd!')).status).toBe(401);
      expect((await login(t, SCHOOL, email)).retryAfter).toBe('2');
      t.clock.advance(2000);
      expect((await login(t, SCHOOL, email)).status).toBe(200);
      // the count starts again: the next failure is evaluated and not delayed
      expect((await login(t, SCHOOL, email, 'Wrong-Passw0rd!')).status).toBe(401);
      expect((await login(t, SCHOOL, email)).status).toBe(200);
    });

    it('a burst of parallel guesses meets the delay like guesses sent one by one: 5 checked, the right password refused among the rest', async () => {
      const email = 'burst@school.test';
      await seedUser(t, { email });
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          login(t, `198.51.100.${150 + i}`, email, i === 20 ? TEST_PASSWORD : `Guess-${i}-Passw0rd!`),
        ),
      );
      expect(answers.filter((a) => a.status === 401)).toHaveLength(5);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(25);
      expect(answers[20]?.body.code).toBe('tooManyFailures');
      expect((await findUserByEmail(t.db, email))?.failed_attempts).toBe(5);
    });

    it('counts failures from every address: three addresses guessing, then the right password from a fourth waits', async () => {
      const email = 'spread@school.test';
      await seedUser(t, { email });
      for (let i = 0; i < 33; i++) {
        if (i) t.clock.advance(ABUSE_LIMITS.accountDelayMaxMs);
        expect((await login(t, `198.51.100.${i % 3}`, email, `Guess-${i}-Passw0rd!`)).status).toBe(401);
      }
      const user = await findUserByEmail(t.db, email);
      expect(user?.failed_attempts).toBe(33);
      expect((await login(t, '198.51.100.9', email)).body.code).toBe('tooManyFailures');
    });

    it('mails the lock in the language its owner last signed in with, not the sign-up’s', async () => {
      const email = 'locked-fr@school.test';
      const seeded = await seedUser(t, { email, language: 'en' });
      // the SPA sends its current language: this teacher chose French in the menu
      const signIn = await t.app.inject({
        method: 'POST',
        url: '/api/cognito/login',
        headers: { ...csrf, 'accept-language': 'fr' },
        payload: { email, password: TEST_PASSWORD },
        remoteAddress: '198.51.100.24',
      });
      expect(signIn.statusCode).toBe(200);
      await oneFailureFromLock(seeded.id);
      // the guesser's own language says nothing
      expect((await login(t, '198.51.100.25', email, 'Wrong-Passw0rd!')).status).toBe(401);
      expect((await lastMail(t, email)).mail?.subject).toBe(MAIL_LANGUAGES.fr.locked.subject);
    });

    it('locks at 100 consecutive failures, mails the owner, and unlocks by the administrator or after 24 h', async () => {
      const email = 'locked@school.test';
      const seeded = await seedUser(t, { email, first: 'Lena' });
      await oneFailureFromLock(seeded.id);
      expect((await login(t, '198.51.100.20', email, 'Wrong-Passw0rd!')).status).toBe(401);
      const refused = await login(t, '198.51.100.21', email);
      expect(refused).toMatchObject({
        status: 429,
        body: { code: 'accountLocked', msg: messages.accountLocked },
      });
      expect(Number(refused.retryAfter)).toBe(24 * 60 * 60);
      const { mail } = await lastMail(t, email);
      expect(mail?.subject).toBe('Your account has been locked');
      expect(mail?.text).toContain('Hello Lena');
      const [entry] = await listAudit(t.ctx, { limit: 1, event: 'account.locked' });
      expect(entry).toMatchObject({ user_id: seeded.id, detail: { failures: 100 } });

      const locked = await findUserByEmail(t.db, email);
      expect(locked && (await unlockAccount(t.ctx, locked, 'admin'))).toBe(true);
      expect((await login(t, '198.51.100.21', email)).status).toBe(200);

      // the same lock again, this time waited out
      await t.db
        .updateTable('users')
        .set({ failed_attempts: 99, last_failed_at: t.clock.now() - DAY_MS })
        .where('id', '=', seeded.id)
        .execute();
      await login(t, '198.51.100.20', email, 'Wrong-Passw0rd!');
      t.clock.advance(ABUSE_LIMITS.accountLockMs - 1000);
      expect((await login(t, '198.51.100.21', email)).body.code).toBe('accountLocked');
      t.clock.advance(1000);
      expect((await login(t, '198.51.100.21', email)).status).toBe(200);
    });

    it('wrong mailed codes count against the account too (reset codes from GET /oidc/forgotPassword included)', async () => {
      const email = 'codes@school.test';
      await seedUser(t, { email });
      const res = await t.app.inject({
        method: 'GET',
        url: `/oidc/forgotPassword?login_hint=${email}`,
        remoteAddress: SCHOOL,
      });
      expect(res.statusCode).toBe(303);
      const { code = '' } = await lastMail(t, email);
      const wrong = wrongCode(code);
      const reset = (c: string) =>
        call(t, SCHOOL, 'POST', '/api/cognito/reset', {
          un: email,
          code: c,
          pw: 'New-Passw0rd-2026',
          confirmPw: 'New-Passw0rd-2026',
        });
      for (let i = 0; i < 4; i++) expect((await reset(wrong)).status).toBe(400);
      expect((await login(t, SCHOOL, email, 'Wrong-Passw0rd!')).status).toBe(401);
      const waiting = await login(t, SCHOOL, email);
      expect(waiting).toMatchObject({ status: 429, body: { code: 'tooManyFailures' } });
      expect((await findUserByEmail(t.db, email))?.failed_attempts).toBe(5);
    });

    /** Asks for a reset code from `address` and reads it from the mail; `reset` sends one with it. */
    const resetCodeOf = async (email: string, address: string) => {
      expect((await call(t, address, 'POST', '/api/cognito/sendreset', { un: email })).status).toBe(200);
      const { code = '' } = await lastMail(t, email);
      return code;
    };
    const resetWith = (email: string, address: string, code: string, pw = 'New-Passw0rd-2026') =>
      call(t, address, 'POST', '/api/cognito/reset', { un: email, code, pw, confirmPw: pw });

    it('an account kept delayed by wrong passwords from many addresses: its password waits, its right reset code does not, and the reset clears its failures', async () => {
      const email = 'kept-out@school.test';
      await seedUser(t, { email });
      // an attacker's ten wrong passwords from ten addresses, each sent as the delay before it ended
      for (let i = 0; i < 10; i++) {
        expect((await login(t, `198.51.100.${60 + i}`, email, `Guess-${i}-Passw0rd!`)).status).toBe(401);
        t.clock.advance(accountDelayMs(i + 1));
      }
      expect((await login(t, '198.51.100.70', email, 'Guess-x-Passw0rd!')).status).toBe(401);
      // the owner's right password is still refused: the password itself stays delayed
      expect((await login(t, SCHOOL, email)).body.code).toBe('tooManyFailures');
      const code = await resetCodeOf(email, SCHOOL);
      // a wrong code is checked and counted, not refused by the delay; while the account is delayed it
      // is the code's one try (CODE_MAX_ATTEMPTS_UNDER_ATTACK): a guesser who has codes mailed is held
      // to the hourly sends, and the code's owner asks for another
      const typo = await resetWith(email, SCHOOL, wrongCode(code));
      expect(typo.body.code).toBe('attemptLimit');
      expect((await findUserByEmail(t.db, email))?.failed_attempts).toBe(12);
      expect((await resetWith(email, SCHOOL, code)).body.code).toBe('attemptLimit');
      t.clock.advance(RESEND_COOLDOWN_SECONDS * 1000);
      const next = await resetCodeOf(email, SCHOOL);
      expect((await resetWith(email, SCHOOL, next)).status).toBe(200);
      const after = await findUserByEmail(t.db, email);
      expect(after).toMatchObject({ failed_attempts: 0, last_failed_at: null, locked_at: null });
      expect((await login(t, SCHOOL, email, 'New-Passw0rd-2026')).status).toBe(200);
    });

    it('a locked account: its password stays locked, its right reset code ends the lock and its failures', async () => {
      const email = 'locked-reset@school.test';
      const seeded = await seedUser(t, { email });
      await oneFailureFromLock(seeded.id);
      expect((await login(t, '198.51.100.71', email, 'Wrong-Passw0rd!')).status).toBe(401);
      expect((await login(t, SCHOOL, email)).body.code).toBe('accountLocked');
      const code = await resetCodeOf(email, SCHOOL);
      expect((await resetWith(email, SCHOOL, code)).status).toBe(200);
      expect(await findUserByEmail(t.db, email)).toMatchObject({ failed_attempts: 0, locked_at: null });
      const [entry] = await listAudit(t.ctx, { limit: 1, event: 'account.unlocked' });
      expect(entry).toMatchObject({ user_id: seeded.id, detail: { by: 'password-reset' } });
      expect((await login(t, SCHOOL, email, 'New-Passw0rd-2026')).status).toBe(200);
    });

    it("an unconfirmed account's right password resets none of its failures: whoever signed up first with the address knows it, and a new code after 5 wrong ones still has one try", async () => {
      const email = 'signed-up-first@school.test';
      const address = '198.51.100.72';
      const seeded = await seedUser(t, { email, confirmed: false });
      const verifyCodeOf = async () => {
        const sent = await call(
          t,
          address,
          'GET',
          `/api/cognito/resend_verification/${encodeURIComponent(email)}`,
        );
        expect(sent.body.payload).toBe('verify_email');
        return (await lastMail(t, email)).code ?? '';
      };
      const confirm = (code: string) => call(t, address, 'POST', '/api/cognito/confirm', { un: email, code });
      const failures = async () => ({
        account: (await findUserByEmail(t.db, email))?.failed_attempts,
        pair: (await t.ctx.limits.counters.peek(`pair-failures:${address}:${seeded.id}`, t.clock.now()))
          .count,
        address: (await t.ctx.limits.counters.peek(`address-failures:${address}`, t.clock.now())).count,
      });
      const code = await verifyCodeOf();
      for (let i = 1; i < CODE_MAX_ATTEMPTS; i++) expect((await confirm(wrongCode(code))).status).toBe(400);
      expect((await confirm(wrongCode(code))).body.code).toBe('attemptLimit');
      const before = await failures();
      expect(before).toEqual({
        account: CODE_MAX_ATTEMPTS,
        pair: CODE_MAX_ATTEMPTS,
        address: CODE_MAX_ATTEMPTS,
      });
      // past the delay of its 5 failures, the password its sign-up chose: checked, and right
      t.clock.advance(accountDelayMs(CODE_MAX_ATTEMPTS));
      expect((await login(t, address, email)).body.code).toBe('userNotConfirmed');
      expect(await failures()).toEqual(before);
      t.clock.advance(RESEND_COOLDOWN_SECONDS * 1000);
      const next = await verifyCodeOf();
      expect((await confirm(wrongCode(next))).body.code).toBe('attemptLimit');
      expect((await confirm(next)).body.code).toBe('attemptLimit');
      // the mailbox's owner, with the next code, confirms at once
      t.clock.advance(RESEND_COOLDOWN_SECONDS * 1000);
      expect((await confirm(await verifyCodeOf())).status).toBe(200);
      expect(await findUserByEmail(t.db, email)).toMatchObject({ confirmed: 1, failed_attempts: 0 });
    });
  });

  describe.skipIf(skip)('per address and account', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await open();
    });

    it('10 consecutive failures block that pair for 15 min; the account elsewhere and classmates here go on', async () => {
      const email = 'pair@school.test';
      await seedUser(t, { email });
      await seedUser(t, { email: 'classmate@school.test' });
      for (let i = 0; i < ABUSE_LIMITS.pairBlockAfterFailures; i++) {
        expect((await login(t, SCHOOL, email, 'Wrong-Passw0rd!')).status).toBe(401);
        t.clock.advance(accountDelayMs(i + 1));
      }
      const blocked = await login(t, SCHOOL, email);
      expect(blocked.body.code).toBe('tooManyFailures');
      expect(Number(blocked.retryAfter)).toBe(
        ABUSE_LIMITS.pairBlockMs / 1000 - Math.round(accountDelayMs(10) / 1000),
      );
      expect((await login(t, SCHOOL, 'classmate@school.test')).status).toBe(200);
      expect((await login(t, '198.51.100.30', email)).status).toBe(200);
      // the success elsewhere reset the account, not this pair
      expect((await login(t, SCHOOL, email)).body.code).toBe('tooManyFailures');
      t.clock.advance(ABUSE_LIMITS.pairBlockMs);
      expect((await login(t, SCHOOL, email)).status).toBe(200);
    });
  });

  describe.skipIf(skip)('per address, failures only', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await open({ LIMIT_ADDRESS_FAILURES_PER_HOUR: '5', LIMIT_ALLOWLIST: '192.0.2.0/24' });
      await seedUser(t, { email: 'known@school.test' });
    });

    it('successes never count; failures across many accounts stop at the ceiling for an hour', async () => {
      for (let i = 0; i < 20; i++)
        expect((await login(t, '198.51.100.40', 'known@school.test')).status).toBe(200);
      for (let i = 0; i < 5; i++)
        expect(
          (await login(t, '198.51.100.40', `sweep${i}@school.test`, 'Summer-2026-Passw0rd')).status,
        ).toBe(401);
      const refused = await login(t, '198.51.100.40', 'known@school.test');
      expect(refused).toMatchObject({ status: 429, body: { code: 'addressFailureLimit' } });
      expect(Number(refused.retryAfter)).toBe(60 * 60);
      // wrong access codes and codes count against the same ceiling, another address is free
      expect((await login(t, '198.51.100.41', 'known@school.test')).status).toBe(200);
      t.clock.advance(HOUR_MS);
      expect((await login(t, '198.51.100.40', 'known@school.test')).status).toBe(200);
    });

    it('a burst of parallel guesses across many accounts stops at the ceiling too', async () => {
      const address = '198.51.100.42';
      const known = await Promise.all(
        Array.from({ length: 6 }, (_, i) => seedUser(t, { email: `burst${i}@school.test` })),
      );
      const answers = await Promise.all([
        ...known.map((u) => login(t, address, u.email, 'Summer-2026-Passw0rd')),
        ...known.map((_, i) => login(t, address, `burst-unknown${i}@school.test`, 'Summer-2026-Passw0rd')),
      ]);
      expect(answers.filter((a) => a.status === 401)).toHaveLength(5);
      expect(answers.filter((a) => a.body.code === 'addressFailureLimit')).toHaveLength(7);
    });

    it("a school's typos do not add up to its ceiling: a right password takes back its account's typos here", async () => {
      const address = '198.51.100.43';
      for (let i = 0; i < 8; i++) {
        const { email } = await seedUser(t, { email: `typo${i}@school.test` });
        expect((await login(t, address, email, 'Summer-2026-Passw0rd')).status).toBe(401);
        expect((await login(t, address, email)).status).toBe(200);
      }
      // a guesser behind the same address still meets the ceiling after 5 failures
      for (let i = 0; i < 5; i++)
        expect((await login(t, address, `guessed${i}@school.test`, 'Summer-2026-Passw0rd')).status).toBe(401);
      expect((await login(t, address, 'typo0@school.test')).body.code).toBe('addressFailureLimit');
    });

    it('a right password takes its typos back once: signed into again after a guess at another account, it hides nothing', async () => {
      const address = '203.0.113.45';
      const { email } = await seedUser(t, { email: 'own-account@school.test' });
      expect((await login(t, address, email, 'Summer-2026-Passw0rd')).status).toBe(401);
      expect((await login(t, address, email)).status).toBe(200);
      // a guesser with an account of their own signs into it again after a guess at another
      expect((await login(t, address, 'sprayed0@school.test', 'Summer-2026-Passw0rd')).status).toBe(401);
      expect((await login(t, address, email)).status).toBe(200);
      for (let i = 1; i < 5; i++)
        expect((await login(t, address, `sprayed${i}@school.test`, 'Summer-2026-Passw0rd')).status).toBe(401);
      expect((await login(t, address, email)).body.code).toBe('addressFailureLimit');
    });

    it('a right password takes back at most ABUSE_LIMITS.typosForgivenPerSuccess typos: the one before them stays counted', async () => {
      const address = '203.0.113.46';
      const { email } = await seedUser(t, { email: 'many-typos@school.test' });
      for (let i = 0; i < ABUSE_LIMITS.typosForgivenPerSuccess + 1; i++)
        expect((await login(t, address, email, 'Summer-2026-Passw0rd')).status).toBe(401);
      expect((await login(t, address, email)).status).toBe(200);
      // with that one, four more failures fill the ceiling (5)
      for (let i = 0; i < 4; i++)
        expect((await login(t, address, `other${i}@school.test`, 'Summer-2026-Passw0rd')).status).toBe(401);
      expect((await login(t, address, email)).body.code).toBe('addressFailureLimit');
    });

    it("a class's right passwords sent in the same seconds as its typos all sign in: their places, held while they are checked, are no failures", async () => {
      const address = '198.51.100.44';
      const pupils = await Promise.all(
        Array.from({ length: 4 }, (_, i) => seedUser(t, { email: `in-flight${i}@school.test` })),
      );
      // 4 typos: the ceiling (5) is full once the four right passwords hold their places
      for (const pupil of pupils)
        expect((await login(t, address, pupil.email, 'Summer-2026-Passw0rd')).status).toBe(401);
      const answers = await Promise.all(pupils.map((pupil) => login(t, address, pupil.email)));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    });

    it('a guess at the ceiling waits for the guesses still being checked: admitted when one gives its place back, refused when they fail', async () => {
      const address = '198.51.100.45';
      const waitingHere = () =>
        [...t.ctx.limits.addressChecks.values()].some((checks) => checks.waiting.size > 0);
      const held = await Promise.all(Array.from({ length: 5 }, () => reserveAddressGuess(t.ctx, address)));
      const admitted = login(t, address, 'known@school.test');
      await expect.poll(waitingHere).toBe(true);
      await releaseAddressGuess(t.ctx, held[0]!);
      expect((await admitted).status).toBe(200);

      held[0] = await reserveAddressGuess(t.ctx, address);
      const refused = login(t, address, 'known@school.test');
      await expect.poll(waitingHere).toBe(true);
      for (const guess of held) addressGuessFailed(t.ctx, guess);
      expect((await refused).body.code).toBe('addressFailureLimit');
    });

    it("guesses waiting for an address's places hold up no other guess of their account: its owner, elsewhere, signs in at once", async () => {
      const address = '198.51.100.46';
      const owner = await seedUser(t, { email: 'waited-on@school.test' });
      const held = await Promise.all(Array.from({ length: 5 }, () => reserveAddressGuess(t.ctx, address)));
      let answered = 0;
      const waiting = Array.from({ length: 3 }, () =>
        login(t, address, owner.email, 'Summer-2026-Passw0rd').then((answer) => {
          answered += 1;
          return answer;
        }),
      );
      await expect
        .poll(() => [...t.ctx.limits.addressChecks.values()].reduce((n, c) => n + c.waiting.size, 0))
        .toBe(3);
      expect((await login(t, '198.51.100.47', owner.email)).status).toBe(200);
      expect(answered).toBe(0);
      for (const guess of held) addressGuessFailed(t.ctx, guess);
      expect((await Promise.all(waiting)).map((a) => a.body.code)).toEqual(
        Array(3).fill('addressFailureLimit'),
      );
    });

    it("a check that ends between a refused guess's count and its wait still lets it ask again: the place it gave back is taken", async () => {
      const address = '198.51.100.48';
      const held = await Promise.all(Array.from({ length: 5 }, () => reserveAddressGuess(t.ctx, address)));
      const counters = t.ctx.limits.counters;
      const undo = counters.undo.bind(counters);
      // every guess in flight ends while the refused one takes its count back, before it would wait
      counters.undo = async (key, now, by) => {
        counters.undo = undo;
        await undo(key, now, by);
        await Promise.all(held.map((guess) => releaseAddressGuess(t.ctx, guess)));
      };
      expect((await login(t, address, 'known@school.test')).status).toBe(200);
    });

    it('a guess whose judging fails on the way (an error, not a refusal) gives its place back and ends its check', async () => {
      const address = '198.51.100.49';
      const known = await findUserByEmail(t.db, 'known@school.test');
      const judged = checkGuess(
        t.ctx,
        address,
        known!,
        'password',
        async () => 'checked',
        () => {
          throw new Error('the outcome could not be read');
        },
      );
      await expect(judged).rejects.toThrow('the outcome could not be read');
      expect([...t.ctx.limits.addressChecks.values()].filter((c) => c.running > 0)).toEqual([]);
      for (let i = 0; i < 5; i++)
        expect((await login(t, address, `after-error${i}@school.test`, 'Summer-2026-Passw0rd')).status).toBe(
          401,
        );
    });

    it("counts an IPv6 network's /64 as one address: rotating through its addresses buys no more guesses", async () => {
      const inNetwork = (i: number) => `2001:db8:5c:100:${(i + 1).toString(16)}::${i + 7}`;
      for (let i = 0; i < 5; i++)
        expect((await login(t, inNetwork(i), `rotate${i}@school.test`, 'Summer-2026-Passw0rd')).status).toBe(
          401,
        );
      expect((await login(t, inNetwork(5), 'known@school.test')).body.code).toBe('addressFailureLimit');
      // the next network is another address
      expect((await login(t, '2001:db8:5c:101::1', 'known@school.test')).status).toBe(200);
    });

    it('an allowlisted school network has no per-address ceiling (per-account limits still hold)', async () => {
      for (let i = 0; i < 12; i++)
        await login(t, '192.0.2.10', `sweep-allowed${i}@school.test`, 'Summer-2026-Passw0rd');
      expect((await login(t, '192.0.2.10', 'known@school.test')).status).toBe(200);
    });
  });

  describe.skipIf(skip)('mailed codes', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await open({ LIMIT_MAIL_PER_ADDRESS_PER_HOUR: '8' });
    });
    // the mails written to any of `addresses`: the outbox sends only the newest live code of those still waiting
    const mailsToAny = async (addresses: string[]) =>
      (
        await t.db
          .selectFrom('outbox')
          .innerJoin('users', 'users.id', 'outbox.user_id')
          .select('outbox.id')
          .where('users.email', 'in', addresses)
          .where('outbox.kind', '=', 'mail')
          .execute()
      ).length;
    const mailsTo = (to: string) => mailsToAny([to]);

    it('at most 5 sends an hour per account, whichever path asks (sendreset, forgotPassword, resend)', async () => {
      const email = 'mailed@school.test';
      await seedUser(t, { email });
      for (let i = 0; i < 3; i++) {
        expect((await call(t, '198.51.100.50', 'POST', '/api/cognito/sendreset', { un: email })).status).toBe(
          200,
        );
        t.clock.advance(30_000);
      }
      for (let i = 0; i < 2; i++) {
        await t.app.inject({
          method: 'GET',
          url: `/oidc/forgotPassword?login_hint=${email}`,
          remoteAddress: `198.51.100.${60 + i}`,
        });
        t.clock.advance(30_000);
      }
      expect(await mailsTo(email)).toBe(5);
      const refused = await call(t, '198.51.100.52', 'POST', '/api/cognito/sendreset', { un: email });
      expect(refused).toMatchObject({
        status: 429,
        body: { code: 'codeSendLimit', msg: messages.codeSendLimit },
      });
      // the browser path still arrives at the reset page, where the newest code works
      const page = await t.app.inject({ method: 'GET', url: `/oidc/forgotPassword?login_hint=${email}` });
      expect(page.headers.location).toBe('/forgot-password');
      expect(await mailsTo(email)).toBe(5);
      t.clock.advance(HOUR_MS);
      expect((await call(t, '198.51.100.52', 'POST', '/api/cognito/sendreset', { un: email })).status).toBe(
        200,
      );
      expect(await mailsTo(email)).toBe(6);
    });

    const signUpFrom = (address: string, email: string) =>
      call(t, address, 'POST', '/api/cognito/signup', {
        email,
        first: 'New',
        last: 'Comer',
        description: 'student',
        pw: 'Fresh-Passw0rd-2026',
        confirmPw: 'Fresh-Passw0rd-2026',
      });

    it('at most LIMIT_MAIL_PER_ADDRESS_PER_HOUR sends from one address, sign-ups included, until the hour has passed', async () => {
      const address = '198.51.100.70';
      for (let i = 0; i < 8; i++) {
        await seedUser(t, { email: `reset${i}@school.test` });
        expect(
          (await call(t, address, 'POST', '/api/cognito/sendreset', { un: `reset${i}@school.test` })).status,
        ).toBe(200);
      }
      const signUp = () => signUpFrom(address, 'newcomer@school.test');
      const refused = await signUp();
      expect(refused).toMatchObject({ status: 429, body: { code: 'codeSendLimit' } });
      expect(Number(refused.retryAfter)).toBe(60 * 60);
      // refused before the account exists: nobody is left with an account and no code
      expect(await findUserByEmail(t.db, 'newcomer@school.test')).toBeUndefined();
      t.clock.advance(HOUR_MS - 60_000);
      expect((await signUp()).body.code).toBe('codeSendLimit');
      t.clock.advance(60_000);
      expect((await signUp()).status).toBe(200);
    });

    it("one inbox's +tags are accounts of their own but share its 5 codes an hour: v+1@ … v+6@ signed up from six addresses, the 6th is refused and mails nothing", async () => {
      const emails = Array.from({ length: 6 }, (_, i) => `v+${i + 1}@tagged.test`);
      for (const [i, email] of emails.slice(0, 5).entries()) {
        expect((await signUpFrom(`198.51.100.${110 + i}`, email)).status).toBe(200);
        t.clock.advance(60_000);
      }
      expect(await mailsToAny(emails)).toBe(5);
      const refused = await signUpFrom('198.51.100.115', 'v+6@tagged.test');
      expect(refused).toMatchObject({ status: 429, body: { code: 'codeSendLimit' } });
      expect(Number(refused.retryAfter)).toBe(HOUR_MS / 1000 - 5 * 60);
      expect(await findUserByEmail(t.db, 'v+6@tagged.test')).toBeUndefined();
      // the inbox itself, too: its reset codes are the same person's mail
      await seedUser(t, { email: 'v@tagged.test' });
      const reset = await call(t, '198.51.100.116', 'POST', '/api/cognito/sendreset', {
        un: 'v@tagged.test',
      });
      expect(reset.body.code).toBe('codeSendLimit');
      expect(await mailsToAny([...emails, 'v@tagged.test'])).toBe(5);
      // an hour after the first, one more
      t.clock.advance(HOUR_MS - 5 * 60_000);
      expect((await signUpFrom('198.51.100.115', 'v+6@tagged.test')).status).toBe(200);
      expect(await mailsToAny(emails)).toBe(6);
    });

    it("a Gmail inbox's dotted spellings and googlemail.com share its codes too; a burst at them all at once mails 5", async () => {
      const emails = [
        'vic.tim@gmail.com',
        'v.ictim@gmail.com',
        'victim@googlemail.com',
        'vi.c.tim+x@gmail.com',
        'v.i.ctim@gmail.com',
        'victi.m@gmail.com',
        'vict.im@googlemail.com',
        'vi.ctim@gmail.com',
      ];
      for (const email of emails) await seedUser(t, { email });
      const answers = await Promise.all(
        emails.map((un, i) => call(t, `198.51.100.${120 + i}`, 'POST', '/api/cognito/sendreset', { un })),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
      expect(answers.filter((a) => a.body.code === 'codeSendLimit')).toHaveLength(3);
      expect(await mailsToAny(emails)).toBe(5);
      // another person's inbox at the same domain is not held up
      await seedUser(t, { email: 'victim.other@gmail.com' });
      expect(
        (await call(t, '198.51.100.130', 'POST', '/api/cognito/sendreset', { un: 'victim.other@gmail.com' }))
          .status,
      ).toBe(200);
    });

    it('a burst of sends from one address at once mails no more than its hourly sends', async () => {
      const u = await open({ LIMIT_MAIL_PER_ADDRESS_PER_HOUR: '8' });
      const emails = Array.from({ length: 12 }, (_, i) => `burst-reset${i}@school.test`);
      for (const email of emails) await seedUser(u, { email });
      const answers = await Promise.all(
        emails.map((un) => call(u, '198.51.100.75', 'POST', '/api/cognito/sendreset', { un })),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(8);
      expect(answers.filter((a) => a.body.code === 'codeSendLimit')).toHaveLength(4);
      const mails = await u.db.selectFrom('outbox').select('id').where('kind', '=', 'mail').execute();
      expect(mails).toHaveLength(8);
    });
  });

  describe.skipIf(skip)('access codes', () => {
    let t: TestApp;
    beforeAll(async () => {
      // 10 live codes at 0.003 % a day: a budget of 3 failures
      t = await open({ ACCESS_CODE_DAILY_RISK: '0.00003', ACCESS_CODE_TTL_DAYS: '7' });
      await seedServiceProvider(t, 'mathworld');
      await seedServiceProvider(t, 'readingroom');
    });
    const seedCodes = async (spId: string, n: number) => {
      const codes: string[] = [];
      for (let i = 0; i < n; i++) {
        const student = await seedUser(t, { email: `${spId}${i}@school.test` });
        codes.push((await createAccessCode(t.ctx, { spId, userId: student.id })).code);
      }
      return codes;
    };

    it('stores a keyed hash, never the code, and looks it up within the provider asked for', async () => {
      const [code = ''] = await seedCodes('readingroom', 10);
      const rows = await t.db.selectFrom('access_codes').selectAll().execute();
      expect(rows.some((r) => JSON.stringify(r).includes(code))).toBe(false);
      const wrongProvider = await accessCode(t, '198.51.100.80', code, 'mathworld');
      expect(wrongProvider).toMatchObject({
        status: 400,
        body: { msg: 'The code you entered is not for mathworld Learning' },
      });
      // a wrong-provider answer is a failure of both providers
      expect((await accessCodeBudgetOf(t.ctx, 'mathworld')).failures).toBe(1);
      expect((await accessCodeBudgetOf(t.ctx, 'readingroom')).failures).toBe(1);
    });

    it("spends the provider's budget, then pauses its class-code sign-in (429) until the day ends and tells the operator", async () => {
      const codes = await seedCodes('mathworld', 10);
      const { budget, failures } = await accessCodeBudgetOf(t.ctx, 'mathworld');
      expect(budget).toBe(3);
      for (let i = failures; i < budget; i++)
        expect((await accessCode(t, `198.51.100.${81 + i}`, '999999', 'mathworld')).status).toBe(404);
      const paused = await accessCode(t, '198.51.100.99', codes[0] ?? '', 'mathworld');
      expect(paused).toMatchObject({
        status: 429,
        body: { code: 'accessCodesPaused', msg: messages.accessCodesPaused },
      });
      expect(Number(paused.retryAfter)).toBeGreaterThan(0);
      const [entry] = await listAudit(t.ctx, { limit: 1, event: 'access-codes.budget-exhausted' });
      expect(entry).toMatchObject({ sp_id: 'mathworld', detail: { budget: 3, liveCodes: 10 } });
      // another provider's classes go on
      expect((await accessCode(t, '198.51.100.99', '999998', 'readingroom')).status).toBe(404);
      // asked 3 ms before the day ends, on a clock that moves on as it is read (the day can end
      // within the request): never "retry in 0 seconds"
      t.clock.advance((utcDay(t.clock.now()) + 1) * DAY_MS - 3 - t.clock.now());
      const ctx = t.ctx as { now: () => number };
      const fixed = ctx.now;
      let reads = 0;
      ctx.now = () => fixed() + reads++;
      try {
        const lastMoment = await accessCode(t, '198.51.100.99', codes[0] ?? '', 'mathworld');
        expect(lastMoment).toMatchObject({ status: 429, retryAfter: '1' });
      } finally {
        ctx.now = fixed;
      }
      t.clock.advance(DAY_MS);
      expect((await accessCode(t, '198.51.100.99', codes[0] ?? '', 'mathworld')).status).toBe(200);
    });

    it("names another provider's code only within the deployment's budget; past it the code is just wrong", async () => {
      // 10 live codes in the deployment at 0.003 % a day: 3 failures may learn that a code is another's
      const u = await open({ ACCESS_CODE_DAILY_RISK: '0.00003' });
      await seedServiceProvider(u, 'nocodes');
      await seedServiceProvider(u, 'school');
      const codes: string[] = [];
      for (let i = 0; i < 10; i++) {
        const student = await seedUser(u, { email: `hint${i}@school.test` });
        codes.push((await createAccessCode(u.ctx, { spId: 'school', userId: student.id })).code);
      }
      const unused = String((Number(codes[0]) + 1) % 1e6).padStart(6, '0');
      const guess = (code: string) => accessCode(u, '198.51.100.120', code, 'nocodes');
      expect((await guess(codes[0] ?? '')).status).toBe(400);
      for (let i = 0; i < 2; i++)
        expect((await guess(codes.includes(unused) ? '000000' : unused)).status).toBe(404);
      // 4 failures of the deployment today (one counted at both providers): past its budget of 3
      const past = await guess(codes[1] ?? '');
      expect(past).toMatchObject({ status: 404, body: { code: 'accessCodeNotFound' } });
      expect((await accessCodeBudgetOf(u.ctx, 'school')).failures).toBe(1);
      // the students' own sign-in is untouched
      expect((await accessCode(u, '198.51.100.121', codes[1] ?? '', 'school')).status).toBe(200);
    });

    it('a burst of parallel wrong codes spends the budget like codes sent one by one', async () => {
      const u = await open({ ACCESS_CODE_DAILY_RISK: '0.00003' });
      await seedServiceProvider(u, 'burst');
      for (let i = 0; i < 10; i++) {
        const student = await seedUser(u, { email: `burst-code${i}@school.test` });
        await createAccessCode(u.ctx, { spId: 'burst', userId: student.id });
      }
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          accessCode(u, `198.51.100.${160 + i}`, String(900000 + i), 'burst'),
        ),
      );
      // 10 live codes at 0.003 %: a budget of 3 failures
      expect(answers.filter((a) => a.status === 404)).toHaveLength(3);
      expect(answers.filter((a) => a.body.code === 'accessCodesPaused')).toHaveLength(17);
      expect((await accessCodeBudgetOf(u.ctx, 'burst')).failures).toBe(3);
    });

    it('several instances without shared counters (no Redis, or Redis down) still spend no more than the budget', async () => {
      const u = await open({ ACCESS_CODE_DAILY_RISK: '0.00003' });
      await seedServiceProvider(u, 'instances');
      for (let i = 0; i < 10; i++) {
        const student = await seedUser(u, { email: `instances${i}@school.test` });
        await createAccessCode(u.ctx, { spId: 'instances', userId: student.id });
      }
      // two instances on one database, each counting in its own memory
      const instances = [0, 1].map(() => ({
        ...u.ctx,
        limits: { ...u.ctx.limits, counters: memoryCounters() },
      }));
      const answers = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          accessCodeLogin(instances[i % 2] ?? u.ctx, {
            code: String(900000 + i),
            spId: 'instances',
            address: `198.51.100.${170 + i}`,
            browser: `browser-${i}`,
          }),
        ),
      );
      const codes = answers.map((a) => (a.status === 'rejected' ? (a.reason as ApiError).code : 'signedIn'));
      // 10 live codes at 0.003 %: a budget of 3 failures
      expect(codes.filter((code) => code === 'accessCodeNotFound')).toHaveLength(3);
      expect((await accessCodeBudgetOf(u.ctx, 'instances')).failures).toBe(3);
    });

    it("guesses waiting for their address's places hold none of the provider's budget: another school's right code goes in", async () => {
      const u = await open({ ACCESS_CODE_DAILY_RISK: '0.00003', LIMIT_ADDRESS_FAILURES_PER_HOUR: '5' });
      await seedServiceProvider(u, 'waitburst');
      const codes: string[] = [];
      for (let i = 0; i < 10; i++) {
        const student = await seedUser(u, { email: `wait-burst${i}@school.test` });
        codes.push((await createAccessCode(u.ctx, { spId: 'waitburst', userId: student.id })).code);
      }
      // a budget of 3: the three wrong codes below would hold all of it while they wait
      const attacker = '198.51.100.170';
      const held = await Promise.all(Array.from({ length: 5 }, () => reserveAddressGuess(u.ctx, attacker)));
      const waiting = Array.from({ length: 3 }, (_, i) => accessCode(u, attacker, `99999${i}`, 'waitburst'));
      await expect
        .poll(() => [...u.ctx.limits.addressChecks.values()].reduce((n, c) => n + c.waiting.size, 0))
        .toBe(3);
      expect((await accessCode(u, '198.51.100.171', codes[0] ?? '', 'waitburst')).status).toBe(200);
      for (const guess of held) addressGuessFailed(u.ctx, guess);
      expect((await Promise.all(waiting)).map((a) => a.body.code)).toEqual(
        Array(3).fill('addressFailureLimit'),
      );
    });

    it('a class typing its right codes at once never pauses its provider nor tells the operator it did', async () => {
      const u = await open({ ACCESS_CODE_DAILY_RISK: '0.00003' });
      await seedServiceProvider(u, 'rightburst');
      const codes: string[] = [];
      for (let i = 0; i < 10; i++) {
        const student = await seedUser(u, { email: `right-burst${i}@school.test` });
        codes.push((await createAccessCode(u.ctx, { spId: 'rightburst', userId: student.id })).code);
      }
      // 10 live codes at 0.003 %: a budget of 3 failures, 2 of them spent before the class arrives
      for (let i = 0; i < 2; i++)
        expect((await accessCode(u, `198.51.100.${190 + i}`, '999999', 'rightburst')).status).toBe(404);
      const answers = await Promise.all(
        codes.map((code, i) => accessCode(u, `198.51.100.${200 + i}`, code, 'rightburst')),
      );
      expect(answers.map((a) => a.status)).toEqual(codes.map(() => 200));
      expect((await accessCodeBudgetOf(u.ctx, 'rightburst')).failures).toBe(2);
      expect(await listAudit(u.ctx, { limit: 1, event: 'access-codes.budget-exhausted' })).toEqual([]);
      // the budget's last failure is still there for a wrong code, and then it pauses
      expect((await accessCode(u, '198.51.100.195', '999999', 'rightburst')).status).toBe(404);
      expect((await accessCode(u, '198.51.100.196', codes[0] ?? '', 'rightburst')).body.code).toBe(
        'accessCodesPaused',
      );
    });

    it("a place its guess could not give back (the database gone a moment) frees itself after its lease: the class's right codes go in again", async () => {
      const u = await open({ ACCESS_CODE_DAILY_RISK: '0.00003' });
      await seedServiceProvider(u, 'blip');
      const codes: string[] = [];
      for (let i = 0; i < 10; i++) {
        const student = await seedUser(u, { email: `blip${i}@school.test` });
        codes.push((await createAccessCode(u.ctx, { spId: 'blip', userId: student.id })).code);
      }
      // 10 live codes at 0.003 %: a budget of 3 failures, 2 spent by typos
      for (let i = 0; i < 2; i++)
        expect((await accessCode(u, `198.51.100.${210 + i}`, '999999', 'blip')).status).toBe(404);
      const blipped = await settleFailsOnce(u, () => accessCode(u, '198.51.100.212', codes[0] ?? '', 'blip'));
      expect(blipped.status).toBe(500);
      // its place still counts (the budget is full): the operator sees it
      expect(await accessCodeBudgetOf(u.ctx, 'blip')).toMatchObject({
        failures: 2,
        remaining: 1,
        inFlight: 1,
      });
      u.clock.advance(PLACE_LEASE_MS);
      expect(await accessCodeBudgetOf(u.ctx, 'blip')).toMatchObject({ failures: 2, inFlight: 0 });
      for (let i = 1; i <= 3; i++)
        expect((await accessCode(u, `198.51.100.${212 + i}`, codes[i] ?? '', 'blip')).status).toBe(200);
      expect(await accessCodeBudgetOf(u.ctx, 'blip')).toMatchObject({ failures: 2, inFlight: 0 });
    });

    it('new codes that shrink a budget below the failures already counted pause it, and the operator is told', async () => {
      const u = await open({ ACCESS_CODE_DAILY_RISK: '0.00003' });
      await seedServiceProvider(u, 'growing');
      const seed = async (n: number, from: number) => {
        const codes: string[] = [];
        for (let i = from; i < from + n; i++) {
          const student = await seedUser(u, { email: `growing${i}@school.test` });
          codes.push((await createAccessCode(u.ctx, { spId: 'growing', userId: student.id })).code);
        }
        return codes;
      };
      const [code = ''] = await seed(10, 0);
      for (let i = 0; i < 2; i++)
        expect((await accessCode(u, `198.51.100.${122 + i}`, '999999', 'growing')).status).toBe(404);
      // 20 live codes: a budget of 1, below the 2 failures of today
      await seed(10, 10);
      expect((await accessCode(u, '198.51.100.124', code, 'growing')).body.code).toBe('accessCodesPaused');
      const [entry] = await listAudit(u.ctx, { limit: 1, event: 'access-codes.budget-exhausted' });
      expect(entry).toMatchObject({ sp_id: 'growing', detail: { budget: 1, failures: 2, liveCodes: 20 } });
    });

    it("a class's typed-wrong codes do not add up to the address's ceiling: the right code takes its typos back", async () => {
      const u = await open({ LIMIT_ADDRESS_FAILURES_PER_HOUR: '3' });
      await seedServiceProvider(u, 'typists');
      for (let i = 0; i < 6; i++) {
        const student = await seedUser(u, { email: `typist${i}@school.test` });
        const { code } = await createAccessCode(u.ctx, { spId: 'typists', userId: student.id });
        const typo = String((Number(code) + 1) % 1e6).padStart(6, '0');
        expect((await accessCode(u, SCHOOL, typo, 'typists')).status).toBe(404);
        expect((await accessCode(u, SCHOOL, code, 'typists')).status).toBe(200);
      }
    });

    it("a student's own code forgives once an hour: typed after every three guesses at the class's codes, it does not hide them from the address's ceiling", async () => {
      const u = await open({ LIMIT_ADDRESS_FAILURES_PER_HOUR: '10' });
      await seedServiceProvider(u, 'laundry');
      const student = await seedUser(u, { email: 'launderer@school.test' });
      const { code } = await createAccessCode(u.ctx, { spId: 'laundry', userId: student.id });
      let guess = Number(code);
      const nextGuess = () => String(++guess % 1e6).padStart(6, '0');
      const statuses: number[] = [];
      for (let round = 0; round < 5; round++) {
        for (let i = 0; i < 3; i++)
          statuses.push((await accessCode(u, SCHOOL, nextGuess(), 'laundry')).status);
        statuses.push((await accessCode(u, SCHOOL, code, 'laundry')).status);
      }
      // the first round is forgiven; from then on every guess counts, and past the 10th the address
      // is refused, its right code too
      expect(statuses).toEqual([...Array(4).fill([404, 404, 404, 200]).flat(), 404, 429, 429, 429]);
      // an hour later the code forgives again: three guesses and the code, then ten more guesses
      u.clock.advance(HOUR_MS);
      for (let i = 0; i < 3; i++)
        expect((await accessCode(u, SCHOOL, nextGuess(), 'laundry')).status).toBe(404);
      expect((await accessCode(u, SCHOOL, code, 'laundry')).status).toBe(200);
      for (let i = 0; i < 10; i++)
        expect((await accessCode(u, SCHOOL, nextGuess(), 'laundry')).status).toBe(404);
      expect((await accessCode(u, SCHOOL, nextGuess(), 'laundry')).status).toBe(429);
    });

    it('codes expire after ACCESS_CODE_TTL_DAYS and can be revoked', async () => {
      const student = await seedUser(t, { email: 'expiring@school.test' });
      const first = await createAccessCode(t.ctx, { spId: 'readingroom', userId: student.id });
      const second = await createAccessCode(t.ctx, { spId: 'readingroom', userId: student.id, ttlDays: 30 });
      expect(first.expiresAt - t.clock.now()).toBe(7 * DAY_MS);
      expect(await revokeAccessCodes(t.ctx, { id: second.id })).toBe(1);
      expect((await accessCode(t, '198.51.100.100', second.code, 'readingroom')).status).toBe(404);
      t.clock.advance(7 * DAY_MS);
      expect((await accessCode(t, '198.51.100.100', first.code, 'readingroom')).status).toBe(404);
    });
  });

  describe.skipIf(skip)('service providers and the flood guard', () => {
    let t: TestApp;
    let credentials: { clientId: string; clientSecret: string };
    beforeAll(async () => {
      t = await open({
        LIMIT_SP_CALLS_PER_MINUTE: '5',
        LIMIT_FLOOD_PER_MINUTE: '3',
        LIMIT_ALLOWLIST: '192.0.2.0/24',
      });
      credentials = await seedServiceProvider(t, 'mathworld');
    });
    const createLogin = (creds: { clientId: string; clientSecret: string }) =>
      t.app.inject({
        method: 'POST',
        url: '/api/gateway/createCsrfLogin',
        headers: { authorization: basicAuth(creds.clientId, creds.clientSecret) },
        payload: { url: 'https://app.mathworld.test/welcome' },
        remoteAddress: '10.20.0.1',
      });

    it('limits server-to-server calls per client id, never per address (the flood guard does not apply)', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await createLogin(credentials)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      t.clock.advance(60_000);
      expect((await createLogin(credentials)).statusCode).toBe(200);
    });

    it("a product's wrong client secret (an old one after rotate-secret) is no guess: the address's failures stay, its sign-ins and the product's right calls go on; an unknown client id counts", async () => {
      const u = await open({ LIMIT_ADDRESS_FAILURES_PER_HOUR: '3', LIMIT_SP_CALLS_PER_MINUTE: '100' });
      const product = await seedServiceProvider(u, 'stale-secret', ['https://app.stale-secret.test']);
      const from = (creds: { clientId: string; clientSecret: string }, address: string) =>
        u.app.inject({
          method: 'POST',
          url: '/api/gateway/createCsrfLogin',
          headers: { authorization: basicAuth(creds.clientId, creds.clientSecret) },
          payload: { url: 'https://app.stale-secret.test/welcome' },
          remoteAddress: address,
        });
      const stale = { clientId: product.clientId, clientSecret: 'the-secret-before-rotation' };
      for (let i = 0; i < 10; i++) expect((await from(stale, '10.30.0.1')).statusCode).toBe(401);
      expect((await from(product, '10.30.0.1')).statusCode).toBe(200);
      // counted per client id apart from its right calls: whoever knows the id cannot spend those
      const wrongSecrets: number[] = [];
      for (let i = 0; i < 100; i++) wrongSecrets.push((await from(stale, '10.30.0.3')).statusCode);
      expect(wrongSecrets.filter((status) => status === 429)).toHaveLength(10);
      expect((await from(product, '10.30.0.1')).statusCode).toBe(200);
      const user = await seedUser(u, { email: 'same-network@school.test' });
      expect((await login(u, '10.30.0.1', user.email)).status).toBe(200);
      // a client id nobody has is a guess like a password: the address's hourly failures
      const unknown = { clientId: 'sp_nobody', clientSecret: 'x' };
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await from(unknown, '10.30.0.2')).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429]);
    });

    it('the flood guard counts all API calls of one address a minute; allowlisted networks are exempt', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await call(t, '198.51.100.110', 'GET', '/api/auth/sig')).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect((await call(t, '198.51.100.111', 'GET', '/api/auth/sig')).status).toBe(200);
      for (let i = 0; i < 5; i++)
        expect((await call(t, '192.0.2.5', 'GET', '/api/auth/sig')).status).toBe(200);
    });

    it('a Basic header of its own does not lift the flood guard: only the calls that check their client are exempt', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await t.app.inject({
          url: '/api/gateway/getCsrfLogin/no-such-request',
          headers: { authorization: basicAuth('anyone', 'anything') },
          remoteAddress: '198.51.100.112',
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([404, 404, 404, 429]);
    });
  });

  describe.skipIf(skip)(
    "the authorization server's sign-in steps (/oidc, outside the API's flood guard)",
    () => {
      let t: TestApp;
      beforeAll(async () => {
        t = await open({ LIMIT_SIGN_IN_STEPS_PER_MINUTE: '3', LIMIT_ALLOWLIST: '192.0.2.0/24' });
      });
      /** A new authorization request, as the SPA's sign-in button makes one (each stores an Interaction). */
      const authorize = (address: string, extra: Record<string, string> = {}) =>
        t.app.inject({ url: portalAuthorizeUrl(t, extra), remoteAddress: address });
      const interactions = async () =>
        (await t.db.selectFrom('oidc_payloads').select('id').where('type', '=', 'Interaction').execute())
          .length;

      it("counts an address's new authorization requests and provider answers a minute, storing nothing once refused; allowlisted networks are exempt", async () => {
        const before = await interactions();
        const statuses: number[] = [];
        for (let i = 0; i < 3; i++) statuses.push((await authorize('198.51.100.130')).statusCode);
        const answer = await t.app.inject({
          url: '/oidc/interaction/callback/Google?code=c&state=not-an-interaction',
          remoteAddress: '198.51.100.130',
        });
        const refused = await authorize('198.51.100.130');
        expect(statuses).toEqual([303, 303, 303]);
        expect([answer.statusCode, refused.statusCode]).toEqual([429, 429]);
        expect(refused.headers['retry-after']).toBe('60');
        expect(refused.headers['content-type']).toMatch(/^text\/html/);
        expect(refused.body).toContain(messages.tooManyRequests);
        expect(await interactions()).toBe(before + 3);

        // the same step otherwise spelled, or asked with HEAD (which runs the GET's handler), is counted too
        const [head, slash, capitals] = await Promise.all([
          t.app.inject({ method: 'HEAD', url: portalAuthorizeUrl(t), remoteAddress: '198.51.100.130' }),
          t.app.inject({
            url: portalAuthorizeUrl(t).replace('authorize?', 'authorize/?'),
            remoteAddress: '198.51.100.130',
          }),
          t.app.inject({
            url: portalAuthorizeUrl(t).replace('/oauth2/authorize', '/OAuth2/Authorize'),
            remoteAddress: '198.51.100.130',
          }),
        ]);
        expect([head.statusCode, slash.statusCode, capitals.statusCode]).toEqual([429, 429, 429]);
        expect(await interactions()).toBe(before + 3);

        expect((await authorize('198.51.100.131')).statusCode).toBe(303);
        for (let i = 0; i < 5; i++) expect((await authorize('192.0.2.9')).statusCode).toBe(303);
        t.clock.advance(60_000);
        expect((await authorize('198.51.100.130')).statusCode).toBe(303);
      });

      it('refuses an authorization request longer than any sign-in needs before it is stored (413)', async () => {
        const before = await interactions();
        const res = await authorize('198.51.100.132', {
          login_hint: 'x'.repeat(AUTHORIZE_REQUEST_MAX_CHARS),
        });
        expect(res.statusCode).toBe(413);
        expect(res.body).toContain(messages.payloadTooLarge);
        expect(await interactions()).toBe(before);
        const otherwiseSpelled = await t.app.inject({
          method: 'HEAD',
          url: portalAuthorizeUrl(t, { login_hint: 'x'.repeat(AUTHORIZE_REQUEST_MAX_CHARS) }).replace(
            'authorize?',
            'authorize/?',
          ),
          remoteAddress: '198.51.100.132',
        });
        expect(otherwiseSpelled.statusCode).toBe(413);
        expect(await interactions()).toBe(before);
        // a real one, login hint and all, is far below it
        expect((await authorize('198.51.100.132', { login_hint: 'student@school.example' })).statusCode).toBe(
          303,
        );
      });
    },
  );

  describe.skipIf(skip)('behind a proxy', () => {
    it('TRUST_PROXY=1 takes the address the proxy saw, not one the client wrote into X-Forwarded-For', async () => {
      const t = await open({ TRUST_PROXY: '1', LIMIT_ADDRESS_FAILURES_PER_HOUR: '3' });
      const viaProxy = (claimed: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/cognito/login',
          headers: { ...csrf, 'x-forwarded-for': `${claimed}, 198.51.100.120` },
          payload: { email: `nobody-${claimed}@school.test`, password: 'Wrong-Passw0rd!' },
          remoteAddress: '10.0.0.2',
        });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await viaProxy(`203.0.113.${i}`)).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429]);
    });
  });

  describe.skipIf(skip)('what an operator reads in the log', () => {
    /** An app whose log lines are kept: all of them, and the lines saying a limit started refusing. */
    const logged = async (env: Env) => {
      const raw: string[] = [];
      const t = await open(
        env,
        createLogger({ level: 'info', destination: { write: (l) => void raw.push(l) } }),
      );
      const lines = () => raw.map((line) => JSON.parse(line) as Record<string, unknown>);
      const reached = () => lines().filter((line) => line.msg === 'abuse limit reached');
      const refusals = (code: string) =>
        lines().filter((line) => line.msg === 'request completed' && line.code === code);
      return { t, raw, lines, reached, refusals };
    };
    const WARN = 40;
    const ERROR = 50;

    it('the address failure ceiling: one warn line (address, Retry-After) when it trips, none per refusal; refused lines carry the code', async () => {
      const log = await logged({ LIMIT_ADDRESS_FAILURES_PER_HOUR: '5' });
      const emails = Array.from({ length: 15 }, (_, i) => `sweep${i}@school.test`);
      const statuses: number[] = [];
      for (const email of emails)
        statuses.push((await login(log.t, SCHOOL, email, 'Wrong-Passw0rd!')).status);
      expect(statuses).toEqual([...Array(5).fill(401), ...Array(10).fill(429)]);
      expect(log.reached()).toEqual([
        expect.objectContaining({
          level: WARN,
          limit: 'address failures',
          code: 'addressFailureLimit',
          key: 'address',
          address: SCHOOL,
          retryAfter: 3600,
        }),
      ]);
      expect(log.refusals('addressFailureLimit')).toHaveLength(10);
      expect(log.refusals('addressFailureLimit')[0]).toMatchObject({ res: { statusCode: 429 } });
      // it names the request that tripped the limit: the fifth failure, the last one answered 401
      const failures = log
        .lines()
        .filter((line) => line.msg === 'request completed' && line.code === 'incorrectCredentials');
      expect(failures).toHaveLength(5);
      expect(log.reached()[0]?.reqId).toBe(failures.at(-1)?.reqId);
      expect(log.raw.filter((line) => emails.some((email) => line.includes(email)))).toEqual([]);
    });

    it('the address failure ceiling filled by guesses still being checked (a success among them, or another instance): the first refusal writes the line, once', async () => {
      const log = await logged({ LIMIT_ADDRESS_FAILURES_PER_HOUR: '5' });
      for (let i = 0; i < 5; i++) await reserveAddressGuess(log.t.ctx, SCHOOL);
      // at once: each waits ADDRESS_CHECKS_WAIT_MS for the places held, then is refused, and of the
      // refusals at the same moment one writes the line
      const statuses = await Promise.all(
        [1, 2, 3].map(
          async (i) => (await login(log.t, SCHOOL, `held${i}@school.test`, 'Wrong-Passw0rd!')).status,
        ),
      );
      expect(statuses).toEqual([429, 429, 429]);
      expect(log.reached()).toEqual([
        expect.objectContaining({
          level: WARN,
          limit: 'address failures',
          code: 'addressFailureLimit',
          address: SCHOOL,
        }),
      ]);
      expect(log.reached()[0]?.reqId).toBe(log.refusals('addressFailureLimit')[0]?.reqId);
    });

    it("the pair block, each failure's line and each refusal's name the address and the account by id, never its email", async () => {
      const log = await logged({});
      const email = 'pair-logged@school.test';
      const user = await seedUser(log.t, { email });
      for (let i = 0; i < ABUSE_LIMITS.pairBlockAfterFailures; i++) {
        await login(log.t, SCHOOL, email, 'Wrong-Passw0rd!');
        log.t.clock.advance(accountDelayMs(i + 1));
      }
      for (let i = 0; i < 3; i++) expect((await login(log.t, SCHOOL, email)).status).toBe(429);
      expect(log.reached()).toEqual([
        expect.objectContaining({
          level: WARN,
          limit: 'address and account failures',
          code: 'tooManyFailures',
          key: 'pair',
          address: SCHOOL,
          userId: user.id,
          retryAfter: ABUSE_LIMITS.pairBlockMs / 1000,
        }),
      ]);
      // a refused pupil's lines are found by the id `user show` gives, as their failures are, and
      // say which limit refused them: this pair's block, not the account's delay (the same code)
      expect(log.refusals('tooManyFailures').map((line) => [line.userId, line.limit])).toEqual(
        Array(3).fill([user.id, 'address and account failures']),
      );
      // each failure's request line names the account by id too, as its audit row does
      const failures = log
        .lines()
        .filter((line) => line.msg === 'request completed' && line.code === 'incorrectCredentials');
      expect(failures.map((line) => line.userId)).toEqual(
        Array(ABUSE_LIMITS.pairBlockAfterFailures).fill(user.id),
      );
      // and the browser that guessed, by a tag of its fd_csrf (here `t`), never the token itself
      expect(failures.map((line) => line.browser)).toEqual(
        Array(ABUSE_LIMITS.pairBlockAfterFailures).fill(browserTag(log.t.ctx.config.secret, 't')),
      );
      expect(log.raw.filter((line) => line.includes(email))).toEqual([]);
    });

    it("a refusal by the account's delay says so on its line: the same code as the pair block, another limit", async () => {
      const log = await logged({});
      const user = await seedUser(log.t, { email: 'delay-logged@school.test' });
      for (let i = 0; i < ABUSE_LIMITS.accountDelayAfterFailures; i++)
        await login(log.t, SCHOOL, user.email, 'Wrong-Passw0rd!');
      expect((await login(log.t, SCHOOL, user.email)).status).toBe(429);
      expect(log.refusals('tooManyFailures')).toEqual([
        expect.objectContaining({ userId: user.id, limit: 'account delay' }),
      ]);
    });

    it('the account lock and the mail sends of an address: one warn line each', async () => {
      const log = await logged({ LIMIT_MAIL_PER_ADDRESS_PER_HOUR: '2' });
      const user = await seedUser(log.t, { email: 'lock-logged@school.test' });
      await log.t.db
        .updateTable('users')
        .set({ failed_attempts: ABUSE_LIMITS.accountLockAfterFailures - 1, last_failed_at: 0 })
        .where('id', '=', user.id)
        .execute();
      await login(log.t, SCHOOL, 'lock-logged@school.test', 'Wrong-Passw0rd!');
      for (let i = 0; i < 3; i++)
        expect((await login(log.t, SCHOOL, 'lock-logged@school.test')).body.code).toBe('accountLocked');
      for (let i = 0; i < 4; i++) {
        await seedUser(log.t, { email: `mailed${i}@school.test` });
        // the first asked for again at once: skipped in its cooldown, nothing mailed, nothing said
        for (let again = 0; again < (i === 0 ? 4 : 1); again++)
          await call(log.t, '198.51.100.150', 'POST', '/api/cognito/sendreset', {
            un: `mailed${i}@school.test`,
          });
      }
      expect(log.reached()).toEqual([
        expect.objectContaining({
          level: WARN,
          limit: 'account lock',
          code: 'accountLocked',
          key: 'account',
          userId: user.id,
          retryAfter: ABUSE_LIMITS.accountLockMs / 1000,
        }),
        expect.objectContaining({
          level: WARN,
          limit: 'mail sends per address',
          code: 'codeSendLimit',
          key: 'address',
          address: '198.51.100.150',
          retryAfter: 3600,
        }),
      ]);
      expect(log.refusals('accountLocked')).toHaveLength(3);
      expect(log.refusals('codeSendLimit')).toHaveLength(2);
    });

    it("a provider's access-code budget: one error line naming the provider, until the day ends", async () => {
      // one live code at 0.0002 %: a budget of 2 failures
      const log = await logged({ ACCESS_CODE_DAILY_RISK: '0.000002' });
      await seedServiceProvider(log.t, 'mathworld');
      const student = await seedUser(log.t, { email: 'budget-logged@school.test' });
      await createAccessCode(log.t.ctx, { spId: 'mathworld', userId: student.id });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await accessCode(log.t, `198.51.100.${160 + i}`, '999999', 'mathworld')).status);
      expect(statuses).toEqual([404, 404, 429, 429, 429]);
      const midnight = (Math.floor(log.t.clock.now() / DAY_MS) + 1) * DAY_MS;
      expect(log.reached()).toEqual([
        expect.objectContaining({
          level: ERROR,
          limit: 'access-code budget',
          code: 'accessCodesPaused',
          key: 'provider',
          spId: 'mathworld',
          retryAfter: (midnight - log.t.clock.now()) / 1000,
          budget: 2,
        }),
      ]);
      expect(log.refusals('accessCodesPaused')).toHaveLength(3);
    });

    it("a provider's places held past a database blip: one warn line naming them, and they free themselves after their lease", async () => {
      // 10 live codes at 0.003 %: a budget of 3 failures, 2 spent by typos
      const log = await logged({ ACCESS_CODE_DAILY_RISK: '0.00003' });
      await seedServiceProvider(log.t, 'heldplaces');
      const codes: string[] = [];
      for (let i = 0; i < 10; i++) {
        const student = await seedUser(log.t, { email: `held${i}@school.test` });
        codes.push((await createAccessCode(log.t.ctx, { spId: 'heldplaces', userId: student.id })).code);
      }
      for (let i = 0; i < 2; i++)
        expect((await accessCode(log.t, `198.51.100.${230 + i}`, '999999', 'heldplaces')).status).toBe(404);
      const blipped = await settleFailsOnce(log.t, () =>
        accessCode(log.t, '198.51.100.232', codes[0] ?? '', 'heldplaces'),
      );
      expect(blipped.status).toBe(500);
      // the place it kept fills the budget: right codes wait a second for it, then are refused
      const refused = await Promise.all(
        [1, 2].map((i) => accessCode(log.t, `198.51.100.${232 + i}`, codes[i] ?? '', 'heldplaces')),
      );
      expect(refused.map((r) => [r.status, r.body.code, r.retryAfter])).toEqual(
        Array(2).fill([429, 'tooManyRequests', '1']),
      );
      expect(log.reached()).toEqual([
        expect.objectContaining({
          level: WARN,
          limit: 'access-code places',
          code: 'tooManyRequests',
          key: 'provider',
          spId: 'heldplaces',
          retryAfter: PLACE_LEASE_MS / 1000,
          inFlight: 1,
          failures: 2,
          budget: 3,
        }),
      ]);
      log.t.clock.advance(PLACE_LEASE_MS);
      expect((await accessCode(log.t, '198.51.100.235', codes[3] ?? '', 'heldplaces')).status).toBe(200);
    });

    it('the flood guard and the calls of a service provider: one warn line each, however long the flood', async () => {
      const log = await logged({ LIMIT_FLOOD_PER_MINUTE: '3', LIMIT_SP_CALLS_PER_MINUTE: '2' });
      for (let i = 0; i < 20; i++) await call(log.t, '198.51.100.170', 'GET', '/api/auth/sig');
      const credentials = await seedServiceProvider(log.t, 'readingroom');
      for (let i = 0; i < 10; i++)
        await log.t.app.inject({
          method: 'POST',
          url: '/api/gateway/createCsrfLogin',
          headers: { authorization: basicAuth(credentials.clientId, credentials.clientSecret) },
          payload: { url: 'https://app.readingroom.test/welcome' },
        });
      expect(log.reached()).toEqual([
        expect.objectContaining({
          level: WARN,
          limit: 'flood guard',
          code: 'tooManyRequests',
          key: 'address',
          address: '198.51.100.170',
          retryAfter: 60,
        }),
        expect.objectContaining({
          level: WARN,
          limit: 'service-provider calls',
          code: 'tooManyRequests',
          key: 'provider',
          spId: 'readingroom',
          retryAfter: 60,
        }),
      ]);
      expect(log.refusals('tooManyRequests')).toHaveLength(17 + 8);
      // each on the line of the first request it refused
      const [flood, calls] = log.reached();
      expect(flood?.reqId).toBe(log.refusals('tooManyRequests')[0]?.reqId);
      expect(calls?.reqId).toBe(log.refusals('tooManyRequests')[17]?.reqId);
    });
  });

  describe.skipIf(skip)('hashing under a flood', () => {
    it('beyond the argon2 queue, 503 with Retry-After instead of every sign-in slowing down', async () => {
      const t = await open({ PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '1' });
      // different accounts: the guesses of one account are judged one at a time anyway
      const users = await Promise.all(
        Array.from({ length: 8 }, (_, i) => seedUser(t, { email: `busy${i}@school.test` })),
      );
      const answers = await Promise.all(users.map((u, i) => login(t, `198.51.100.${130 + i}`, u.email)));
      const busy = answers.filter((a) => a.status === 503);
      expect(busy.length).toBeGreaterThan(0);
      expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(2);
      expect(answers.every((a) => a.status === 200 || a.status === 503)).toBe(true);
      for (const a of busy)
        expect(a).toMatchObject({ retryAfter: '2', body: { code: 'serverBusy', msg: messages.serverBusy } });
    });
  });
});

describe('two instances on one database (a district running two behind a load balancer)', () => {
  /**
   * Two instances on one SQLite file and an account four failures from its delay: the next failure
   * starts it, so from then on each guess is counted before it is checked.
   */
  async function twoInstancesNearDelay(email: string) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'fd-two-instances-'));
    const a = await createTestApp('sqlite', { sqliteDir: dataDir, env: { RATE_LIMIT_MULTIPLIER: '1' } });
    const b = await createTestApp('sqlite', { sqliteDir: dataDir, env: { RATE_LIMIT_MULTIPLIER: '1' } });
    const close = async () => {
      await a.close();
      await b.close();
      rmSync(dataDir, { recursive: true, force: true });
    };
    try {
      await seedUser(a, { email });
      for (let i = 0; i < 4; i++)
        expect((await login(a, `198.51.100.${200 + i}`, email, `Guess-${i}-Passw0rd!`)).status).toBe(401);
    } catch (error) {
      await close();
      throw error;
    }
    return { a, b, close };
  }

  it('a burst at an account once it is delayed gets one guess checked in all, not one per instance: the others find its failure and its delay', async () => {
    const email = 'two-instances@school.test';
    const { a, b, close } = await twoInstancesNearDelay(email);
    try {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          login(i % 2 ? b : a, `198.51.100.${210 + i}`, email, `Burst-${i}-Passw0rd!`),
        ),
      );
      expect(answers.filter((answer) => answer.status === 401)).toHaveLength(1);
      expect(answers.filter((answer) => answer.body.code === 'tooManyFailures')).toHaveLength(9);
      expect((await findUserByEmail(a.db, email))?.failed_attempts).toBe(5);
      // once the delay has passed, the right password signs in and resets the account
      a.clock.advance(ABUSE_LIMITS.accountDelayStartMs);
      b.clock.advance(ABUSE_LIMITS.accountDelayStartMs);
      expect((await login(b, '198.51.100.230', email)).status).toBe(200);
      expect((await findUserByEmail(a.db, email))?.failed_attempts).toBe(0);
    } finally {
      await close();
    }
  });

  it('a guess that read the account before another instance counted its failure is refused, not checked: the failure it read past is not written over', async () => {
    const email = 'read-before@school.test';
    const { a, b, close } = await twoInstancesNearDelay(email);
    try {
      const user = await findUserByEmail(a.db, email);
      if (!user) throw new Error('seeded');

      // B's guess reads the account, then waits there until A's guess has been counted and checked:
      // the interleaving one process's SQLite never makes by itself
      const reads = new Set<QueryId>();
      let bHasRead = () => {};
      const bRead = new Promise<void>((resolve) => (bHasRead = resolve));
      let aCounted = () => {};
      const aDone = new Promise<void>((resolve) => (aCounted = resolve));
      const holdAfterRead: KyselyPlugin = {
        transformQuery: ({ node, queryId }) => {
          const from = node.kind === 'SelectQueryNode' ? node.from?.froms[0] : undefined;
          if (from && TableNode.is(from) && from.table.identifier.name === 'users') reads.add(queryId);
          return node;
        },
        transformResult: async ({ result, queryId }) => {
          if (reads.delete(queryId)) {
            bHasRead();
            await aDone;
          }
          return result;
        },
      };
      let checked = false;
      const bGuess = checkGuess(
        { ...b.ctx, db: b.db.withPlugin(holdAfterRead) },
        '198.51.100.220',
        user,
        'password',
        async () => {
          checked = true;
          return null;
        },
        () => 'wrong',
      );
      await bRead;
      expect((await login(a, '198.51.100.221', email, 'Guess-A-Passw0rd!')).status).toBe(401);
      aCounted();
      await expect(bGuess).rejects.toMatchObject({ statusCode: 429, code: 'tooManyFailures' });
      expect(checked).toBe(false);
      expect((await findUserByEmail(a.db, email))?.failed_attempts).toBe(5);
    } finally {
      await close();
    }
  });

  it('a guess counted first and then not evaluated (the hashing queue full), or with nothing to check, takes its failure back', async () => {
    const t = await createTestApp('sqlite', { env: { RATE_LIMIT_MULTIPLIER: '1' } });
    try {
      const email = 'not-evaluated@school.test';
      await seedUser(t, { email });
      for (let i = 0; i < 4; i++)
        expect((await login(t, `198.51.100.${240 + i}`, email, `Guess-${i}-Passw0rd!`)).status).toBe(401);
      const before = await findUserByEmail(t.db, email);
      if (!before) throw new Error('seeded');
      const busy = checkGuess(
        t.ctx,
        '198.51.100.250',
        before,
        'password',
        async () => {
          // the row holds the failure while the guess is under way
          expect((await findUserByEmail(t.db, email))?.failed_attempts).toBe(5);
          throw new Error('the hashing queue is full');
        },
        () => 'wrong',
      );
      await expect(busy).rejects.toThrow('the hashing queue is full');
      expect(await findUserByEmail(t.db, email)).toMatchObject({
        failed_attempts: 4,
        last_failed_at: before.last_failed_at,
      });
      await checkGuess(
        t.ctx,
        '198.51.100.251',
        before,
        'reset',
        async () => null,
        () => 'unchecked',
      );
      expect((await findUserByEmail(t.db, email))?.failed_attempts).toBe(4);
    } finally {
      await t.close();
    }
  });
});

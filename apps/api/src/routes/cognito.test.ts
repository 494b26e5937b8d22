import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ABUSE_LIMITS,
  CODE_MAX_ATTEMPTS,
  NAME_MAX_LENGTH,
  RESEND_COOLDOWN_SECONDS,
  RESET_CODE_TTL_MS,
  SESSION_COOKIE,
  SIGNUP_COOKIE,
  VERIFICATION_CODE_TTL_MS,
  extractEmbeddedMessage,
  messages,
  resetFailureMessage,
  stripParenthesised,
} from '@frontdoor/contract';
import {
  DIALECTS,
  TEST_PASSWORD,
  createTestApp,
  lastMail,
  seedUser,
  signedInClient,
  wrongCode as wrong,
  type ApiClient,
  type TestApp,
} from '../../test/harness.ts';
import { findUserByEmail, verifyPassword } from '../services/users.ts';
import { lockAccount } from '../services/accounts.ts';
import { digest } from '../services/codes.ts';
import { deleteUser } from '../services/user-admin.ts';
import { MAIL_LANGUAGES } from '../mail/render.ts';
import { MailRejectedError } from '../mail/mailer.ts';
import { retryDelayMs } from '../services/outbox.ts';
import { readSession } from '../services/sessions.ts';

const NEW_PASSWORD = 'Brand-New-Passw0rd!';
const signup = (email: string, extra: Record<string, unknown> = {}) => ({
  first: 'Grace',
  last: 'Hopper',
  email,
  pw: TEST_PASSWORD,
  description: 'teacher',
  ...extra,
});
/** The code as a phone set to Arabic types it: ٠١٢٣٤٥٦٧٨٩ (U+0660–U+0669). */
const arabicIndic = (code: string) => code.replace(/\d/g, (d) => String.fromCharCode(0x660 + Number(d)));

describe.each(DIALECTS)('cognito/* on $dialect', ({ dialect, skip }) => {
  let t: TestApp;
  beforeAll(async () => {
    if (!skip) t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());
  /** An invite of `email`, unused, valid for a day. */
  const seedInvite = async (code: string, email: string) => {
    const now = t.clock.now();
    await t.db
      .insertInto('invites')
      .values({ code, email, created_at: now, expires_at: now + 86_400_000, used_at: null })
      .execute();
  };

  describe.skipIf(skip)('cognito/signup', () => {
    it('creates an unconfirmed account (email lowercased) and mails an 8-digit verification code in the browser language', async () => {
      const res = await t.client().post('/api/cognito/signup', signup('New.Teacher@School.test'), {
        'accept-language': 'fr-CA,fr;q=0.9',
      });
      expect(res.json()).toEqual({ status: 'success', payload: { email: 'new.teacher@school.test' } });
      const user = await findUserByEmail(t.db, 'new.teacher@school.test');
      expect(user?.confirmed).toBe(0);
      expect(user?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      const { mail, code } = await lastMail(t, 'new.teacher@school.test');
      expect(mail?.subject).toBe('Vérifiez votre adresse e-mail');
      expect(mail?.text).toContain(
        `http://localhost:8080/validate?em=new.teacher%40school.test&vc=${code}&locale=fr`,
      );
      expect(code).toMatch(/^\d{8}$/);
      // stored hashed, never in clear
      const stored = await t.db
        .selectFrom('email_codes')
        .select('code_hash')
        .where('user_id', '=', user?.id ?? '')
        .execute();
      expect(stored.map((s) => s.code_hash)).not.toContain(code);
    });

    it('refuses an existing address (any case) with 409 and a parenthesised detail the SPA strips', async () => {
      await seedUser(t, { email: 'taken@school.test' });
      const res = await t.client().post('/api/cognito/signup', signup('TAKEN@school.test'));
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('accountExists');
      expect(res.json().msg).toBe(`${messages.accountExists} (UsernameExistsException)`);
      expect(stripParenthesised(res.json().msg)).toBe(messages.accountExists);
    });

    it("the same sign-up sent again from its browser (its answer lost on a failing network) goes on as the first did; anyone else's is refused", async () => {
      const email = 'sent-twice@school.test';
      const browser = t.client();
      const first = await browser.post('/api/cognito/signup', signup(email));
      expect(first.statusCode).toBe(200);
      const again = await browser.post('/api/cognito/signup', signup(email));
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
      // one account, one code mailed (the second within the resend cooldown), and that code confirms it
      const { code } = await lastMail(t, email);
      const mails = await t.db.selectFrom('mailbox').select('id').where('to_address', '=', email).execute();
      expect(mails).toHaveLength(1);
      // another password, or another browser's sign-up cookie, is a different sign-up of a taken address
      const otherDevice = t.client();
      otherDevice.cookies.set(SIGNUP_COOKIE, 'o'.repeat(43));
      for (const [client, body] of [
        [browser, signup(email, { pw: 'Another-Horse-8-Battery' })],
        [otherDevice, signup(email)],
        [t.client(), signup(email, { pw: 'Another-Horse-8-Battery' })],
      ] as const) {
        const refused = await client.post('/api/cognito/signup', body);
        expect(refused.statusCode).toBe(409);
        expect(refused.json().code).toBe('accountExists');
      }
      const confirmed = await browser.post('/api/cognito/confirm', { un: email, code });
      expect(confirmed.json()).toEqual({ status: 'success', payload: { email, newPasswordNeeded: false } });
      expect(await findUserByEmail(t.db, email)).toMatchObject({ confirmed: 1, must_reset: 0 });
      // confirmed, it is taken for the browser that made it too
      expect((await browser.post('/api/cognito/signup', signup(email))).statusCode).toBe(409);
    });

    it('the same sign-up sent again 31 s later mails no new code and the first code confirms', async () => {
      // the SPA gives up after DEFAULT_REQUEST_TIMEOUT_MS (30 s), the resend cooldown: a sign-up sent
      // again after a timeout mailed a second code, which ended the one the person then typed
      const email = 'timed-out@school.test';
      const browser = t.client();
      expect((await browser.post('/api/cognito/signup', signup(email))).statusCode).toBe(200);
      const { code } = await lastMail(t, email);
      t.clock.advance((RESEND_COOLDOWN_SECONDS + 1) * 1000);
      const again = await browser.post('/api/cognito/signup', signup(email));
      expect(again.json()).toEqual({ status: 'success', payload: { email } });
      expect((await lastMail(t, email)).code).toBe(code);
      const mails = await t.db.selectFrom('mailbox').select('id').where('to_address', '=', email).execute();
      expect(mails).toHaveLength(1);
      const confirmed = await browser.post('/api/cognito/confirm', { un: email, code });
      expect(confirmed.json()).toEqual({ status: 'success', payload: { email, newPasswordNeeded: false } });
    });

    it('the same sign-up sent again once its code is dead (expired) mails a new one; while it is live, the resend does', async () => {
      const email = 'code-gone@school.test';
      const browser = t.client();
      expect((await browser.post('/api/cognito/signup', signup(email))).statusCode).toBe(200);
      const first = (await lastMail(t, email)).code;
      t.clock.advance(RESEND_COOLDOWN_SECONDS * 1000);
      // the code page's resend is the way to a new code while the first is live
      const resent = await browser.get(`/api/cognito/resend_verification/${encodeURIComponent(email)}`);
      expect(resent.json()).toEqual({ status: 'success', payload: 'verify_email' });
      const second = (await lastMail(t, email)).code;
      expect(second).not.toBe(first);
      t.clock.advance(VERIFICATION_CODE_TTL_MS);
      expect((await browser.post('/api/cognito/signup', signup(email))).statusCode).toBe(200);
      const third = (await lastMail(t, email)).code;
      const mails = await t.db.selectFrom('mailbox').select('id').where('to_address', '=', email).execute();
      expect(mails).toHaveLength(3);
      expect((await browser.post('/api/cognito/confirm', { un: email, code: third })).statusCode).toBe(200);
    });

    it("the same sign-up sent twice at the same moment (a double tap, a retry at once) answers both as the retry after it would; another browser's is refused", async () => {
      await seedInvite('inv-twice', 'invited-twice@school.test');
      for (const [email, extra] of [
        ['tapped-twice@school.test', {}],
        // the invite's single use, not the address, is what the second one loses on
        ['invited-twice@school.test', { code: 'inv-twice' }],
      ] as const) {
        const browser = t.client();
        await browser.get('/api/auth/sig');
        // both look for the account before either has made it: the second loses at the insert
        const answers = await Promise.all(
          [1, 2].map(() => browser.post('/api/cognito/signup', signup(email, extra))),
        );
        expect(answers.map((res) => res.json())).toEqual([
          { status: 'success', payload: { email } },
          { status: 'success', payload: { email } },
        ]);
        const { code } = await lastMail(t, email);
        expect((await browser.post('/api/cognito/confirm', { un: email, code })).statusCode).toBe(200);
        expect(await findUserByEmail(t.db, email)).toMatchObject({ confirmed: 1, must_reset: 0 });
      }
      // someone else's sign-up of the address (another password) at the same moment is still refused
      const [mine, theirs] = [t.client(), t.client()];
      for (const client of [mine, theirs]) await client.get('/api/auth/sig');
      const answers = await Promise.all([
        mine.post('/api/cognito/signup', signup('raced@school.test')),
        theirs.post('/api/cognito/signup', signup('raced@school.test', { pw: 'Another-Horse-8-Battery' })),
      ]);
      expect(answers.map((res) => res.json().code ?? res.json().status).sort()).toEqual([
        'accountExists',
        'success',
      ]);
    });

    it("a browser's first sign-up whose answer was lost, its sign-up cookie with it: sent again, it goes on, and its code confirms the account there", async () => {
      const email = 'first-answer-lost@school.test';
      const browser = t.client();
      expect((await browser.post('/api/cognito/signup', signup(email))).statusCode).toBe(200);
      // the answer never reached the browser: no sign-up cookie (its CSRF cookie came before)
      browser.cookies.delete(SIGNUP_COOKIE);
      const again = await browser.post('/api/cognito/signup', signup(email));
      expect(again.statusCode).toBe(200);
      expect(again.json().payload).toEqual({ email });
      // the account is bound to the cookie this answer gave: it alone confirms with the password kept
      expect(browser.cookies.get(SIGNUP_COOKIE)).toMatch(/^[\w-]{43}$/);
      const { code } = await lastMail(t, email);
      expect((await browser.post('/api/cognito/confirm', { un: email, code })).statusCode).toBe(200);
      // confirmed by the browser that chose the password: no reset asked of its owner
      expect(await findUserByEmail(t.db, email)).toMatchObject({ confirmed: 1, must_reset: 0 });
    });

    it('an unconfirmed account is checked against a password 10 times an hour at most (a sign-up sent again, a sign-in before its code)', async () => {
      const email = 'asked-again@school.test';
      const browser = t.client();
      expect((await browser.post('/api/cognito/signup', signup(email))).statusCode).toBe(200);
      // each of these was an argon2 hash that no failure counted, as often as anyone asked
      for (let i = 0; i < ABUSE_LIMITS.unconfirmedPasswordChecksPerHour; i++)
        expect((await browser.post('/api/cognito/signup', signup(email))).statusCode).toBe(200);
      // past them, no hash: the same sign-up is refused as any other of a taken address, and a
      // sign-in is sent to its code whatever its password
      expect((await browser.post('/api/cognito/signup', signup(email))).statusCode).toBe(409);
      const wrong = await browser.post('/api/cognito/login', { email, password: 'Wrong-Horse-8-Battery' });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json().code).toBe('userNotConfirmed');
      t.clock.advance(60 * 60 * 1000);
      expect((await browser.post('/api/cognito/signup', signup(email))).statusCode).toBe(200);
    });

    it('takes a look-alike of a taken address (another domain spelling of its inbox) as that address: one account, one mail', async () => {
      const email = 'look-alike@school.test';
      const browser = t.client();
      const first = await browser.post('/api/cognito/signup', signup(email));
      expect(first.json()).toEqual({ status: 'success', payload: { email } });
      // each of these was an account of its own, with a mail limit of its own, all mailing look-alike@school.test
      const lookAlikes = [
        'look-alike@ｓchool.test', // a full-width s
        'look-alike@school\uFE00.test', // a variation selector, and any run of them
        'look-alike@school\uFE00\uFE01.test',
        'look-alike@sch\u034Fool.test', // the combining grapheme joiner
        'look-alike@ſchool.test', // the long s
        'look-alike@school.ｔest',
      ];
      // anyone else's sign-up of it: the address is taken
      for (const lookAlike of lookAlikes) {
        const other = await t
          .client()
          .post('/api/cognito/signup', signup(lookAlike, { pw: 'Another-Horse-8-Battery' }));
        expect(other.statusCode, lookAlike).toBe(409);
        expect(other.json().code).toBe('accountExists');
      }
      // from the browser that signed up, the same sign-up sent again: answered as the first was
      const again = await browser.post('/api/cognito/signup', signup('Look-Alike@ＳＣＨＯＯＬ.test'));
      expect(again.json()).toEqual(first.json());
      const accounts = await t.db
        .selectFrom('users')
        .select('email')
        .where('email', 'like', 'look-alike@%')
        .execute();
      expect(accounts).toEqual([{ email }]);
      expect((await lastMail(t, email)).code).toMatch(/^\d{8}$/);
      const mails = await t.db
        .selectFrom('mailbox')
        .select('to_address')
        .where('to_address', 'like', 'look-alike@%')
        .execute();
      expect(mails).toEqual([{ to_address: email }]);
    });

    it.each([
      [{ first: '' }, messages.firstNameRequired],
      [{ last: '  ' }, messages.lastNameRequired],
      [{ first: 'A'.repeat(NAME_MAX_LENGTH + 1) }, messages.firstNameTooLong],
      [{ last: 'L'.repeat(NAME_MAX_LENGTH + 1) }, messages.lastNameTooLong],
      [{ email: 'nope' }, messages.emailInvalidSignup],
      // each a separate account once, all mailing victim@school.test (nodemailer read the address in it)
      [{ email: 'victim@school.test>' }, messages.emailInvalidSignup],
      [{ email: 'a<victim@school.test>' }, messages.emailInvalidSignup],
      [{ email: 'a,victim@school.test' }, messages.emailInvalidSignup],
      // an xn-- label that decodes to nothing (a browser's email field refuses it too)
      [{ email: 'victim@xn--zz.test' }, messages.emailInvalidSignup],
      [{ pw: 'short' }, messages.passwordPolicy],
      [{ pw: 'alllowercase-and-long1' }, messages.passwordPolicy],
      [{ description: 'astronaut' }, messages.descriptionRequired],
    ])('refuses %o with the contract rule message', async (change, msg) => {
      const res = await t.client().post('/api/cognito/signup', signup('rules@school.test', change));
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe(msg);
      expect(await findUserByEmail(t.db, 'rules@school.test')).toBeUndefined();
    });

    it('keeps typed names without line breaks or bidi controls, which wrote lines into a mail and reversed its greeting', async () => {
      const email = 'names@school.test';
      const first = 'Ana\r\n\r\nYour password reset code is: 000000';
      const res = await t.client().post('/api/cognito/signup', signup(email, { first, last: '\u202eaviS' }));
      expect(res.statusCode).toBe(200);
      expect(await findUserByEmail(t.db, email)).toMatchObject({
        first: 'Ana Your password reset code is: 000000',
        last: 'aviS',
      });
    });

    it('uses an invite once, only for its own address', async () => {
      await seedInvite('inv-1', 'invited@school.test');
      const other = await t
        .client()
        .post('/api/cognito/signup', signup('someone-else@school.test', { code: 'inv-1' }));
      expect(other.statusCode).toBe(400);
      expect(other.json().code).toBe('inviteNotFound');
      // the failed invite sign-up left no half account behind
      expect(await findUserByEmail(t.db, 'someone-else@school.test')).toBeUndefined();
      expect(
        (await t.client().post('/api/cognito/signup', signup('invited@school.test', { code: 'inv-1' })))
          .statusCode,
      ).toBe(200);
      const invite = await t.db
        .selectFrom('invites')
        .select('used_at')
        .where('code', '=', 'inv-1')
        .executeTakeFirstOrThrow();
      expect(invite.used_at).toBe(t.clock.now());
      const reuse = await t
        .client()
        .post('/api/cognito/signup', signup('invited2@school.test', { code: 'inv-1' }));
      expect(reuse.json().code).toBe('inviteNotFound');
    });
  });

  describe.skipIf(skip)('cognito/confirm', () => {
    it('confirms with the mailed code, once', async () => {
      await t.client().post('/api/cognito/signup', signup('confirm@school.test'));
      const { code } = await lastMail(t, 'confirm@school.test');
      const res = await t.client().post('/api/cognito/confirm', { un: 'Confirm@School.test', code });
      expect(res.json()).toEqual({
        status: 'success',
        payload: { email: 'confirm@school.test', newPasswordNeeded: true },
      });
      expect((await findUserByEmail(t.db, 'confirm@school.test'))?.confirmed).toBe(1);
      const again = await t.client().post('/api/cognito/confirm', { un: 'confirm@school.test', code });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({
        status: 'error',
        msg: messages.userAlreadyConfirmed,
        code: 'userAlreadyConfirmed',
      });
    });

    it('the same code sent twice at once (a double tap, a retry) confirms once; the other answers as a retry after it would', async () => {
      await t.client().post('/api/cognito/signup', signup('double-tap@school.test'));
      const { code } = await lastMail(t, 'double-tap@school.test');
      const answers = await Promise.all(
        [1, 2, 3].map(() => t.client().post('/api/cognito/confirm', { un: 'double-tap@school.test', code })),
      );
      expect(answers.map((a) => a.json().code ?? a.json().status).sort()).toEqual([
        'success',
        'userAlreadyConfirmed',
        'userAlreadyConfirmed',
      ]);
    });

    it("keeps the password only when the code comes back to the browser that chose it: a stranger's early sign-up with a child's address never signs in", async () => {
      const stranger = t.client();
      await stranger.post('/api/cognito/signup', signup('child@school.test', { first: 'Chosen' }));
      expect(stranger.cookies.get(SIGNUP_COOKIE)).toMatch(/^[\w-]{43}$/);
      const { code } = await lastMail(t, 'child@school.test');
      // the child, on their own device, confirms the address they were mailed a code at
      const child = t.client();
      const confirmed = await child.post('/api/cognito/confirm', { un: 'child@school.test', code });
      expect(confirmed.statusCode).toBe(200);
      // the page tells the child that a new password is chosen at sign-in
      expect(confirmed.json().payload).toEqual({ email: 'child@school.test', newPasswordNeeded: true });
      expect(await findUserByEmail(t.db, 'child@school.test')).toMatchObject({
        confirmed: 1,
        must_reset: 1,
        signup_browser: null,
      });
      const status = await child.post('/api/auth/validateEmail', { email: 'child@school.test' });
      expect(status.json().payload).toBe('reset-password');
      // the stranger's password opens nothing: the sign-in goes to a reset, whose code the child gets
      const login = await stranger.post('/api/cognito/login', {
        email: 'child@school.test',
        password: TEST_PASSWORD,
      });
      expect(login.json()).toMatchObject({ msg: messages.passwordResetRequired });
      expect(stranger.cookies.get(SESSION_COOKIE)).toBeUndefined();
      const audited = await t.db
        .selectFrom('audit_log')
        .select(['event', 'user_id'])
        .where('event', '=', 'account.confirmed-elsewhere')
        .execute();
      const childId = (await findUserByEmail(t.db, 'child@school.test'))?.id;
      expect(audited.filter((entry) => entry.user_id === childId)).toHaveLength(1);
    });

    it("where cookies are Secure, the browser's sign-up cookie is __Host- (no sibling subdomain plants one) and lives 30 days", async () => {
      const secure = await createTestApp(dialect, { env: { PUBLIC_URL: 'https://portal.school.test' } });
      try {
        const stranger = secure.client();
        // a value planted by a sibling subdomain under the plain name, in both browsers
        stranger.cookies.set(SIGNUP_COOKIE, 'p'.repeat(43));
        const up = await stranger.post('/api/cognito/signup', signup('planted@school.test'));
        expect(String(up.headers['set-cookie'])).toMatch(
          /^__Host-fd_signup=[\w-]{43}; Max-Age=2592000; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
        );
        expect(stranger.cookies.get(`__Host-${SIGNUP_COOKIE}`)).not.toBe('p'.repeat(43));
        const { code } = await lastMail(secure, 'planted@school.test');
        const child = secure.client();
        child.cookies.set(SIGNUP_COOKIE, 'p'.repeat(43));
        await child.post('/api/cognito/confirm', { un: 'planted@school.test', code });
        expect(await findUserByEmail(secure.db, 'planted@school.test')).toMatchObject({ must_reset: 1 });
      } finally {
        await secure.close();
      }
    });

    it("greets by name only a proven account: a stranger's sign-up puts no words of theirs into the mails to the address", async () => {
      const words = 'Visit evil.example now';
      await t.client().post('/api/cognito/signup', signup('greeted@school.test', { first: words }));
      await t.client().post('/api/cognito/sendreset', { un: 'greeted@school.test' });
      await t.ctx.outbox.drain();
      const mails = await t.db
        .selectFrom('mailbox')
        .select('text')
        .where('to_address', '=', 'greeted@school.test')
        .execute();
      expect(mails.map((m) => m.text.split('\n')[0])).toEqual(['Hello,', 'Hello,']);
      expect(mails.map((m) => m.text).join('')).not.toContain('evil.example');
      // the owner's own account, proven: greeted by name
      await seedUser(t, { email: 'proven@school.test', first: 'Ada' });
      await t.client().post('/api/cognito/sendreset', { un: 'proven@school.test' });
      expect((await lastMail(t, 'proven@school.test')).mail?.text.split('\n')[0]).toBe('Hello Ada,');
    });

    it("a stranger's names never greet, even once the owner has proven the address in another browser and chosen a password", async () => {
      const words = 'Visit evil.example now';
      const greeting = async (email: string) => {
        t.clock.advance(RESEND_COOLDOWN_SECONDS * 1000);
        await t.client().post('/api/cognito/sendreset', { un: email });
        return (await lastMail(t, email)).mail?.text.split('\n')[0];
      };
      const resetIn = async (browser: ApiClient, email: string) => {
        t.clock.advance(RESEND_COOLDOWN_SECONDS * 1000);
        await browser.post('/api/cognito/sendreset', { un: email });
        const { code } = await lastMail(t, email);
        const pw = 'Owner-Chose-This-42';
        expect(
          (await browser.post('/api/cognito/reset', { un: email, code, pw, confirmPw: pw })).statusCode,
        ).toBe(200);
      };

      // the owner confirms with the mailed code in their own browser, then chooses a password
      await t.client().post('/api/cognito/signup', signup('confirmed-away@school.test', { first: words }));
      const owner = t.client();
      const { code } = await lastMail(t, 'confirmed-away@school.test');
      expect(
        (await owner.post('/api/cognito/confirm', { un: 'confirmed-away@school.test', code })).statusCode,
      ).toBe(200);
      await resetIn(owner, 'confirmed-away@school.test');
      // the owner asks for a reset of a sign-up they never confirmed
      await t.client().post('/api/cognito/signup', signup('reset-away@school.test', { first: words }));
      await resetIn(t.client(), 'reset-away@school.test');
      for (const email of ['confirmed-away@school.test', 'reset-away@school.test']) {
        const user = await findUserByEmail(t.db, email);
        expect(user).toMatchObject({ confirmed: 1, must_reset: 0, names_proven: 0 });
        expect(await greeting(email)).toBe('Hello,');
        // an operator finds these accounts (for user rename) by their audit event
        const events = await t.db
          .selectFrom('audit_log')
          .select('event')
          .where('user_id', '=', user?.id ?? '')
          .where('event', '=', 'account.confirmed-elsewhere')
          .execute();
        expect(events).toHaveLength(1);
      }

      // a reset in the browser that signed up proves its names like its code would
      const device = t.client();
      await device.post('/api/cognito/signup', signup('reset-here@school.test', { first: 'Ada' }));
      await resetIn(device, 'reset-here@school.test');
      expect(await greeting('reset-here@school.test')).toBe('Hello Ada,');
    });

    it('a shared classroom device confirms each account signed up on it, their passwords kept', async () => {
      const device = t.client();
      await device.post('/api/cognito/signup', signup('first-on-device@school.test'));
      await device.post('/api/cognito/signup', signup('second-on-device@school.test'));
      for (const email of ['first-on-device@school.test', 'second-on-device@school.test']) {
        const { code } = await lastMail(t, email);
        expect((await device.post('/api/cognito/confirm', { un: email, code })).statusCode).toBe(200);
        expect(await findUserByEmail(t.db, email)).toMatchObject({ confirmed: 1, must_reset: 0 });
        const login = await t.client().post('/api/cognito/login', { email, password: TEST_PASSWORD });
        expect(login.statusCode).toBe(200);
        expect(login.json().msg).toBeUndefined();
      }
    });

    it('refuses a wrong code, then stops after CODE_MAX_ATTEMPTS guesses until a new code is mailed', async () => {
      await t.client().post('/api/cognito/signup', signup('guesser@school.test'));
      const { code = '' } = await lastMail(t, 'guesser@school.test');
      const guess = (guessed: string) =>
        t.client().post('/api/cognito/confirm', { un: 'guesser@school.test', code: guessed });
      for (let i = 1; i < CODE_MAX_ATTEMPTS; i++) {
        const res = await guess(wrong(code));
        expect(res.statusCode).toBe(400);
        expect(res.json().msg).toBe(messages.invalidVerificationCode);
      }
      // the guess that uses up the last try says so at once: no sixth guess is needed to learn it
      const last = await guess(wrong(code));
      expect(last.statusCode).toBe(429);
      expect(last.json().code).toBe('attemptLimit');
      expect(last.headers['retry-after']).toBe(String(RESEND_COOLDOWN_SECONDS));
      // the fifth failure also starts the account's delay (services/limits.test.ts)
      t.clock.advance(ABUSE_LIMITS.accountDelayStartMs);
      const locked = await t.client().post('/api/cognito/confirm', { un: 'guesser@school.test', code });
      expect(locked.statusCode).toBe(429);
      expect(locked.json().msg).toBe(messages.attemptLimit);
      // the code is dead: Retry-After says when a new one may be mailed (the resend cooldown's rest)
      const wait = RESEND_COOLDOWN_SECONDS - ABUSE_LIMITS.accountDelayStartMs / 1000;
      expect(locked.headers['retry-after']).toBe(String(wait));
      t.clock.advance(wait * 1000);
      expect((await t.client().get('/api/cognito/resend_verification/guesser@school.test')).statusCode).toBe(
        200,
      );
      const fresh = await lastMail(t, 'guesser@school.test');
      const confirmed = await t
        .client()
        .post('/api/cognito/confirm', { un: 'guesser@school.test', code: fresh.code });
      expect(confirmed.statusCode).toBe(200);
    });

    it('refuses an expired code and a superseded one', async () => {
      await t.client().post('/api/cognito/signup', signup('slow@school.test'));
      const { code } = await lastMail(t, 'slow@school.test');
      t.clock.advance(VERIFICATION_CODE_TTL_MS);
      const res = await t.client().post('/api/cognito/confirm', { un: 'slow@school.test', code });
      expect(res.json()).toEqual({ status: 'error', msg: messages.expiredCode, code: 'expiredCode' });
      await t.client().get('/api/cognito/resend_verification/slow@school.test');
      const fresh = await lastMail(t, 'slow@school.test');
      if (fresh.code !== code)
        expect(
          (await t.client().post('/api/cognito/confirm', { un: 'slow@school.test', code })).statusCode,
        ).toBe(400);
      expect(
        (await t.client().post('/api/cognito/confirm', { un: 'slow@school.test', code: fresh.code }))
          .statusCode,
      ).toBe(200);
    });

    it('takes the code in Arabic-Indic digits, as a phone set to Arabic types it', async () => {
      await t.client().post('/api/cognito/signup', signup('arabic@school.test'));
      const { code = '' } = await lastMail(t, 'arabic@school.test');
      const res = await t
        .client()
        .post('/api/cognito/confirm', { un: 'arabic@school.test', code: arabicIndic(code) });
      expect(res.json()).toEqual({
        status: 'success',
        payload: { email: 'arabic@school.test', newPasswordNeeded: true },
      });
    });

    it('a 6-digit code mailed before codes became 8 digits confirms until it expires; a 6-digit guess never matches a new code, and 7 or 9 digits are malformed', async () => {
      const email = 'mailed-before@school.test';
      const browser = t.client();
      await browser.post('/api/cognito/signup', signup(email));
      const { code = '' } = await lastMail(t, email);
      const confirm = (typed: string) => browser.post('/api/cognito/confirm', { un: email, code: typed });
      expect((await confirm(code.slice(0, 6))).json().code).toBe('invalidVerificationCode');
      for (const malformed of [code.slice(0, 7), `${code}1`]) {
        const res = await confirm(malformed);
        expect(res.statusCode, malformed).toBe(400);
        expect(res.json().msg).toBe(messages.codeRequired);
      }
      // the live code as a release before the upgrade mailed it
      const user = await findUserByEmail(t.db, email);
      await t.db
        .updateTable('email_codes')
        .set({ code_hash: digest(t.ctx.config.secret, user?.id ?? '', 'verify', '042424') })
        .where('user_id', '=', user?.id ?? '')
        .where('consumed_at', 'is', null)
        .execute();
      expect((await confirm('042424')).statusCode).toBe(200);
    });

    it('answers an unknown address like a wrong code, and a malformed code with the rule message', async () => {
      const res = await t
        .client()
        .post('/api/cognito/confirm', { un: 'ghost@school.test', code: '12345678' });
      expect(res.json().code).toBe('invalidVerificationCode');
      const bad = await t.client().post('/api/cognito/confirm', { un: 'ghost@school.test', code: '12ab' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().msg).toBe(messages.codeRequired);
    });
  });

  describe.skipIf(skip)('cognito/resend_verification', () => {
    it('sends a verification code to an unconfirmed account: verify_email', async () => {
      await seedUser(t, { email: 'resend-unconfirmed@school.test', confirmed: false });
      const res = await t.client().get('/api/cognito/resend_verification/resend-unconfirmed%40school.test');
      expect(res.json()).toEqual({ status: 'success', payload: 'verify_email' });
      expect((await lastMail(t, 'resend-unconfirmed@school.test')).mail?.subject).toBe(
        'Verify your email address',
      );
    });

    it('sends a reset code to an account without a password: password_reset', async () => {
      await seedUser(t, { email: 'resend-verify@school.test', password: null });
      const res = await t.client().get('/api/cognito/resend_verification/resend-verify@school.test');
      expect(res.json()).toEqual({ status: 'success', payload: 'password_reset' });
      const { mail, code } = await lastMail(t, 'resend-verify@school.test');
      // the code is typed at /forgot-password: a link holding it would stay in a shared device's history
      expect(mail?.text).toContain('/forgot-password?email=resend-verify%40school.test');
      expect(mail?.text).toContain(String(code));
      expect(mail?.text).not.toContain(`code=${code}`);
    });

    it('a mistyped address the mail server refused for good: the resend says so (409 mailRejected) instead of mailing another code, and tries again after 15 min', async () => {
      const sent: string[] = [];
      const refusing = await createTestApp(dialect, {
        mailer: {
          send: async (message) => {
            sent.push(message.to);
            throw new MailRejectedError('550 5.1.1 <typo@school.test>: no such user');
          },
          close: async () => undefined,
        },
      });
      try {
        expect(
          (await refusing.client().post('/api/cognito/signup', signup('typo@school.test'))).statusCode,
        ).toBe(200);
        await refusing.ctx.outbox.drain();
        expect(sent).toEqual(['typo@school.test']);
        refusing.clock.advance(RESEND_COOLDOWN_SECONDS * 1000);
        const res = await refusing.client().get('/api/cognito/resend_verification/typo@school.test');
        expect(res.statusCode).toBe(409);
        expect(res.json()).toMatchObject({
          status: 'error',
          code: 'mailRejected',
          msg: messages.mailRejected,
        });
        // a relay that refused every mail for a while locks nobody out once it is mended
        refusing.clock.advance(15 * 60_000);
        const later = await refusing.client().get('/api/cognito/resend_verification/typo@school.test');
        expect(later.json()).toEqual({ status: 'success', payload: 'verify_email' });
      } finally {
        await refusing.close();
      }
    });

    it('a code whose mail is still being retried (the relay down): the resend says it is delayed (409 mailDelayed), issues no code and tries the mail now, until the mail goes', async () => {
      let relayDown = true;
      const delayed = await createTestApp(dialect, {
        mailer: {
          send: async () => {
            if (relayDown) throw new Error('EENVELOPE at MAIL FROM: 451 4.3.0 Temporary failure');
          },
          close: async () => undefined,
        },
      });
      const codes = () => delayed.db.selectFrom('email_codes').select('id').execute();
      try {
        expect(
          (await delayed.client().post('/api/cognito/signup', signup('slow-relay@school.test'))).statusCode,
        ).toBe(200);
        expect(await delayed.ctx.outbox.drain()).toBe(0);
        const resend = () => delayed.client().get('/api/cognito/resend_verification/slow-relay@school.test');
        const attempts = async () =>
          (await delayed.db.selectFrom('outbox').select('attempts').executeTakeFirstOrThrow()).attempts;
        // the mail's retries have grown far apart (7 failed tries, the next 32 min away)
        for (let i = 1; i < 7; i++) {
          delayed.clock.advance(retryDelayMs(i));
          expect(await delayed.ctx.outbox.drain()).toBe(0);
        }
        expect(await attempts()).toBe(7);
        // resend after resend, past the account's hourly codes: each says the mail is delayed, none issues a
        // code; each tries the mail again now, a try that counts against no attempt limit
        for (let i = 0; i < 6; i++) {
          delayed.clock.advance(RESEND_COOLDOWN_SECONDS * 1000);
          const res = await resend();
          expect(res.statusCode).toBe(409);
          // with the code on its way, so the page offers where to type it
          expect(res.json()).toEqual({
            status: 'error',
            code: 'mailDelayed',
            msg: messages.mailDelayed,
            pending: 'verify_email',
          });
          expect(await delayed.ctx.outbox.drain()).toBe(0);
        }
        expect(await attempts()).toBe(7);
        expect(await codes()).toHaveLength(1);
        // a resend right after a try does not try again
        expect((await resend()).statusCode).toBe(409);
        expect(await delayed.ctx.outbox.drain()).toBe(0);
        // the relay is back: a resend sends the first code now, not after the retry delay
        relayDown = false;
        delayed.clock.advance(RESEND_COOLDOWN_SECONDS * 1000);
        expect((await resend()).json().code).toBe('mailDelayed');
        expect(await delayed.ctx.outbox.drain()).toBe(1);
        // and a resend mails a new one again
        expect((await resend()).json()).toEqual({ status: 'success', payload: 'verify_email' });
        expect(await codes()).toHaveLength(2);
      } finally {
        await delayed.close();
      }
    });

    it('a confirmed account whose last mail (a lock mail) was refused answers 409 userAlreadyConfirmed, not mailRejected', async () => {
      const user = await seedUser(t, { email: 'resend-confirmed-refused@school.test' });
      const now = t.clock.now();
      await t.db
        .insertInto('outbox')
        .values({
          kind: 'mail',
          user_id: user.id,
          payload: null,
          attempts: 1,
          next_attempt_at: null,
          created_at: now,
          rejected_at: now,
          last_error: '550 5.1.1 no such user',
        })
        .execute();
      const res = await t
        .client()
        .get('/api/cognito/resend_verification/resend-confirmed-refused@school.test');
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('userAlreadyConfirmed');
    });

    it("refuses a second resend inside the cooldown (its own code, not the flood guard's) with the rest of it as Retry-After, allows it after", async () => {
      await seedUser(t, { email: 'resend-twice@school.test', confirmed: false });
      await t.client().get('/api/cognito/resend_verification/resend-twice@school.test');
      t.clock.advance(10_000);
      const soon = await t.client().get('/api/cognito/resend_verification/resend-twice@school.test');
      expect(soon.statusCode).toBe(429);
      expect(soon.json()).toEqual({
        status: 'error',
        code: 'resendCooldown',
        msg: messages.resendCooldown,
        pending: 'verify_email',
      });
      expect(soon.headers['retry-after']).toBe(String(RESEND_COOLDOWN_SECONDS - 10));
      t.clock.advance((RESEND_COOLDOWN_SECONDS - 10) * 1000);
      expect(
        (await t.client().get('/api/cognito/resend_verification/resend-twice@school.test')).statusCode,
      ).toBe(200);
      // an account with no password yet is mailed a reset code: the refusal names that one
      await seedUser(t, { email: 'resend-no-password@school.test', password: null });
      await t.client().get('/api/cognito/resend_verification/resend-no-password@school.test');
      const again = await t.client().get('/api/cognito/resend_verification/resend-no-password@school.test');
      expect(again.json()).toMatchObject({ code: 'resendCooldown', pending: 'password_reset' });
    });

    it('a burst of resends sent at once (from several addresses) mails one code: each request sees the codes issued before it', async () => {
      const user = await seedUser(t, { email: 'resend-burst@school.test', confirmed: false });
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.app.inject({
            url: '/api/cognito/resend_verification/resend-burst@school.test',
            remoteAddress: `198.51.100.${i + 1}`,
          }),
        ),
      );
      expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(1);
      expect(answers.filter((res) => res.json().code === 'resendCooldown')).toHaveLength(19);
      const codes = await t.db
        .selectFrom('email_codes')
        .select('id')
        .where('user_id', '=', user.id)
        .execute();
      expect(codes).toHaveLength(1);
    });

    it('a resend whose account is confirmed after it was read mails no verification code: it answers as a resend after the confirmation would', async () => {
      /** Runs `meanwhile` between the resend's read of the account and its transaction (mailCode's). */
      const resendWhile = async (email: string, meanwhile: () => Promise<unknown>) => {
        const transaction = t.ctx.db.transaction.bind(t.ctx.db);
        const spy = vi.spyOn(t.ctx.db, 'transaction').mockImplementationOnce(() => {
          const builder = transaction();
          const execute = builder.execute.bind(builder);
          builder.execute = async (work) => {
            await meanwhile();
            return execute(work);
          };
          return builder;
        });
        try {
          return await t.client().get(`/api/cognito/resend_verification/${email}`);
        } finally {
          spy.mockRestore();
        }
      };
      const verifyMails = async (email: string) => {
        await t.ctx.outbox.drain();
        const mails = await t.db
          .selectFrom('mailbox')
          .select('subject')
          .where('to_address', '=', email)
          .execute();
        return mails.filter((mail) => mail.subject === 'Verify your email address').length;
      };

      // confirmed in the browser that signed up: 409 as for any confirmed account, no second code
      const browser = t.client();
      await browser.post('/api/cognito/signup', signup('confirmed-meanwhile@school.test'));
      const { code } = await lastMail(t, 'confirmed-meanwhile@school.test');
      t.clock.advance(RESEND_COOLDOWN_SECONDS * 1000);
      let confirmed;
      const resend = await resendWhile('confirmed-meanwhile@school.test', async () => {
        confirmed = await browser.post('/api/cognito/confirm', {
          un: 'confirmed-meanwhile@school.test',
          code,
        });
      });
      expect(confirmed).toMatchObject({ statusCode: 200 });
      expect(resend.statusCode).toBe(409);
      expect(resend.json().code).toBe('userAlreadyConfirmed');
      expect(await verifyMails('confirmed-meanwhile@school.test')).toBe(1);

      // confirmed in another browser, so it must reset its password: the resend mails a reset code
      await t.client().post('/api/cognito/signup', signup('elsewhere-meanwhile@school.test'));
      const mailed = await lastMail(t, 'elsewhere-meanwhile@school.test');
      t.clock.advance(RESEND_COOLDOWN_SECONDS * 1000);
      const reset = await resendWhile('elsewhere-meanwhile@school.test', () =>
        t.client().post('/api/cognito/confirm', { un: 'elsewhere-meanwhile@school.test', code: mailed.code }),
      );
      expect(reset.json()).toEqual({ status: 'success', payload: 'password_reset' });
      expect((await lastMail(t, 'elsewhere-meanwhile@school.test')).mail?.subject).not.toBe(
        'Verify your email address',
      );
      expect(await verifyMails('elsewhere-meanwhile@school.test')).toBe(1);
    });

    it("a confirmation waits for the account's code request in progress (on PostgreSQL too, where transactions run side by side)", async () => {
      const email = 'held-account@school.test';
      await t.client().post('/api/cognito/signup', signup(email));
      const { code } = await lastMail(t, email);
      const user = await findUserByEmail(t.db, email);
      let confirming: Promise<unknown> | undefined;
      // a resend holding the account, between its read of it and its code
      await t.db.transaction().execute(async (trx) => {
        await lockAccount(trx, user?.id ?? '');
        confirming = t.client().post('/api/cognito/confirm', { un: email, code });
        const first = await Promise.race([
          confirming.then(() => 'confirmed'),
          new Promise((resolve) => setTimeout(() => resolve('waiting'), 300)),
        ]);
        expect(first).toBe('waiting');
      });
      expect(await confirming).toMatchObject({ statusCode: 200 });
    });

    it("an account's deletion waits for its code request in progress too (the cascade would lock in the other order)", async () => {
      const user = await seedUser(t, { email: 'deleted-while-held@school.test', confirmed: false });
      let deleting: Promise<boolean> | undefined;
      await t.db.transaction().execute(async (trx) => {
        await lockAccount(trx, user.id);
        deleting = deleteUser(t.ctx, user);
        const first = await Promise.race([
          deleting.then(() => 'deleted'),
          new Promise((resolve) => setTimeout(() => resolve('waiting'), 300)),
        ]);
        expect(first).toBe('waiting');
      });
      expect(await deleting).toBe(true);
    });

    it('answers 404 for an unknown address, 409 for a confirmed one, 400 for a bad one', async () => {
      expect((await t.client().get('/api/cognito/resend_verification/nobody@school.test')).statusCode).toBe(
        404,
      );
      await seedUser(t, { email: 'resend-done@school.test' });
      const done = await t.client().get('/api/cognito/resend_verification/resend-done@school.test');
      expect(done.statusCode).toBe(409);
      expect(done.json().code).toBe('userAlreadyConfirmed');
      expect((await t.client().get('/api/cognito/resend_verification/not-an-email')).statusCode).toBe(400);
    });
  });

  describe.skipIf(skip)('cognito/sendreset and cognito/reset', () => {
    it('answers the same for known and unknown addresses; mails only the known one', async () => {
      await seedUser(t, { email: 'forgetful@school.test', language: 'es' });
      const known = await t.client().post('/api/cognito/sendreset', { un: 'forgetful@school.test' });
      const unknown = await t.client().post('/api/cognito/sendreset', { un: 'stranger@school.test' });
      expect(known.statusCode).toBe(200);
      expect(unknown.json()).toEqual(known.json());
      expect((await lastMail(t, 'forgetful@school.test')).mail?.subject).toBe('Restablece tu contraseña');
      expect((await lastMail(t, 'stranger@school.test')).mail).toBeUndefined();
      expect((await t.client().post('/api/cognito/sendreset', { un: 'bad' })).statusCode).toBe(400);
    });

    it("writes a code mail in the request's language (the SPA's), its link opening the portal in it", async () => {
      await seedUser(t, { email: 'lingua@school.test', language: 'es' });
      await t
        .client()
        .post('/api/cognito/sendreset', { un: 'lingua@school.test' }, { 'accept-language': 'pt-BR' });
      const reset = await lastMail(t, 'lingua@school.test');
      expect(reset.mail?.subject).toBe(MAIL_LANGUAGES.pt.reset.subject);
      expect(reset.mail?.text).toContain('/forgot-password?email=lingua%40school.test&locale=pt');
      // a language without mails: the account's
      t.clock.advance(RESEND_COOLDOWN_SECONDS * 1000);
      await t
        .client()
        .post('/api/cognito/sendreset', { un: 'lingua@school.test' }, { 'accept-language': 'ja' });
      const fallback = await lastMail(t, 'lingua@school.test');
      expect(fallback.mail?.subject).toBe(MAIL_LANGUAGES.es.reset.subject);
      expect(fallback.mail?.text).toContain('&locale=es');

      await seedUser(t, { email: 'lingua-new@school.test', confirmed: false });
      await t
        .client()
        .get('/api/cognito/resend_verification/lingua-new%40school.test', { 'accept-language': 'ar-EG' });
      const verify = await lastMail(t, 'lingua-new@school.test');
      expect(verify.mail?.subject).toBe(MAIL_LANGUAGES.ar.verify.subject);
      expect(verify.mail?.text).toContain(
        `/validate?em=lingua-new%40school.test&vc=${verify.code}&locale=ar`,
      );
    });

    it('resets the password with the code: confirms, clears must-reset, ends other sessions', async () => {
      const user = await seedUser(t, { email: 'resetter@school.test', confirmed: false, mustReset: true });
      const other = await signedInClient(t, user.id);
      const classmate = await signedInClient(t, (await seedUser(t, { email: 'classmate@school.test' })).id);
      await t.client().post('/api/cognito/sendreset', { un: 'resetter@school.test' });
      const { code } = await lastMail(t, 'resetter@school.test');
      const res = await t.client().post('/api/cognito/reset', {
        un: 'resetter@school.test',
        code,
        pw: NEW_PASSWORD,
        confirmPw: NEW_PASSWORD,
      });
      expect(res.json()).toEqual({ status: 'success', payload: null });
      const after = await findUserByEmail(t.db, 'resetter@school.test');
      expect(after?.confirmed).toBe(1);
      expect(after?.must_reset).toBe(0);
      expect(await verifyPassword(after?.password_hash ?? null, NEW_PASSWORD)).toBe(true);
      expect(await readSession(t.db, other.cookies.get(SESSION_COOKIE), t.clock.now())).toBeNull();
      // only the account's own: a classmate signed in elsewhere stays signed in
      expect(await readSession(t.db, classmate.cookies.get(SESSION_COOKIE), t.clock.now())).not.toBeNull();
      // a used code sets no other password (sent again with the same one, it succeeds again:
      // identity/password-login.test.ts)
      const reuse = await t.client().post('/api/cognito/reset', {
        un: 'resetter@school.test',
        code,
        pw: `${NEW_PASSWORD}-2`,
        confirmPw: `${NEW_PASSWORD}-2`,
      });
      expect(extractEmbeddedMessage(reuse.json().msg)).toBe(messages.expiredCode);
    });

    it('the same reset sent twice at once succeeds for both; the same code with another password does not', async () => {
      await seedUser(t, { email: 'double-reset@school.test' });
      await t.client().post('/api/cognito/sendreset', { un: 'double-reset@school.test' });
      const { code } = await lastMail(t, 'double-reset@school.test');
      const reset = (pw: string) =>
        t.client().post('/api/cognito/reset', { un: 'double-reset@school.test', code, pw, confirmPw: pw });
      const same = await Promise.all([reset(NEW_PASSWORD), reset(NEW_PASSWORD), reset(NEW_PASSWORD)]);
      expect(same.map((a) => a.json().status)).toEqual(['success', 'success', 'success']);
      const other = await reset(`${NEW_PASSWORD}-2`);
      expect(extractEmbeddedMessage(other.json().msg)).toBe(messages.expiredCode);
      const after = await findUserByEmail(t.db, 'double-reset@school.test');
      expect(await verifyPassword(after?.password_hash ?? null, NEW_PASSWORD)).toBe(true);
    });

    it("a newer reset code ends the one mailed before it: used after the newer one, the earlier mail's code sets no password", async () => {
      const email = 'two-mails@school.test';
      await seedUser(t, { email });
      await t.client().post('/api/cognito/sendreset', { un: email });
      const { code: first = '' } = await lastMail(t, email);
      t.clock.advance(RESEND_COOLDOWN_SECONDS * 1000);
      await t.client().post('/api/cognito/sendreset', { un: email });
      const { code: second = '' } = await lastMail(t, email);
      expect(second).not.toBe(first);
      const reset = (code: string, pw: string) =>
        t.client().post('/api/cognito/reset', { un: email, code, pw, confirmPw: pw });
      expect((await reset(second, NEW_PASSWORD)).json()).toEqual({ status: 'success', payload: null });
      // the first mail, still in the inbox or a shared device's history
      const old = await reset(first, `${NEW_PASSWORD}-2`);
      expect(extractEmbeddedMessage(old.json().msg)).toBe(messages.expiredCode);
      const after = await findUserByEmail(t.db, email);
      expect(await verifyPassword(after?.password_hash ?? null, NEW_PASSWORD)).toBe(true);
    });

    it('takes the reset code in Persian digits (U+06F0–U+06F9)', async () => {
      await seedUser(t, { email: 'persian@school.test' });
      await t.client().post('/api/cognito/sendreset', { un: 'persian@school.test' });
      const { code = '' } = await lastMail(t, 'persian@school.test');
      const persian = code.replace(/\d/g, (d) => String.fromCharCode(0x6f0 + Number(d)));
      const res = await t.client().post('/api/cognito/reset', {
        un: 'persian@school.test',
        code: persian,
        pw: NEW_PASSWORD,
        confirmPw: NEW_PASSWORD,
      });
      expect(res.json()).toEqual({ status: 'success', payload: null });
    });

    it('embeds the failure as JSON the SPA extracts (wrong code, expired, policy, mismatch, attempts)', async () => {
      await seedUser(t, { email: 'reset-errors@school.test' });
      await t.client().post('/api/cognito/sendreset', { un: 'reset-errors@school.test' });
      const { code = '' } = await lastMail(t, 'reset-errors@school.test');
      const reset = (body: Record<string, string>) =>
        t.client().post('/api/cognito/reset', {
          un: 'reset-errors@school.test',
          code,
          pw: NEW_PASSWORD,
          confirmPw: NEW_PASSWORD,
          ...body,
        });

      const wrongCode = await reset({ code: wrong(code) });
      expect(wrongCode.statusCode).toBe(400);
      expect(wrongCode.json().code).toBe('invalidVerificationCode');
      expect(resetFailureMessage(wrongCode.json().msg)).toEqual({
        text: messages.invalidCodeRequestAgain,
        offerNewCode: true,
      });

      const weak = await reset({ pw: 'weak', confirmPw: 'weak' });
      expect(extractEmbeddedMessage(weak.json().msg)).toBe(messages.passwordPolicy);
      const mismatch = await reset({ confirmPw: 'Something-Else-1' });
      expect(extractEmbeddedMessage(mismatch.json().msg)).toBe(messages.passwordsDoNotMatch);

      for (let i = 2; i < CODE_MAX_ATTEMPTS; i++) await reset({ code: wrong(code) });
      const lastTry = await reset({ code: wrong(code) });
      expect(lastTry.statusCode).toBe(429);
      expect(lastTry.json().code).toBe('attemptLimit');
      expect(extractEmbeddedMessage(lastTry.json().msg)).toBe(messages.attemptLimit);
      t.clock.advance(ABUSE_LIMITS.accountDelayStartMs);
      const limited = await reset({});
      expect(limited.statusCode).toBe(429);
      expect(extractEmbeddedMessage(limited.json().msg)).toBe(messages.attemptLimit);
      expect(limited.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    });

    it('refuses an expired reset code and an unknown address', async () => {
      await seedUser(t, { email: 'reset-late@school.test' });
      await t.client().post('/api/cognito/sendreset', { un: 'reset-late@school.test' });
      const { code } = await lastMail(t, 'reset-late@school.test');
      t.clock.advance(RESET_CODE_TTL_MS);
      const late = await t.client().post('/api/cognito/reset', {
        un: 'reset-late@school.test',
        code,
        pw: NEW_PASSWORD,
        confirmPw: NEW_PASSWORD,
      });
      expect(extractEmbeddedMessage(late.json().msg)).toBe(messages.expiredCode);
      const ghost = await t.client().post('/api/cognito/reset', {
        un: 'ghost@school.test',
        code: '12345678',
        pw: NEW_PASSWORD,
        confirmPw: NEW_PASSWORD,
      });
      expect(extractEmbeddedMessage(ghost.json().msg)).toBe(messages.invalidVerificationCode);
    });
  });

  describe.skipIf(skip)('cognito/get_account_type and cognito/logout', () => {
    it("names an account's password alone, its providers only when it has no password (a stranger learns no more than it needs)", async () => {
      const user = await seedUser(t, { email: 'methods@school.test' });
      await t.db
        .insertInto('user_identities')
        .values({ user_id: user.id, provider: 'Google', subject: 'g-1', email: user.email, created_at: 0 })
        .execute();
      expect((await t.client().get('/api/cognito/get_account_type/methods@school.test')).json()).toEqual({
        status: 'success',
        payload: { exists: true, methods: ['password'] },
      });
      const socialOnly = await seedUser(t, { email: 'social-only@school.test', password: null });
      await t.db
        .insertInto('user_identities')
        .values({ user_id: socialOnly.id, provider: 'Clever', subject: 'c-1', email: null, created_at: 0 })
        .execute();
      expect(
        (await t.client().get('/api/cognito/get_account_type/social-only@school.test')).json().payload
          .methods,
      ).toEqual(['Clever']);
      expect((await t.client().get('/api/cognito/get_account_type/none@school.test')).json().payload).toEqual(
        { exists: false, methods: [] },
      );
      expect((await t.client().get('/api/cognito/get_account_type/bad')).statusCode).toBe(400);
    });

    it('logout revokes the session and clears the cookie', async () => {
      const user = await seedUser(t, { email: 'leaving@school.test' });
      const c = await signedInClient(t, user.id);
      const token = c.cookies.get(SESSION_COOKIE);
      const res = await c.get('/api/cognito/logout');
      expect(res.json()).toEqual({ status: 'success', payload: null });
      expect(c.cookies.has(SESSION_COOKIE)).toBe(false);
      expect(await readSession(t.db, token, t.clock.now())).toBeNull();
      expect((await t.client().get('/api/cognito/logout')).statusCode).toBe(200);
    });
  });
});

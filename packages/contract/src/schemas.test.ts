import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EMAIL_CODE_LENGTH, NAME_MAX_LENGTH, SUBSCRIPTION_IDS } from './constants.ts';
import { messages } from './english-messages.ts';
import { isMessageCode, issueCode } from './messages.ts';
import { normalizeEmail } from './rules.ts';
import {
  accessCodeParams,
  cognitoLoginBody,
  confirmBody,
  cookieQuery,
  emailSchema,
  getCsrfQuery,
  inviteCodeParams,
  loginCsrfParams,
  realmBody,
  resetBody,
  sendResetBody,
  signupBody,
  subscriptionBody,
  validateEmailBody,
} from './schemas.ts';

/** An issue's message as a person reads it: the English message of the code the issue carries. */
const read = (message: string | undefined) => (isMessageCode(message) ? messages[message] : message);

const firstError = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  read(r.error?.issues[0]?.message);

describe('payload schemas', () => {
  it('sign-up reports the §5 messages', () => {
    const r = signupBody.safeParse({
      first: ' ',
      last: '',
      email: 'x',
      pw: 'Abcdefghij1!',
      description: 'teacher',
    });
    expect(r.success).toBe(false);
    const msgs = r.error?.issues.map((i) => read(i.message));
    expect(msgs).toContain('First Name is a required field.');
    expect(msgs).toContain('Last Name is a required field.');
    expect(msgs).toContain('Please enter a valid email address above.');
  });

  it('a name past NAME_MAX_LENGTH is too long, not missing; one at the limit passes, trimmed', () => {
    const body = (first: string, last: string) => ({
      first,
      last,
      email: 'ada@school.org',
      pw: 'Abcdefghij1!',
      description: 'teacher',
    });
    const long = 'a'.repeat(NAME_MAX_LENGTH + 1);
    const msgs = signupBody.safeParse(body(long, long)).error?.issues.map((i) => read(i.message));
    expect(msgs).toEqual([
      'First Name must be at most 100 characters.',
      'Last Name must be at most 100 characters.',
    ]);
    const atLimit = 'a'.repeat(NAME_MAX_LENGTH);
    expect(signupBody.parse(body(` ${atLimit} `, atLimit)).first).toBe(atLimit);
  });

  it('sign-up lowercases and trims the email', () => {
    const r = signupBody.parse({
      first: 'Ada',
      last: 'L',
      email: ' Ada@School.ORG ',
      pw: 'Abcdefghij1!',
      description: 'teacher',
    });
    expect(r.email).toBe('ada@school.org');
  });

  it("email form answers 'Invalid email format.'", () => {
    expect(firstError(validateEmailBody.safeParse({ email: 'nope' }))).toBe('Invalid email format.');
  });

  it('mailed codes are 8 digits: confirm and reset take 8, or 6 for a code mailed before the upgrade, and nothing else', () => {
    expect(EMAIL_CODE_LENGTH).toBe(8);
    for (const code of ['12345678', '123456']) {
      expect(confirmBody.safeParse({ un: 'a@b.co', code }).success, code).toBe(true);
      expect(
        resetBody.safeParse({ un: 'a@b.co', code, pw: 'Abcdefghij1!', confirmPw: 'Abcdefghij1!' }).success,
      ).toBe(true);
    }
    for (const code of ['12345', '1234567', '123456789', '1234567a'])
      expect(confirmBody.safeParse({ un: 'a@b.co', code }).error?.issues[0]?.message, code).toBe(
        'codeRequired',
      );
  });

  it('codes in Arabic-Indic or Persian digits are read as their ASCII digits', () => {
    expect(confirmBody.parse({ un: 'a@b.co', code: ' ١٢٣٤٥٦٧٨ ' }).code).toBe('12345678');
    expect(
      resetBody.parse({ un: 'a@b.co', code: '۸۷۶۵۴۳۲۱', pw: 'Abcdefghij1!', confirmPw: 'Abcdefghij1!' }).code,
    ).toBe('87654321');
    expect(accessCodeParams.parse({ code: 'AB١٢۳۴', sp_id: 'sp' }).code).toBe('AB1234');
    expect(confirmBody.safeParse({ un: 'a@b.co', code: '١٢٣٤٥' }).success).toBe(false);
  });

  it("reset answers 'Passwords do not match' on the confirmation", () => {
    const r = resetBody.safeParse({
      un: 'a@b.co',
      code: '123456',
      pw: 'Abcdefghij1!',
      confirmPw: 'Abcdefghij1?',
    });
    const issue = r.error?.issues[0];
    expect({ message: read(issue?.message), path: issue?.path }).toMatchObject({
      message: 'Passwords do not match',
      path: ['confirmPw'],
    });
  });

  it('subscriptionChanges accepts only the four fixed ids', () => {
    expect(
      subscriptionBody.safeParse({ subscriptionChanges: [{ id: SUBSCRIPTION_IDS.k12, subscribed: true }] })
        .success,
    ).toBe(true);
    expect(subscriptionBody.safeParse({ subscriptionChanges: [{ id: 1, subscribed: true }] }).success).toBe(
      false,
    );
  });

  it('subscriptionChanges names each id once: a contradictory list would reach the CRM as it came', () => {
    const k12 = SUBSCRIPTION_IDS.k12;
    const twice = [
      { id: k12, subscribed: true },
      { id: k12, subscribed: false },
    ];
    expect(subscriptionBody.safeParse({ subscriptionChanges: twice }).success).toBe(false);
    const each = [
      { id: k12, subscribed: true },
      { id: SUBSCRIPTION_IDS.technicalUpdates, subscribed: false },
    ];
    expect(subscriptionBody.safeParse({ subscriptionChanges: each }).success).toBe(true);
  });
});

describe('email fields: one normalisation (normalizeEmail), in the contract', () => {
  const typed = '  Ada.Lovelace@School.EXAMPLE ';
  const pw = 'Abcdefghij1!';

  it('every email of every body arrives trimmed and lower-cased, on both sides alike', () => {
    const parsed = [
      emailSchema.parse(typed),
      validateEmailBody.parse({ email: typed }).email,
      signupBody.parse({ first: 'Ada', last: 'L', email: typed, pw, description: 'teacher' }).email,
      confirmBody.parse({ un: typed, code: '123456' }).un,
      sendResetBody.parse({ un: typed }).un,
      resetBody.parse({ un: typed, code: '123456', pw, confirmPw: pw }).un,
      cognitoLoginBody.parse({ email: typed, password: 'x' }).email,
      realmBody.parse({ email: typed }).email,
    ];
    expect(parsed).toEqual(parsed.map(() => normalizeEmail(typed)));
    expect(normalizeEmail(typed)).toBe('ada.lovelace@school.example');
  });

  it('an address the schema gave back parses to itself (the API may parse what the SPA sent)', () => {
    fc.assert(
      fc.property(fc.emailAddress(), fc.constantFrom('', ' ', '\t'), (address, pad) => {
        const once = emailSchema.safeParse(pad + address.toUpperCase() + pad);
        if (!once.success) return;
        expect(emailSchema.parse(once.data)).toBe(once.data);
        expect(once.data).toBe(normalizeEmail(address));
      }),
    );
  });

  it('every form gives a look-alike domain the one spelling of its inbox, and refuses bad punycode', () => {
    for (const typed of ['Victim@ｓchool.org', 'victim@school\uFE00.org', 'victim@ſchool.org']) {
      expect(validateEmailBody.parse({ email: typed }).email).toBe('victim@school.org');
      expect(
        signupBody.parse({ first: 'A', last: 'L', email: typed, pw, description: 'teacher' }).email,
      ).toBe('victim@school.org');
      expect(sendResetBody.parse({ un: typed }).un).toBe('victim@school.org');
    }
    expect(realmBody.parse({ email: 'ana@Bücher.de' }).email).toBe('ana@xn--bcher-kva.de');
    const email = 'ana@xn--zz.org';
    expect(firstError(validateEmailBody.safeParse({ email }))).toBe(messages.emailFormatInvalid);
    expect(
      firstError(signupBody.safeParse({ first: 'Ada', last: 'L', email, pw, description: 'teacher' })),
    ).toBe(messages.emailInvalidSignup);
  });

  it('an address in any script the schema gave back has an ASCII domain and parses to itself', () => {
    const unit = fc.constantFrom(...'aB.@ü\u0308ｓſ\u034F\uFE00Σ'.split(''), 'xn--', 'bücher', '.org');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 14 }), (address) => {
        const once = emailSchema.safeParse(address);
        if (!once.success) return;
        expect(once.data.slice(once.data.lastIndexOf('@') + 1)).toMatch(/^[\x21-\x7e]+$/);
        expect(emailSchema.parse(once.data)).toBe(once.data);
        expect(once.data).toBe(normalizeEmail(address));
      }),
      { numRuns: 3000 },
    );
  });

  it('each form keeps its own refusal, for a bad or an over-long address', () => {
    const long = `${'a'.repeat(250)}@b.co`;
    for (const email of ['nope', long]) {
      expect(firstError(validateEmailBody.safeParse({ email }))).toBe(messages.emailFormatInvalid);
      expect(firstError(realmBody.safeParse({ email }))).toBe(messages.workEmailInvalid);
      expect(
        firstError(signupBody.safeParse({ first: 'Ada', last: 'L', email, pw, description: 'teacher' })),
      ).toBe(messages.emailInvalidSignup);
    }
  });
});

describe('tokens, ids and codes sent back to be looked up', () => {
  it('refuse a NUL, which names nothing stored (PostgreSQL cannot hold one), with badRequest; the same value without it passes', () => {
    const signup = {
      first: 'Ada',
      last: 'L',
      email: 'ada@school.test',
      pw: 'Abcdefgh-1234x',
      description: 'teacher',
    };
    const cases: [
      { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } },
      (token: string) => unknown,
    ][] = [
      [inviteCodeParams, (code) => ({ code })],
      [loginCsrfParams, (csrf) => ({ csrf })],
      [accessCodeParams, (sp_id) => ({ code: '123456', sp_id })],
      [getCsrfQuery, (c) => ({ p: 'Google', c })],
      [signupBody, (code) => ({ ...signup, code })],
      [cognitoLoginBody, (uid) => ({ email: 'ada@school.test', password: 'x', uid })],
      [cookieQuery, (hash) => ({ hash, return_url: 'https://app.test/', token: 'abc' })],
      [cookieQuery, (token) => ({ hash: 'abc', return_url: 'https://app.test/', token })],
    ];
    for (const [schema, body] of cases) {
      expect(schema.safeParse(body('ab')).success, JSON.stringify(body('ab'))).toBe(true);
      const refused = schema.safeParse(body('a\u0000b'));
      expect(refused.success).toBe(false);
      expect(refused.error && issueCode(refused.error)).toBe('badRequest');
    }
  });
});

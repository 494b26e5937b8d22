import { describe, expect, it } from 'vitest';
import { SUBSCRIPTION_IDS } from './constants.ts';
import {
  accessCodeParams,
  confirmBody,
  resetBody,
  signupBody,
  subscriptionBody,
  validateEmailBody,
} from './schemas.ts';

const firstError = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues[0]?.message;

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
    const msgs = r.error?.issues.map((i) => i.message);
    expect(msgs).toContain('First Name is a required field.');
    expect(msgs).toContain('Last Name is a required field.');
    expect(msgs).toContain('Please enter a valid email address above.');
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

  it('confirm needs a six-digit code', () => {
    expect(confirmBody.safeParse({ un: 'a@b.co', code: '123456' }).success).toBe(true);
    expect(confirmBody.safeParse({ un: 'a@b.co', code: '12345' }).success).toBe(false);
  });

  it('codes in Arabic-Indic or Persian digits are read as their ASCII digits', () => {
    expect(confirmBody.parse({ un: 'a@b.co', code: ' ١٢٣٤٥٦ ' }).code).toBe('123456');
    expect(
      resetBody.parse({ un: 'a@b.co', code: '۶۵۴۳۲۱', pw: 'Abcdefghij1!', confirmPw: 'Abcdefghij1!' }).code,
    ).toBe('654321');
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
    expect(r.error?.issues[0]).toMatchObject({ message: 'Passwords do not match', path: ['confirmPw'] });
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
});

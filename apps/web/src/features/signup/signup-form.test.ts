import { describe, expect, it } from 'vitest';
import { isMessageCode, messages } from '@frontdoor/contract';
import { signupForm } from './signup-form.ts';

const valid = {
  first: 'Ana',
  last: 'Lima',
  email: 'ana@school.org',
  pw: 'Str0ng!Password',
  confirmPw: 'Str0ng!Password',
  description: 'teacher',
};
const issues = (input: Record<string, unknown>) => {
  const result = signupForm.safeParse(input);
  // the first issue per field is the one the form shows, as its code's English message
  const read = (message: string) => (isMessageCode(message) ? messages[message] : message);
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.toReversed().map((i) => [i.path.join('.'), read(i.message)]));
};

describe('signupForm (§5 sign-up rules)', () => {
  it('accepts a complete form', () => {
    expect(signupForm.safeParse(valid).success).toBe(true);
  });
  it("first name is required: 'First Name is a required field.'", () => {
    expect(issues({ ...valid, first: '  ' }).first).toBe(messages.firstNameRequired);
  });
  it("last name is required: 'Last Name is a required field.'", () => {
    expect(issues({ ...valid, last: '' }).last).toBe(messages.lastNameRequired);
  });
  it("email is required and valid: 'Please enter a valid email address above.'", () => {
    expect(issues({ ...valid, email: '' }).email).toBe(messages.emailInvalidSignup);
    expect(issues({ ...valid, email: 'ana@' }).email).toBe(messages.emailInvalidSignup);
  });
  it('password is required', () => {
    expect(issues({ ...valid, pw: '', confirmPw: '' }).pw).toBe(messages.passwordRequired);
  });
  it("confirm password is required: 'Confirmation password is required'", () => {
    expect(issues({ ...valid, confirmPw: '' }).confirmPw).toBe(messages.confirmPasswordRequired);
  });
  it("confirmation must equal the password: 'Passwords do not match', even with other fields invalid", () => {
    expect(issues({ ...valid, confirmPw: 'Str0ng!Passwore' }).confirmPw).toBe(messages.passwordsDoNotMatch);
    expect(issues({ ...valid, first: '', confirmPw: 'other' }).confirmPw).toBe(messages.passwordsDoNotMatch);
  });
  it('a weak password is refused with the policy message', () => {
    expect(issues({ ...valid, pw: 'short', confirmPw: 'short' }).pw).toBe(messages.passwordPolicy);
  });
  it('a password holding the name or a part of the email is refused under the password', () => {
    expect(issues({ ...valid, pw: 'Lima-Sunrise-42', confirmPw: 'Lima-Sunrise-42' }).pw).toBe(
      messages.passwordPersonal,
    );
    expect(
      issues({
        ...valid,
        email: 'bluebird@school.org',
        pw: 'BlueBird!Sunrise9',
        confirmPw: 'BlueBird!Sunrise9',
      }).pw,
    ).toBe(messages.passwordPersonal);
  });
  it('description must be one of the contract DESCRIPTIONS', () => {
    expect(issues({ ...valid, description: undefined }).description).toBe(messages.descriptionRequired);
  });
});

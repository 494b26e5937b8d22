import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  embedMessage,
  embeddedMessage,
  errorCode,
  extractEmbeddedMessage,
  MESSAGE_CODES,
  RULE_TEXTS,
  isMessageCode,
  issueCode,
  type MessageCode,
  resetFailureCode,
  resetFailureMessage,
  stripParenthesised,
} from './messages.ts';
import { messages } from './english-messages.ts';
import { cognitoLoginBody, passwordSchema, realmBody, resetBody, signupBody } from './schemas.ts';

describe('messages are the spec texts word for word', () => {
  it('keeps the double spaces of the reset popups', () => {
    expect(messages.passwordResetCodeSentPopup).toBe(
      'A password reset code has been sent to your email!  Please check your email inbox.',
    );
    expect(messages.resetResendSuccess).toBe(
      'A new password reset code has been sent to your email!  Please check your inbox.',
    );
  });
});

describe('sign-up failure text (§8)', () => {
  it('removes parenthesised parts', () => {
    expect(
      stripParenthesised('An account with the given email already exists. (UsernameExistsException)'),
    ).toBe('An account with the given email already exists.');
    expect(stripParenthesised('Bad (a (nested) part) input (x).')).toBe('Bad input.');
  });
});

describe('password reset failure text (§8)', () => {
  it('takes the message from JSON embedded in msg', () => {
    const msg = embedMessage('Password reset failed:', 'ExpiredCodeException', 'Code expired');
    expect(extractEmbeddedMessage(msg)).toBe('Code expired');
  });
  it("falls back to 'An unknown error occurred.'", () => {
    expect(extractEmbeddedMessage(undefined)).toBe('An unknown error occurred.');
    expect(extractEmbeddedMessage('no json here')).toBe('An unknown error occurred.');
    expect(extractEmbeddedMessage('broken {json')).toBe('An unknown error occurred.');
    expect(extractEmbeddedMessage('{"message": 5}')).toBe('An unknown error occurred.');
  });
  it('replaces the invalid-verification-code text and offers a new code', () => {
    const msg = embedMessage('Reset failed:', 'CodeMismatchException', messages.invalidVerificationCode);
    expect(resetFailureMessage(msg)).toEqual({
      text: 'Invalid code provided, please request a code again.',
      offerNewCode: true,
    });
    expect(
      resetFailureMessage('x {"message":"Attempt limit exceeded, please try after some time."}'),
    ).toEqual({
      text: 'Attempt limit exceeded, please try after some time.',
      offerNewCode: false,
    });
  });
});

describe('errors travel as codes', () => {
  it("the English catalog has a text for every code and no other key, the rules' texts among them", () => {
    expect(Object.keys(messages).sort()).toEqual([...MESSAGE_CODES].sort());
    for (const [code, text] of Object.entries(RULE_TEXTS)) expect(messages[code as MessageCode]).toBe(text);
  });

  it('isMessageCode accepts the codes only', () => {
    expect(isMessageCode('passwordsDoNotMatch')).toBe(true);
    expect(isMessageCode('Passwords do not match')).toBe(false);
    expect(isMessageCode('toString')).toBe(false);
    expect(isMessageCode(undefined)).toBe(false);
    expect(isMessageCode(42)).toBe(false);
  });

  it('a schema issue carries its code as its message, with its other options kept', () => {
    const schema = z
      .object({ pw: z.string(), confirmPw: z.string() })
      .check(
        z.refine((b) => b.pw === b.confirmPw, errorCode('passwordsDoNotMatch', { path: ['confirmPw'] })),
      );
    const r = schema.safeParse({ pw: 'a', confirmPw: 'b' });
    expect(r.error?.issues[0]).toMatchObject({ message: 'passwordsDoNotMatch', path: ['confirmPw'] });
  });

  it("issueCode names the first issue's code, or badRequest for zod's own texts", () => {
    const parsed = (schema: z.ZodMiniType, value: unknown) => {
      const r = schema.safeParse(value);
      if (r.success) throw new Error('expected a failure');
      return issueCode(r.error);
    };
    expect(parsed(passwordSchema, 'short')).toBe('passwordPolicy');
    expect(parsed(passwordSchema, 5)).toBe('passwordRequired');
    expect(parsed(realmBody, { email: 'nope' })).toBe('workEmailInvalid');
    expect(
      parsed(resetBody, { un: 'a@b.co', code: '123456', pw: 'Abcdefghij1!', confirmPw: 'Abcdefghij1?' }),
    ).toBe('passwordsDoNotMatch');
    expect(parsed(signupBody, { first: 'A', last: 'B', email: 'a@b.co', pw: 'Abcdefghij1!' })).toBe(
      'descriptionRequired',
    );
    // no code on the length limit: zod's text, answered as badRequest
    expect(parsed(cognitoLoginBody, { email: 'a@b.co', password: 'x'.repeat(257) })).toBe('badRequest');
  });
});

describe('password reset failure by code (§8)', () => {
  it('reads the embedded message, or nothing', () => {
    expect(embeddedMessage(embedMessage('Reset failed:', 'X', 'Code expired'))).toBe('Code expired');
    expect(embeddedMessage('no json here')).toBeUndefined();
    expect(embeddedMessage(undefined)).toBeUndefined();
  });
  it('replaces the invalid-code refusal and offers a new code for it, an expired code and a used-up one', () => {
    expect(resetFailureCode('invalidVerificationCode')).toEqual({
      code: 'invalidCodeRequestAgain',
      offerNewCode: true,
    });
    expect(resetFailureCode('expiredCode')).toEqual({ code: 'expiredCode', offerNewCode: true });
    // the code's tries are used up: waiting never brings it back
    expect(resetFailureCode('attemptLimit')).toEqual({ code: 'attemptLimit', offerNewCode: true });
    expect(resetFailureCode('passwordPolicy')).toEqual({ code: 'passwordPolicy', offerNewCode: false });
  });
});

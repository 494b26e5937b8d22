import { describe, expect, it } from 'vitest';
import {
  embedMessage,
  extractEmbeddedMessage,
  messages,
  resetFailureMessage,
  stripParenthesised,
} from './messages.ts';

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

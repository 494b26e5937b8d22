import { describe, expect, it } from 'vitest';
import { embedMessage, messages } from '@frontdoor/contract';
import { ApiError } from '../../lib/http.ts';
import { resetFailureOf } from './reset-failure.ts';

const refused = (code: string | undefined, message: string) =>
  new ApiError(400, code, embedMessage('Password reset failed:', 'SomeException', message));

describe('resetFailureOf (§8 password reset failure)', () => {
  it('shows the code whose message the server embedded', () => {
    expect(resetFailureOf(refused('passwordPolicy', messages.passwordPolicy))).toEqual({
      message: { code: 'passwordPolicy' },
      offerNewCode: false,
    });
  });
  it('offers a new code once the code has used up its tries: waiting never brings it back', () => {
    expect(resetFailureOf(refused('attemptLimit', messages.attemptLimit))).toEqual({
      message: { code: 'attemptLimit' },
      offerNewCode: true,
    });
  });
  it('replaces the invalid-code refusal and offers a new code, as for an expired code', () => {
    expect(resetFailureOf(refused('invalidVerificationCode', messages.invalidVerificationCode))).toEqual({
      message: { code: 'invalidCodeRequestAgain' },
      offerNewCode: true,
    });
    expect(resetFailureOf(refused('expiredCode', messages.expiredCode))).toEqual({
      message: { code: 'expiredCode' },
      offerNewCode: true,
    });
  });
  it('an answer without a contract code shows the embedded text as it came', () => {
    expect(resetFailureOf(refused(undefined, messages.invalidVerificationCode))).toEqual({
      message: { text: messages.invalidCodeRequestAgain },
      offerNewCode: true,
    });
    expect(resetFailureOf(refused(undefined, 'Code expired'))).toEqual({
      message: { text: 'Code expired' },
      offerNewCode: false,
    });
  });
  it("without embedded JSON (even with a code) it is 'An unknown error occurred.'", () => {
    expect(resetFailureOf(new ApiError(429, 'tooManyRequests', messages.tooManyRequests))).toEqual({
      message: { code: 'unknownError' },
      offerNewCode: false,
    });
    expect(resetFailureOf(new Error('boom'))).toEqual({
      message: { code: 'unknownError' },
      offerNewCode: false,
    });
  });
});

import { describe, expect, it } from 'vitest';
import { messages } from '@frontdoor/contract';
import { ApiError } from '../../lib/http.ts';
import { accessCodeRefusal } from './access-code-error.ts';

describe('accessCodeRefusal (§6, §8)', () => {
  it("a server message beginning 'The code you entered is not for' is shown as is", () => {
    const msg = `${messages.accessCodeWrongProviderPrefix} Reading Lab`;
    // its prefix by its code (so in the page's language), the provider's name as the server names it
    expect(
      accessCodeRefusal(
        new ApiError(400, 'accessCodeWrongProviderPrefix', msg, undefined, { sp_name: 'Reading Lab' }),
      ),
    ).toEqual({ message: { code: 'accessCodeWrongProviderPrefix', name: 'Reading Lab' }, codeRefused: true });
    // a server that names none: its text as it came
    expect(accessCodeRefusal(new ApiError(400, 'accessCodeWrongProviderPrefix', msg))).toEqual({
      message: { text: msg },
      codeRefused: true,
    });
  });
  it("other failure shows 'The code you entered did not work. Try again or contact your teacher.'", () => {
    const wrongCode = { message: { code: 'accessCodeFailed' }, codeRefused: true };
    expect(accessCodeRefusal(new ApiError(404, 'accessCodeNotFound', messages.notFound))).toEqual(wrongCode);
    // told apart by the code: a text that merely begins the same way is not that refusal
    const lookalike = new ApiError(400, 'badRequest', `${messages.accessCodeWrongProviderPrefix} you`);
    expect(accessCodeRefusal(lookalike)).toEqual(wrongCode);
    expect(accessCodeRefusal(new Error('offline'))).toEqual(wrongCode);
  });
  it('a limit (429), a busy server (503) or blocked cookies (403 cookiesBlocked) shows its own message by its code, never about the code typed', () => {
    expect(accessCodeRefusal(new ApiError(429, 'addressFailureLimit', messages.addressFailureLimit))).toEqual(
      { message: { code: 'addressFailureLimit' }, codeRefused: false },
    );
    expect(accessCodeRefusal(new ApiError(503, 'serverBusy', messages.serverBusy))).toEqual({
      message: { code: 'serverBusy' },
      codeRefused: false,
    });
    // nor is a browser that keeps no cookies told its code is wrong
    expect(accessCodeRefusal(new ApiError(403, 'cookiesBlocked', messages.cookiesBlocked))).toEqual({
      message: { code: 'cookiesBlocked' },
      codeRefused: false,
    });
    // a limit answered without a contract code (a proxy's 429) is still a limit
    expect(accessCodeRefusal(new ApiError(429, undefined, undefined))).toEqual({
      message: { code: 'tooManyRequests' },
      codeRefused: false,
    });
  });
});

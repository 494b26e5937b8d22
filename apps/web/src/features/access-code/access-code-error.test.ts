import { describe, expect, it } from 'vitest';
import { messages } from '@frontdoor/contract';
import { ApiError } from '../../lib/http.ts';
import { accessCodeErrorMessage } from './access-code-error.ts';

describe('accessCodeErrorMessage (§6, §8)', () => {
  it("a server message beginning 'The code you entered is not for' is shown as is", () => {
    const msg = `${messages.accessCodeWrongProviderPrefix} Reading Lab`;
    expect(accessCodeErrorMessage(new ApiError(400, 'accessCodeWrongProviderPrefix', msg))).toEqual({
      text: msg,
    });
  });
  it("other failure shows 'The code you entered did not work. Try again or contact your teacher.'", () => {
    expect(accessCodeErrorMessage(new ApiError(404, 'accessCodeNotFound', messages.notFound))).toEqual({
      code: 'accessCodeFailed',
    });
    // told apart by the code: a text that merely begins the same way is not that refusal
    const lookalike = new ApiError(400, 'badRequest', `${messages.accessCodeWrongProviderPrefix} you`);
    expect(accessCodeErrorMessage(lookalike)).toEqual({ code: 'accessCodeFailed' });
    expect(accessCodeErrorMessage(new Error('offline'))).toEqual({ code: 'accessCodeFailed' });
  });
});

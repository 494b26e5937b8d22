import { describe, expect, it } from 'vitest';
import { accessCodeErrorMessage } from './access-code-error.ts';

describe('accessCodeErrorMessage (§6, §8)', () => {
  it("a server message beginning 'The code you entered is not for' is shown as is", () => {
    const msg = 'The code you entered is not for Reading Lab. Ask your teacher for the right link.';
    expect(accessCodeErrorMessage(msg)).toEqual({ text: msg });
  });
  it("other failure shows 'The code you entered did not work. Try again or contact your teacher.'", () => {
    expect(accessCodeErrorMessage('Not found.')).toEqual({ code: 'accessCodeFailed' });
    expect(accessCodeErrorMessage(undefined)).toEqual({ code: 'accessCodeFailed' });
  });
});

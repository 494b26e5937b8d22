import type { MessageCode } from '@frontdoor/contract';
import { ApiError } from '../../lib/http.ts';
import { callErrorMessage } from '../shared/messages.ts';
import type { ShownMessage } from '../shared/shown-message.ts';

/** The server's refusal of a code that belongs to another provider; its msg names the product signed into. */
const WRONG_PROVIDER = 'accessCodeWrongProviderPrefix' satisfies MessageCode;

export interface AccessCodeRefusal {
  message: ShownMessage;
  /** The refusal is about the code typed: the code field points to it. */
  codeRefused: boolean;
}

/**
 * §6/§8: the refusal of another provider's code ('The code you entered is not for…') is shown as the
 * server wrote it, in the page's language: its prefix translated, the product's name the server
 * names (sp_name); a server that names none is shown as it wrote. A refusal made before any code
 * was looked at, an abuse limit's 429 or a busy server's 503 (other 5xx go to /error-generic
 * first), shows that limit's own message as on every other form: a correct code must not be called
 * wrong; so does a browser that keeps no cookies (cookiesBlocked). Any other failure is
 * accessCodeFailed. Told apart by the answer's status and code, never by its text.
 */
export function accessCodeRefusal(error: unknown): AccessCodeRefusal {
  if (error instanceof ApiError) {
    if (error.code === WRONG_PROVIDER && error.msg) {
      const name = error.extras.sp_name;
      return {
        message: name === undefined ? { text: error.msg } : { code: WRONG_PROVIDER, name },
        codeRefused: true,
      };
    }
    // a browser that keeps no cookies: no code can sign it in, right or wrong
    if (error.code === 'cookiesBlocked') return { message: { code: error.code }, codeRefused: false };
    if (error.httpStatus === 429 || error.httpStatus === 503) {
      return { message: callErrorMessage(error, 'tooManyRequests'), codeRefused: false };
    }
  }
  return { message: { code: 'accessCodeFailed' }, codeRefused: true };
}

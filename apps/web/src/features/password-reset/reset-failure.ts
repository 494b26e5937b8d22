import { embeddedMessage, isMessageCode, resetFailureCode, resetFailureMessage } from '@frontdoor/contract';
import { ApiError } from '../../lib/http.ts';
import type { ShownMessage } from '../shared/shown-message.ts';

/**
 * §8 password reset failure: the message embedded in msg as JSON, else 'An unknown error occurred.';
 * the invalid-code refusal becomes 'Invalid code provided, please request a code again.', which offers
 * a new code. The server embeds its code's message, so the code is what is shown (translated); an
 * answer without a contract code shows the embedded text as it came.
 */
export function resetFailureOf(error: unknown): { message: ShownMessage; offerNewCode: boolean } {
  const msg = error instanceof ApiError ? error.msg : undefined;
  const code = error instanceof ApiError ? error.code : undefined;
  if (embeddedMessage(msg) === undefined) return { message: { code: 'unknownError' }, offerNewCode: false };
  if (isMessageCode(code)) {
    const shown = resetFailureCode(code);
    return { message: { code: shown.code }, offerNewCode: shown.offerNewCode };
  }
  const { text, offerNewCode } = resetFailureMessage(msg);
  return { message: { text }, offerNewCode };
}

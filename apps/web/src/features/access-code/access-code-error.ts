import type { MessageCode } from '@frontdoor/contract';
import { ApiError } from '../../lib/http.ts';
import type { ShownMessage } from '../shared/shown-message.ts';

/** The server's refusal of a code that belongs to another provider; its msg names that provider. */
const WRONG_PROVIDER = 'accessCodeWrongProviderPrefix' satisfies MessageCode;

/**
 * §6/§8: a refusal naming another provider ('The code you entered is not for…') is shown as the
 * server wrote it; any other failure is accessCodeFailed. Told apart by the answer's code, never by
 * its text.
 */
export function accessCodeErrorMessage(error: unknown): ShownMessage {
  if (error instanceof ApiError && error.code === WRONG_PROVIDER && error.msg) return { text: error.msg };
  return { code: 'accessCodeFailed' };
}

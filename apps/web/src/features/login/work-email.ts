import { isMessageCode, providerForAccountType } from '@frontdoor/contract';
import type { UpstreamProvider } from '@frontdoor/contract';
import type { ShownMessage } from '../shared/shown-message.ts';

/** §7: the realm answer carries payload.accountType, or realmInfo.account_type in the upstream shape. */
export function accountTypeOf(answer: unknown): string | undefined {
  if (!answer || typeof answer !== 'object') return undefined;
  const { payload, realmInfo } = answer as {
    payload?: { accountType?: unknown };
    realmInfo?: { account_type?: unknown };
  };
  const value = payload?.accountType ?? realmInfo?.account_type;
  return typeof value === 'string' ? value : undefined;
}

/** §4: Managed → work/school provider, Federated → personal-accounts variant, anything else → work/school. */
export const providerForRealmAnswer = (answer: unknown): UpstreamProvider =>
  providerForAccountType(accountTypeOf(answer));

/**
 * §8 work/school email errors. 404 and 403 have fixed texts; a validation answer (4xx with a body)
 * shows the server's message (its code, else its msg) or 'Email validation failed…'; anything else
 * (5xx, network) the generic text.
 */
export function workEmailErrorMessage(
  httpStatus: number | undefined,
  serverMsg: string | undefined,
  serverCode?: string,
): ShownMessage {
  if (httpStatus === 404) return { code: 'workEmailNotFound' };
  if (httpStatus === 403) return { code: 'workEmailAccessDenied' };
  if (httpStatus !== undefined && httpStatus < 500) {
    if (isMessageCode(serverCode)) return { code: serverCode };
    return serverMsg ? { text: serverMsg } : { code: 'workEmailValidationFailed' };
  }
  return { code: 'workEmailOtherError' };
}

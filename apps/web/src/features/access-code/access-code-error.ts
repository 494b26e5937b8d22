import { messages } from '@frontdoor/contract';
import type { ShownMessage } from '../shared/shown-message.ts';

/** §6/§8: a server message naming another provider ('The code you entered is not for…') is shown as is. */
export function accessCodeErrorMessage(serverMsg: string | undefined): ShownMessage {
  if (serverMsg?.startsWith(messages.accessCodeWrongProviderPrefix)) return { text: serverMsg };
  return { code: 'accessCodeFailed' };
}

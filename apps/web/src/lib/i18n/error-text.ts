import type { TFunction } from 'i18next';
import { messages } from '@frontdoor/contract';
import type { MessageCode } from '@frontdoor/contract';

export const isMessageCode = (code: string | undefined): code is MessageCode =>
  code !== undefined && Object.hasOwn(messages, code);

/**
 * The text to show for a server error: its code translated in the 'errors' namespace (English is
 * the contract text, i.e. the server's msg), else the server's own msg, else `fallback`.
 */
export function errorText(
  t: TFunction,
  error: { code?: string | undefined; msg?: string | undefined },
  fallback: MessageCode,
): string {
  if (isMessageCode(error.code)) return t(`errors:${error.code}`);
  return error.msg ?? t(`errors:${fallback}`);
}

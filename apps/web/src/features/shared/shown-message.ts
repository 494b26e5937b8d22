import type { MessageCode } from '@frontdoor/contract';

/**
 * A message to show: a contract code (translated in the errors namespace; `name` follows it, as the
 * product a class code belongs to) or a server text shown as it came.
 */
export type ShownMessage = { code: MessageCode; name?: string } | { text: string };

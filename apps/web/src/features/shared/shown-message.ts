import type { MessageCode } from '@frontdoor/contract';

/** A message to show: a contract code (translated in the errors namespace) or a server text shown as it came. */
export type ShownMessage = { code: MessageCode } | { text: string };

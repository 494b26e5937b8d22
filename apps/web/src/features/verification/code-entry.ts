import type { ResendResult } from '@frontdoor/contract';

/** Where the code a resend mailed is typed: /code, or for a reset code /forgot-password for the address. */
export const codeEntryPath = (result: ResendResult, email: string): string =>
  result === 'verify_email' ? '/code' : `/forgot-password?${new URLSearchParams({ email }).toString()}`;

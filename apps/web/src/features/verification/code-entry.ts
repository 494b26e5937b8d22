import type { ResendResult } from '@frontdoor/contract';

/**
 * Where the code a resend mailed is typed: /code, or for a reset code /forgot-password; both read
 * the address this tab remembers, never one in their URL (a shared device's history keeps those).
 */
export const codeEntryPath = (result: ResendResult): string =>
  result === 'verify_email' ? '/code' : '/forgot-password';

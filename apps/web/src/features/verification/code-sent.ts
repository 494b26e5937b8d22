import { RESEND_COOLDOWN_SECONDS } from '@frontdoor/contract';

/**
 * The navigation state of a page that has just had a verification code mailed (sign-up, "send the
 * verification code"): when, so /code knows the server's resend cooldown is running. History keeps it
 * through a reload.
 */
export interface CodeSentState {
  codeSentAt: number;
}

export const codeSentState = (now = Date.now()): CodeSentState => ({ codeSentAt: now });

/** Whether a code sent by the previous page is still inside the resend cooldown (RESEND_COOLDOWN_SECONDS). */
export function isResendCoolingDown(state: unknown, now = Date.now()): boolean {
  if (typeof state !== 'object' || state === null || !('codeSentAt' in state)) return false;
  const sentAt = state.codeSentAt;
  return typeof sentAt === 'number' && now >= sentAt && now - sentAt < RESEND_COOLDOWN_SECONDS * 1000;
}

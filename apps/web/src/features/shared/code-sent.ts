import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { RESEND_COOLDOWN_SECONDS, STORAGE_KEYS } from '@frontdoor/contract';
import { read, session, write } from '../../lib/storage.ts';

/** The codes a page is for: the verification code, or the password-reset code. */
export type CodeSentPurpose = 'verification' | 'reset';

/**
 * The navigation state of a code page whose code was mailed as it opened: when. Its history entry
 * keeps it, so back, forward and reload do not take it for a new code.
 */
export interface CodeSentState {
  codeSentAt: number;
}

const codeSentAtOf = (state: unknown): number | null =>
  typeof state === 'object' && state !== null && typeof (state as CodeSentState).codeSentAt === 'number'
    ? (state as CodeSentState).codeSentAt
    : null;

/**
 * The address names its key by a short digest (FNV-1a, 32 bits: a name, not a secret), so the tab's
 * storage, which a shared device's next person can read, holds no address in clear.
 */
function digest(email: string): string {
  let hash = 0x811c9dc5;
  for (const char of email) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193) >>> 0;
  return hash.toString(36);
}
const keyOf = (purpose: CodeSentPurpose, email: string) =>
  `${STORAGE_KEYS.codeSent}:${purpose}:${digest(email)}`;
const notedAt = (purpose: CodeSentPurpose, email: string) =>
  Number(read(session, keyOf(purpose, email))) || 0;

/**
 * Notes that a code of `purpose` was mailed to `email` at `at`, unless a later one is noted. Kept in
 * the tab's sessionStorage, not a page's state: the server's resend cooldown runs on through the other
 * page of the flow (a new reset code asked for on /password-reset, then entered on /forgot-password).
 */
export function recordCodeSent(purpose: CodeSentPurpose, email: string, at = Date.now()): void {
  if (at > notedAt(purpose, email)) write(session, keyOf(purpose, email), String(at));
}

/** The seconds left of the resend cooldown (RESEND_COOLDOWN_SECONDS) of the last code noted; 0: none. */
export function resendWaitSeconds(purpose: CodeSentPurpose, email: string, now = Date.now()): number {
  const sentAt = notedAt(purpose, email);
  // none noted, or a clock set back since: never a countdown that could outlast the cooldown
  if (!sentAt || now < sentAt) return 0;
  return Math.max(0, Math.ceil((sentAt + RESEND_COOLDOWN_SECONDS * 1000 - now) / 1000));
}

/**
 * A code page's resend wait, what is left of the cooldown of the code mailed last: the one its
 * navigation state says the page before mailed, or (`mailedOnArrival`: the server mailed it as it sent
 * the browser here) the one of its arrival, which the entry then keeps; or a resend noted since.
 */
export function useResendWait(
  purpose: CodeSentPurpose,
  email: string | null,
  mailedOnArrival = false,
): number {
  const location = useLocation();
  const navigate = useNavigate();
  const [sentAt] = useState(() => codeSentAtOf(location.state) ?? (mailedOnArrival ? Date.now() : null));
  const [waitSeconds] = useState(() => {
    if (!email) return 0;
    if (sentAt !== null) recordCodeSent(purpose, email, sentAt);
    return resendWaitSeconds(purpose, email);
  });
  useEffect(() => {
    if (email && sentAt !== null && codeSentAtOf(location.state) === null)
      navigate(location, { replace: true, state: { codeSentAt: sentAt } satisfies CodeSentState });
  }, [email, sentAt, location, navigate]);
  return waitSeconds;
}

import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** A URL-safe random secret of `bytes` bytes of entropy. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** Keyed digest for short secrets (mailed codes): a stolen table cannot be brute-forced without the pepper. */
export const pepperedDigest = (pepper: string, value: string): string =>
  createHmac('sha256', pepper).update(value).digest('hex');

/**
 * A browser's name in the log: 8 hex characters of a keyed digest of its fd_csrf token. The failures
 * of one browser behind a school's one address can be told apart, while the line carries neither the
 * token (a copy would pass the CSRF check) nor anything about the person.
 */
export const browserTag = (pepper: string, csrfToken: string): string =>
  pepperedDigest(pepper, `browser-tag:${csrfToken}`).slice(0, 8);

/** `length` decimal digits from a CSPRNG (leading zeros allowed). */
export const randomDigits = (length: number): string =>
  Array.from({ length }, () => String(randomInt(0, 10))).join('');

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/**
 * The stored form of a classroom access code: keyed, so a copy of the table reveals no code, and
 * the same for every provider, so a code is unique in the deployment (a code typed at the wrong product
 * is found at exactly one other: the spec's 'not for …').
 */
export const accessCodeDigest = (pepper: string, code: string): string =>
  pepperedDigest(pepper, `access-code:${code}`);

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * A provider's form-posted answer (Apple: the code, and the name and email it sends only once) goes
 * from its cross-site POST to /oidc/interaction/<uid>/federated in this cookie, sealed, not in the
 * URL: a shared classroom device's history keeps every address it visited. Lax, as the interaction's
 * own cookie: the 303 after the POST is a top-level GET, which carries it.
 */
export const PROVIDER_ANSWER_COOKIE = 'fd_provider_answer';
/** The POST's 303 is followed at once; a minute is ample. */
export const PROVIDER_ANSWER_TTL_MS = 60 * 1000;

const IV_BYTES = 12;
const TAG_BYTES = 16;

const keyOf = (secret: Buffer): Buffer => Buffer.from(hkdfSync('sha256', secret, '', 'provider-answer', 32));

/**
 * AES-256-GCM of the answer with the time it was sealed, bound to its interaction's uid: it opens for
 * that interaction only, and only within PROVIDER_ANSWER_TTL_MS, whatever the browser keeps.
 */
export function sealAnswer(secret: Buffer, uid: string, answer: URLSearchParams, now: number): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  cipher.setAAD(Buffer.from(uid));
  const sealed = Buffer.concat([cipher.update(`${now}\n${answer.toString()}`), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The answer sealed for `uid`, or null: none, another interaction's, altered, or sealed too long ago. */
export function openAnswer(
  secret: Buffer,
  uid: string,
  sealed: string | undefined,
  now: number,
): URLSearchParams | null {
  if (!sealed) return null;
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(uid));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const opened = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    const [sealedAt = '', answer = ''] = opened.toString().split(/\n(.*)/s);
    return now - Number(sealedAt) < PROVIDER_ANSWER_TTL_MS ? new URLSearchParams(answer) : null;
  } catch {
    return null;
  }
}

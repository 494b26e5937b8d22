import {
  CODE_MAX_ATTEMPTS,
  EMAIL_CODE_LENGTH,
  RESET_CODE_TTL_MS,
  VERIFICATION_CODE_TTL_MS,
  mailboxKey,
} from '@frontdoor/contract';
import type { Transaction } from 'kysely';
import { claimOnce } from '../db/claim-once.ts';
import type { Db } from '../db/index.ts';
import type { Database } from '../db/types.ts';
import { pepperedDigest, randomDigits, safeEqual } from './crypto.ts';

export type CodePurpose = 'verify' | 'reset';
const TTL: Record<CodePurpose, number> = { verify: VERIFICATION_CODE_TTL_MS, reset: RESET_CODE_TTL_MS };

/** Bound to the account and purpose, so a code of one purpose or user never matches another. */
export const digest = (pepper: string, userId: string, purpose: CodePurpose, code: string) =>
  pepperedDigest(pepper, `${purpose}:${userId}:${code}`);

/**
 * Issues a new mailed code; earlier live codes of the same purpose stop working. Runs in the
 * caller's transaction, which also writes the mail carrying the code (accounts.ts mailCode) with
 * the code's `id`, so the outbox sends it only while it is live.
 */
export async function issueCode(
  trx: Transaction<Database>,
  pepper: string,
  user: { id: string; email: string },
  purpose: CodePurpose,
  now: number,
): Promise<{ code: string; id: number }> {
  const userId = user.id;
  const code = randomDigits(EMAIL_CODE_LENGTH);
  await voidCodes(trx, userId, purpose, now);
  const { id } = await trx
    .insertInto('email_codes')
    .values({
      user_id: userId,
      purpose,
      code_hash: digest(pepper, userId, purpose, code),
      attempts: 0,
      expires_at: now + TTL[purpose],
      consumed_at: null,
      created_at: now,
      // the hourly codes one inbox may be mailed count by it (limits.ts codeSendWaitMs)
      mailbox: mailboxKey(user.email),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { code, id };
}

/** Mailed codes that can still be used: not replaced, used, expired or out of attempts (gone: pruned). */
export const liveMailedCodes = (db: Db, now: number) =>
  db
    .selectFrom('email_codes')
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .where('attempts', '<', CODE_MAX_ATTEMPTS);

/** Whether the account has a code of this purpose that can still be used. */
export async function hasLiveCode(
  db: Db,
  userId: string,
  purpose: CodePurpose,
  now: number,
): Promise<boolean> {
  const row = await liveMailedCodes(db, now)
    .select('id')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether a code can still be used. */
export async function isLiveCode(db: Db, codeId: number, now: number): Promise<boolean> {
  const row = await liveMailedCodes(db, now).select('id').where('id', '=', codeId).executeTakeFirst();
  return row !== undefined;
}

/** Ends the account's live codes of this purpose. */
export async function voidCodes(db: Db, userId: string, purpose: CodePurpose, now: number): Promise<void> {
  await db
    .updateTable('email_codes')
    .set({ consumed_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('consumed_at', 'is', null)
    .execute();
}

/** When the last code of this purpose was issued (for the resend cooldown), or null. */
export async function lastIssuedAt(db: Db, userId: string, purpose: CodePurpose): Promise<number | null> {
  const row = await db
    .selectFrom('email_codes')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.created_at ?? null;
}

/** `lastMismatch`: a wrong guess that used up the code's last try. */
export type CodeCheck =
  | { result: 'ok'; codeId: number }
  | { result: 'mismatch' | 'lastMismatch' | 'expired' | 'attemptLimit' | 'none' };

/**
 * Checks a code without consuming it; the caller consumes it in the transaction that applies its
 * effect (consumeCode). A wrong guess counts against the live code; after `maxAttempts` it is dead.
 */
export async function checkCode(
  db: Db,
  pepper: string,
  userId: string,
  purpose: CodePurpose,
  code: string,
  now: number,
  { maxAttempts = CODE_MAX_ATTEMPTS }: { maxAttempts?: number } = {},
): Promise<CodeCheck> {
  const row = await db
    .selectFrom('email_codes')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('consumed_at', 'is', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return { result: 'none' };
  if (row.attempts >= maxAttempts) return { result: 'attemptLimit' };
  if (row.expires_at <= now) return { result: 'expired' };
  if (!safeEqual(row.code_hash, digest(pepper, userId, purpose, code))) {
    await db
      .updateTable('email_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', row.id)
      .execute();
    return { result: row.attempts + 1 >= maxAttempts ? 'lastMismatch' : 'mismatch' };
  }
  return { result: 'ok', codeId: row.id };
}

/**
 * Whether `code` is the last code of this purpose the account used up, no longer ago than a code
 * lives: the same request sent again after its answer was lost.
 */
export async function wasJustUsed(
  db: Db,
  pepper: string,
  userId: string,
  purpose: CodePurpose,
  code: string,
  now: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('email_codes')
    .select(['code_hash', 'consumed_at'])
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('consumed_at', 'is not', null)
    .orderBy('consumed_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return (
    row?.consumed_at != null &&
    now - row.consumed_at < TTL[purpose] &&
    safeEqual(row.code_hash, digest(pepper, userId, purpose, code))
  );
}

/** Marks a code used; false when a concurrent request used it first. */
export async function consumeCode(db: Db, codeId: number, now: number): Promise<boolean> {
  return claimOnce(db, 'email_codes', (code) => code.where('id', '=', codeId), now);
}

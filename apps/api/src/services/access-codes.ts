import { ACCESS_CODE_LENGTH, COOKIE_HASH_TTL_MS } from '@frontdoor/contract';
import type { Db } from '../db/index.ts';
import { randomDigits, randomToken, sha256 } from './crypto.ts';

/** A classroom access code: six digits (§1 "six-digit"), bound to one service provider and one student. */
export async function createAccessCode(db: Db, spId: string, userId: string, now: number): Promise<string> {
  for (;;) {
    const code = randomDigits(ACCESS_CODE_LENGTH);
    const taken = await db
      .selectFrom('access_codes')
      .select('code')
      .where('code', '=', code)
      .executeTakeFirst();
    if (taken) continue;
    await db
      .insertInto('access_codes')
      .values({ code, sp_id: spId, user_id: userId, created_at: now, revoked_at: null })
      .execute();
    return code;
  }
}

export async function findAccessCode(db: Db, code: string) {
  return db
    .selectFrom('access_codes')
    .selectAll()
    .where('code', '=', code)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** A short-lived single-use hash that auth/cookie trades for a session; only its sha256 is stored. */
export async function createCookieHash(db: Db, userId: string, spId: string, now: number): Promise<string> {
  const hash = randomToken(32);
  await db
    .insertInto('cookie_hashes')
    .values({
      hash_digest: sha256(hash),
      user_id: userId,
      sp_id: spId,
      expires_at: now + COOKIE_HASH_TTL_MS,
      used_at: null,
      created_at: now,
    })
    .execute();
  return hash;
}

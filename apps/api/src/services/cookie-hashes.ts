import { COOKIE_HASH_TTL_MS } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { claimOnce } from '../db/claim-once.ts';
import type { Db } from '../db/index.ts';
import { randomToken, sha256 } from './crypto.ts';
import { ApiError } from './http.ts';
import { findStartedLoginParams } from './login-requests.ts';
import { allowsReturnUrl, findServiceProvider } from './service-providers.ts';
import { replaceSession } from './sessions.ts';

/**
 * auth/cookie's hashes: what a good access code is traded for, then redeemed by a browser redirect.
 * The stored digest covers the hash and the browser's fd_csrf cookie, so only the browser that typed
 * the code can redeem it: a hash sent to someone else's browser (login CSRF) matches nothing.
 */
const digestOf = (hash: string, browser: string): string => sha256(`${hash}\n${browser}`);

/** A single-use hash for `browser` (its fd_csrf token), alive for COOKIE_HASH_TTL_MS. */
export async function createCookieHash(
  db: Db,
  input: { userId: string; spId: string; browser: string },
  now: number,
): Promise<string> {
  const hash = randomToken(32);
  await db
    .insertInto('cookie_hashes')
    .values({
      hash_digest: digestOf(hash, input.browser),
      user_id: input.userId,
      sp_id: input.spId,
      expires_at: now + COOKIE_HASH_TTL_MS,
      used_at: null,
      created_at: now,
    })
    .execute();
  return hash;
}

export interface CookieRedemption {
  hash: string;
  returnUrl: string;
  /** The login csrf of the sign-in request the browser holds; it must be its service provider's. */
  token: string;
  /** The redeeming browser's fd_csrf cookie. */
  browser: string | undefined;
  /** The sessions the browser's cookies named before (a shared device's previous person): sessionsToEnd. */
  previousSessions: string[];
  /** The redeeming client's address, for the audit log. */
  address: string;
}

/** GET auth/cookie: spends the hash once and returns the new session's token. */
export async function redeemCookieHash(ctx: AppContext, input: CookieRedemption): Promise<string> {
  if (!input.browser) throw new ApiError(400, 'cookieHashInvalid');
  const now = ctx.now();
  const digest = digestOf(input.hash, input.browser);
  const row = await ctx.db
    .selectFrom('cookie_hashes')
    .selectAll()
    .where('hash_digest', '=', digest)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row?.sp_id) throw new ApiError(400, 'cookieHashInvalid');
  const sp = await findServiceProvider(ctx.db, row.sp_id);
  if (!sp) throw new ApiError(400, 'cookieHashInvalid');
  if (!allowsReturnUrl(sp, input.returnUrl)) throw new ApiError(400, 'returnUrlNotAllowed');
  const params = await findStartedLoginParams(ctx.db, input.token, now);
  if (!params || params.sp_id !== sp.spId) throw new ApiError(400, 'loginRequestNotFound');
  return ctx.db.transaction().execute(async (trx) => {
    // a concurrent request redeemed it first
    if (!(await claimOnce(trx, 'cookie_hashes', (used) => used.where('hash_digest', '=', digest), now)))
      throw new ApiError(400, 'cookieHashInvalid');
    return replaceSession(trx, input.previousSessions, row.user_id, now, {
      via: 'cookie',
      address: input.address,
      spId: sp.spId,
    });
  });
}

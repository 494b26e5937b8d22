import { INVITE_TTL_MS } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { queueAccountMail } from './accounts.ts';
import { randomToken } from './crypto.ts';
import { findUserByEmail } from './users.ts';

/**
 * Creates an invitation for an address and mails its link (/invite/<code>): one transaction. Without
 * a language the mail is in English and its page in the browser's language.
 */
export async function createInvite(
  ctx: Pick<AppContext, 'db' | 'config' | 'outbox' | 'now'>,
  email: string,
  language?: string,
): Promise<string> {
  const code = randomToken(18);
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('invites')
      .values({ code, email, created_at: now, expires_at: now + INVITE_TTL_MS, used_at: null })
      .execute();
    await queueAccountMail(
      trx,
      ctx,
      { email, first: '', language: language ?? 'en' },
      { kind: 'invite', code, ...(language === undefined && { browserLanguage: true }) },
    );
  });
  ctx.outbox.notify();
  return code;
}

/**
 * What an invitation's code reads: `live` with the address it was sent to while unused and unexpired;
 * `accepted` once used by an account that still exists (the link opened again, its sign-up not yet
 * confirmed or long done: the person goes on by signing in); `unknown` for any other code.
 */
export async function readInvite(
  ctx: Pick<AppContext, 'db' | 'now'>,
  code: string,
): Promise<{ state: 'live'; email: string } | { state: 'accepted' } | { state: 'unknown' }> {
  const invite = await ctx.db
    .selectFrom('invites')
    .select(['email', 'used_at', 'expires_at'])
    .where('code', '=', code)
    .executeTakeFirst();
  if (!invite) return { state: 'unknown' };
  if (invite.used_at === null)
    return invite.expires_at > ctx.now() ? { state: 'live', email: invite.email } : { state: 'unknown' };
  return (await findUserByEmail(ctx.db, invite.email)) ? { state: 'accepted' } : { state: 'unknown' };
}

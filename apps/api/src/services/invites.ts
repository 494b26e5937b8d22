import { INVITE_TTL_MS } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { mailLink, pickLanguage, type MailKind } from '../mail/render.ts';
import { queueAccountMail } from './accounts.ts';
import { randomToken } from './crypto.ts';
import { deleteUnsentMails } from './outbox.ts';
import { findUserByEmail } from './users.ts';

/**
 * Creates an invitation for an address and mails its link (/invite/<code>): one transaction. Without
 * a language the mail is in English and its page in the browser's language. Answers the code and the
 * link the mail carries (it names this process's PUBLIC_URL: the operator sees which origin it is).
 */
export async function createInvite(
  ctx: Pick<AppContext, 'db' | 'config' | 'outbox' | 'now'>,
  email: string,
  language?: string,
): Promise<{ code: string; link: string }> {
  const code = randomToken(18);
  const now = ctx.now();
  const mail: MailKind = { kind: 'invite', code, ...(language === undefined && { browserLanguage: true }) };
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('invites')
      .values({ code, email, created_at: now, expires_at: now + INVITE_TTL_MS, used_at: null })
      .execute();
    await queueAccountMail(trx, ctx, { email, first: '', language: language ?? 'en' }, mail);
  });
  ctx.outbox.notify();
  return { code, link: mailLink(ctx.config.publicUrl, mail, pickLanguage(language ?? 'en')) };
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

/** `invite list`: the invitations, newest first (of one address, if given), never their codes. */
export async function listInvites(ctx: Pick<AppContext, 'db' | 'now'>, email?: string) {
  const now = ctx.now();
  let query = ctx.db
    .selectFrom('invites')
    .select(['email', 'created_at', 'expires_at', 'used_at'])
    .orderBy('created_at', 'desc')
    .limit(LISTED_INVITES);
  if (email !== undefined) query = query.where('email', '=', email);
  const rows = await query.execute();
  return rows.map((row) => ({
    email: row.email,
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
    state: row.used_at !== null ? 'used' : row.expires_at <= now ? 'expired' : 'live',
  }));
}

/** How many invitations `invite list` shows. */
const LISTED_INVITES = 200;

/**
 * Revokes the unused, unexpired invitations of a code or of an address: their rows go, so the link
 * opens nothing, and so does their mail if it has not gone yet (SMTP down). Returns how many.
 */
export async function revokeInvites(
  ctx: Pick<AppContext, 'db' | 'now'>,
  which: { code: string } | { email: string },
): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    const query = trx.deleteFrom('invites').where('used_at', 'is', null).where('expires_at', '>', ctx.now());
    const revoked = await (
      'code' in which ? query.where('code', '=', which.code) : query.where('email', '=', which.email)
    )
      .returning('code')
      .execute();
    for (const { code } of revoked) await deleteUnsentMails(trx, { containing: `/invite/${code}` });
    return revoked.length;
  });
}

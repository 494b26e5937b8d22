import { INVITE_TTL_MS } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { queueAccountMail } from './accounts.ts';
import { randomToken } from './crypto.ts';

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

/** The address an unused, unexpired invitation was sent to; undefined for any other code. */
export async function findInviteEmail(
  ctx: Pick<AppContext, 'db' | 'now'>,
  code: string,
): Promise<string | undefined> {
  const invite = await ctx.db
    .selectFrom('invites')
    .select('email')
    .where('code', '=', code)
    .where('used_at', 'is', null)
    .where('expires_at', '>', ctx.now())
    .executeTakeFirst();
  return invite?.email;
}

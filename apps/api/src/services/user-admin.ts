import { ABUSE_LIMITS, cleanName } from '@frontdoor/contract';
import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/index.ts';
import type { User } from '../db/types.ts';
import { deleteAccountPayloads } from '../identity/adapter.ts';
import { audit } from './audit.ts';
import { queueCrmErasure } from './crm.ts';
import { lockAccount } from './accounts.ts';
import { accountDelayMs } from './limits.ts';
import { deleteUnsentMails } from './outbox.ts';
import { liveSession, revokeUserSessions } from './sessions.ts';
import { rolesOf } from './users.ts';

type AdminCtx = Pick<AppContext, 'db' | 'now'>;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const isLocked = (user: User, now: number): boolean =>
  user.locked_at !== null && user.locked_at + ABUSE_LIMITS.accountLockMs > now;

/**
 * Accounts for `user list`, newest first: who they are and their state, never a hash. With
 * `inactiveSince` (epoch ms), the dormant ones a retention rule deletes: last signed in (or, never
 * signed in, made) before then, the longest unused first.
 */
export async function listUsers(
  ctx: AdminCtx,
  options: { limit: number; inactiveSince?: number | undefined },
) {
  const now = ctx.now();
  const { inactiveSince } = options;
  let query = ctx.db.selectFrom('users').selectAll().limit(options.limit);
  if (inactiveSince === undefined) query = query.orderBy('created_at', 'desc');
  else {
    const lastUse = sql<number>`coalesce(last_sign_in_at, created_at)`;
    query = query.where(lastUse, '<', inactiveSince).orderBy(lastUse).orderBy('id');
  }
  const rows = await query.execute();
  return rows.map((user) => ({
    id: user.id,
    email: user.email,
    first: user.first,
    last: user.last,
    confirmed: user.confirmed === 1,
    isStudent: user.is_student === null ? null : user.is_student === 1,
    locked: isLocked(user, now),
    createdAt: iso(user.created_at),
    lastSignInAt: iso(user.last_sign_in_at),
    // when an operator turned it off (`user disable`), null while it is on
    disabledAt: iso(user.disabled_at),
  }));
}

/**
 * `user find`: every account of a person known by an address: the account whose address it is, and
 * each account a provider that asserts no trusted email made for them (Clever, ClassLink, Microsoft),
 * whose identity names it. A family's request to delete a child concerns all of them.
 */
export async function findAccounts(ctx: AdminCtx, email: string) {
  const rows = await ctx.db
    .selectFrom('users')
    .leftJoin('user_identities', 'user_identities.user_id', 'users.id')
    .select([
      'users.id',
      'users.email',
      'users.first',
      'users.last',
      'users.confirmed',
      'users.created_at',
      'user_identities.provider',
      'user_identities.email as identity_email',
    ])
    .where((eb) => eb.or([eb('users.email', '=', email), eb('user_identities.email', '=', email)]))
    .orderBy('users.created_at')
    .execute();
  const foundAccount = (row: (typeof rows)[number]) => ({
    id: row.id,
    email: row.email,
    first: row.first,
    last: row.last,
    confirmed: row.confirmed === 1,
    createdAt: iso(row.created_at),
    namedBy: row.email === email ? ['account'] : [],
  });
  const accounts = new Map<string, ReturnType<typeof foundAccount>>();
  for (const row of rows) {
    const account = accounts.get(row.id) ?? foundAccount(row);
    if (row.provider && row.identity_email === email && !account.namedBy.includes(row.provider))
      account.namedBy.push(row.provider);
    accounts.set(row.id, account);
  }
  // the account whose address it is first, then the others as they were made
  const own = (account: { namedBy: string[] }) => (account.namedBy.includes('account') ? 0 : 1);
  return { accounts: [...accounts.values()].sort((a, b) => own(a) - own(b)) };
}

/**
 * One account for `user show`: its state, linked identities, live sessions, preferences and live
 * access codes, never a hash or a code; with `audit list` for its id, what the portal keeps of them.
 */
export async function showUser(ctx: AdminCtx & Pick<AppContext, 'config'>, user: User) {
  const now = ctx.now();
  const identities = await ctx.db
    .selectFrom('user_identities')
    .select(['provider', 'subject', 'email', 'created_at', 'claims'])
    .where('user_id', '=', user.id)
    .execute();
  const sessions = await ctx.db
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', user.id)
    .where(liveSession(now, ctx.config.sessionIdleMs))
    .executeTakeFirstOrThrow();
  const subscriptions = await ctx.db
    .selectFrom('subscriptions')
    .select(['subscription_id', 'subscribed', 'updated_at'])
    .where('user_id', '=', user.id)
    .orderBy('subscription_id')
    .execute();
  const mails = await ctx.db
    .selectFrom('outbox')
    .select([
      'id',
      'created_at',
      'attempts',
      'delivered_at',
      'failed_at',
      'rejected_at',
      'cancelled_at',
      'last_error',
      'request_id',
      'template',
    ])
    .where('user_id', '=', user.id)
    .where('kind', '=', 'mail')
    .orderBy('id', 'desc')
    .limit(SHOWN_MAILS)
    .execute();
  const delayedUntil = (user.last_failed_at ?? 0) + accountDelayMs(user.failed_attempts);
  const accessCodes = await ctx.db
    .selectFrom('access_codes')
    .select(['id', 'sp_id', 'expires_at'])
    .where('user_id', '=', user.id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .execute();
  return {
    id: user.id,
    email: user.email,
    first: user.first,
    last: user.last,
    namesProven: user.names_proven === 1,
    confirmed: user.confirmed === 1,
    mustReset: user.must_reset === 1,
    isStudent: user.is_student === null ? null : user.is_student === 1,
    roles: rolesOf(user),
    language: user.language,
    hasPassword: user.password_hash !== null,
    failedAttempts: user.failed_attempts,
    lockedAt: isLocked(user, now) ? iso(user.locked_at) : null,
    // the account's growing delay from its 5th failure: no password or code is checked before then
    delayedUntil: delayedUntil > now ? iso(delayedUntil) : null,
    identities: identities.map((i) => ({
      provider: i.provider,
      subject: i.subject,
      email: i.email,
      linkedAt: iso(i.created_at),
      // what the provider asserted at its latest sign-in (a roster's district, schools, roles)
      claims: storedClaims(i.claims),
    })),
    liveSessions: Number(sessions.n),
    description: user.description,
    // the mail preferences it stored (docs/api.md says which of them went on to the CRM)
    subscriptions: subscriptions.map((row) => ({
      id: row.subscription_id,
      subscribed: row.subscribed === 1,
      updatedAt: iso(row.updated_at),
    })),
    // when they last went to the CRM, which then holds the address (null: never, or erased since)
    crmContactAt: user.crm_contact_at === null ? null : iso(user.crm_contact_at),
    // live access codes: which product, until when; never the code
    accessCodes: accessCodes.map((code) => ({
      id: code.id,
      spId: code.sp_id,
      expiresAt: iso(code.expires_at),
    })),
    // "did my mail go out?": its latest mails (a delivered one's row is kept 7 days), never their text
    mails: mails.map((mail) => ({
      id: mail.id,
      // which mail (verify, reset, invite, locked; null before migration 023), never its address or code
      template: mail.template,
      queuedAt: iso(mail.created_at),
      state: mailState(mail),
      attempts: mail.attempts,
      deliveredAt: mail.delivered_at === null ? null : iso(mail.delivered_at),
      lastError: mail.last_error,
      queuedByReqId: mail.request_id,
    })),
    createdAt: iso(user.created_at),
    updatedAt: iso(user.updated_at),
    // when a session last started for it (null: never since migration 018): `user list --inactive-since`
    lastSignInAt: iso(user.last_sign_in_at),
    // when an operator turned it off (`user disable`): no session starts for it; null while it is on
    disabledAt: iso(user.disabled_at),
  };
}

/**
 * An identity's user_identities.claims as stored, all of it (a family's request to see what is kept
 * reads this): null when nothing was kept (linked before migration 007), the text when not JSON.
 */
function storedClaims(json: string | null): unknown {
  if (json === null) return null;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

/** How many of an account's latest mails `user show` lists. */
const SHOWN_MAILS = 10;

/** Where an outbox row stands, in the words of its metrics (frontdoor_outbox_*). */
function mailState(row: {
  attempts: number;
  delivered_at: number | null;
  failed_at: number | null;
  rejected_at: number | null;
  cancelled_at: number | null;
}): 'delivered' | 'failed' | 'rejected' | 'cancelled' | 'retrying' | 'pending' {
  if (row.delivered_at !== null) return 'delivered';
  if (row.failed_at !== null) return 'failed';
  if (row.rejected_at !== null) return 'rejected';
  if (row.cancelled_at !== null) return 'cancelled';
  return row.attempts > 0 ? 'retrying' : 'pending';
}

/**
 * Deletes an account: its sessions, codes, identities, access codes, preferences and outbox rows go
 * with it (foreign keys cascade), and so do the authorization server's grants, codes and tokens
 * issued to it; the CRM is told to erase the address it may have learnt (queueCrmErasure). The audit
 * log keeps the id and the events (what was done, the accountability trail), never the email, and
 * no longer the client addresses of its sign-ins: a child's sign-in history by IP address.
 */
export async function deleteUser(ctx: AdminCtx & Pick<AppContext, 'config'>, user: User): Promise<boolean> {
  const deleted = await ctx.db.transaction().execute(async (trx) => {
    // taken first, as a code request, a confirmation and a reset take it: the cascade locks the
    // account's row before its codes and identities, they the other way round (a deadlock on PostgreSQL)
    await lockAccount(trx, user.id);
    await queueCrmErasure(ctx, trx, user);
    await trx
      .updateTable('audit_log')
      .set({ address: null })
      .where('user_id', '=', user.id)
      .where('address', 'is not', null)
      .execute();
    await deleteAccountPayloads(trx, user.id);
    // what is kept by address, not by the account's id: an invitation (whose link would make the
    // account again), its mail not sent yet, the development mailbox. Only the account's own address:
    // one its identities asserted may be another person's (an untrusted provider's claim)
    await trx.deleteFrom('invites').where('email', '=', user.email).execute();
    await deleteUnsentMails(trx, { to: [user.email] });
    await trx.deleteFrom('mailbox').where('to_address', '=', user.email).execute();
    const res = await trx.deleteFrom('users').where('id', '=', user.id).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  });
  if (deleted) await audit(ctx, { event: 'account.deleted', userId: user.id, detail: { by: 'admin' } });
  return deleted;
}

/**
 * Ends an account's live sessions, as a password reset ends them, deletes the authorization
 * server's grants, codes and tokens issued to it, as at its deletion, and spends the class-code
 * links (cookie hashes) not yet redeemed: what `user sign-out`, `user disable` and `user enable` do,
 * in their transaction. Returns how many live sessions ended.
 */
async function endAccountSessions(trx: Db, userId: string, now: number, idleMs: number): Promise<number> {
  const live = await trx
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where(liveSession(now, idleMs))
    .executeTakeFirstOrThrow();
  await revokeUserSessions(trx, userId, now);
  await deleteAccountPayloads(trx, userId);
  await trx
    .updateTable('cookie_hashes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
  return Number(live.n);
}

/**
 * Signs an account out everywhere (`user sign-out`: a teacher who left): its live sessions end and
 * the authorization server's payloads issued to it go (endAccountSessions). Returns how many live
 * sessions ended.
 */
export async function signOutEverywhere(
  ctx: AdminCtx & Pick<AppContext, 'config'>,
  user: User,
): Promise<number> {
  const now = ctx.now();
  const ended = await ctx.db
    .transaction()
    .execute((trx) => endAccountSessions(trx, user.id, now, ctx.config.sessionIdleMs));
  await audit(ctx, {
    event: 'account.signed-out',
    userId: user.id,
    detail: { by: 'admin', sessions: ended },
  });
  return ended;
}

/**
 * Turns an account off (`user disable`: a teacher who left, a stolen laptop, an account under
 * investigation) and keeps its data: disabled_at is set, its sessions end (endAccountSessions), and
 * no session starts for it until `user enable` (services/sessions.ts createSession). An account
 * already off has its sessions revoked again without a second audit entry (one a sign-in wrote as
 * the first disable ran goes too, uncounted: liveSession hid it already). Returns how many live
 * sessions ended.
 */
export async function disableUser(ctx: AdminCtx & Pick<AppContext, 'config'>, user: User): Promise<number> {
  const now = ctx.now();
  const { ended, already } = await ctx.db.transaction().execute(async (trx) => {
    // taken first, as deleteUser takes it: a sign-up's confirmation or a reset of the account waits
    await lockAccount(trx, user.id);
    const row = await trx
      .selectFrom('users')
      .select('disabled_at')
      .where('id', '=', user.id)
      .executeTakeFirst();
    const ended = await endAccountSessions(trx, user.id, now, ctx.config.sessionIdleMs);
    if (row?.disabled_at !== null) return { ended, already: true };
    await trx.updateTable('users').set({ disabled_at: now }).where('id', '=', user.id).execute();
    return { ended, already: false };
  });
  if (!already)
    await audit(ctx, {
      event: 'account.disabled',
      userId: user.id,
      detail: { by: 'admin', sessions: ended },
    });
  return ended;
}

/**
 * Turns a disabled account on again (`user enable`); an account already on is left as it is. What
 * a sign-in began while it was off ends here (endAccountSessions), else the enable would finish it
 * for that browser (a stolen laptop's): a session written as the disable ran (on PostgreSQL a
 * sign-in's insert reads the account as on until the disable commits), hidden only by liveSession;
 * an authorization code issued to it; a class-code link refused at auth/cookie, still unspent.
 */
export async function enableUser(ctx: AdminCtx & Pick<AppContext, 'config'>, user: User): Promise<void> {
  const now = ctx.now();
  const enabled = await ctx.db.transaction().execute(async (trx) => {
    await lockAccount(trx, user.id);
    const res = await trx
      .updateTable('users')
      .set({ disabled_at: null })
      .where('id', '=', user.id)
      .where('disabled_at', 'is not', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    await endAccountSessions(trx, user.id, now, ctx.config.sessionIdleMs);
    return true;
  });
  if (enabled) await audit(ctx, { event: 'account.enabled', userId: user.id, detail: { by: 'admin' } });
}

/**
 * Sets an account's names: the remedy for names a stranger typed at a sign-up that its owner then
 * confirmed in another browser (names_proven 0). Names an administrator sets are proven.
 */
export async function renameUser(ctx: AdminCtx, user: User, names: { first: string; last: string }) {
  await ctx.db
    .updateTable('users')
    .set({
      first: cleanName(names.first),
      last: cleanName(names.last),
      names_proven: 1,
      updated_at: ctx.now(),
    })
    .where('id', '=', user.id)
    .execute();
  await audit(ctx, { event: 'account.renamed', userId: user.id, detail: { by: 'admin' } });
  return { renamed: true };
}

import { EMAIL_PREFERENCES, SUBSCRIPTION_IDS } from '@frontdoor/contract';
import type { SubscriptionChange } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/index.ts';
import { isPostgres } from '../db/dialect.ts';
import type { User } from '../db/types.ts';
import { isPlaceholderEmail, linkedIdentities } from '../identity/linked-identities.ts';
import { enqueue } from './outbox.ts';

/**
 * Whether the CRM may learn of an account's mail preferences: never a student's (one who answered
 * the student question Yes, signed up as a student, whom a roster names a student, or to whom an
 * operator gave a class code, until that code is pruned: a child's address is no marketing contact,
 * whatever they ticked or answered), never an address that takes no mail.
 */
async function mayReachCrm(db: Db, user: User): Promise<boolean> {
  if (isPlaceholderEmail(user.email) || user.is_student === 1 || user.description === 'student') return false;
  const classCode = await db
    .selectFrom('access_codes')
    .select('id')
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  if (classCode) return false;
  const identities = await linkedIdentities(db, user.id);
  return !identities.some((identity) => identity.roles?.includes('student'));
}

/**
 * The account's stored choice for each of the four topics (GET hs/subscription), so that the page shows
 * what was saved and unticks only what the person unticked; a topic never saved is not subscribed.
 */
export async function storedSubscriptions(ctx: AppContext, user: User): Promise<SubscriptionChange[]> {
  const rows = await ctx.db
    .selectFrom('subscriptions')
    .select(['subscription_id', 'subscribed'])
    .where('user_id', '=', user.id)
    .execute();
  const subscribed = new Set(rows.filter((row) => row.subscribed === 1).map((row) => row.subscription_id));
  return EMAIL_PREFERENCES.map((p) => ({
    id: SUBSCRIPTION_IDS[p],
    subscribed: subscribed.has(SUBSCRIPTION_IDS[p]),
  }));
}

/**
 * Stores the preferences and (when a webhook is configured and the CRM may learn of them,
 * mayReachCrm) an outbox row of kind `crm`, in one transaction; returns the row's id, for the caller
 * to try it at once (outbox.deliver).
 */
export async function saveSubscriptions(
  ctx: AppContext,
  user: User,
  changes: SubscriptionChange[],
): Promise<number | null> {
  const now = ctx.now();
  return ctx.db.transaction().execute(async (trx) => {
    // the row as it stands now, locked on PostgreSQL until this commits: an answer to the student
    // question from another tab lands before (and is read here) or after (and withdraws this row)
    let current = trx.selectFrom('users').selectAll().where('id', '=', user.id);
    if (isPostgres(ctx.db)) current = current.forUpdate();
    const account = (await current.executeTakeFirst()) ?? user;
    for (const change of changes) {
      await trx
        .insertInto('subscriptions')
        .values({
          user_id: user.id,
          subscription_id: change.id,
          subscribed: change.subscribed ? 1 : 0,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'subscription_id'])
            .doUpdateSet({ subscribed: change.subscribed ? 1 : 0, updated_at: now }),
        )
        .execute();
    }
    if (!ctx.config.crmWebhookUrl || !(await mayReachCrm(trx, account))) return null;
    const payload = JSON.stringify({
      email: account.email,
      userId: account.id,
      subscriptionChanges: changes,
      changedAt: now,
    });
    // from now on the CRM may know the address: a deletion asks it to erase the contact
    await trx.updateTable('users').set({ crm_contact_at: now }).where('id', '=', account.id).execute();
    return enqueue(trx, { kind: 'crm', payload, userId: account.id, now });
  });
}

/**
 * Within the transaction that records an account's Yes to the student question, with the account's
 * row as it was before (`before`, read and locked in it): the account's CRM calls not delivered
 * (never tried, failed and waiting for their retry, or given up: any would reach the CRM after the
 * erasure) are cancelled, and where the CRM may have learnt the address (crmMayKnow: a call queued,
 * even one sent and pruned since, or being sent now) it is told to erase the contact, as for a
 * deleted account: a child's address is no marketing contact.
 */
export async function withdrawFromCrm(
  ctx: Pick<AppContext, 'config' | 'now'>,
  trx: Db,
  before: User,
): Promise<void> {
  const now = ctx.now();
  // one conditional write: a call the outbox claims meanwhile is left to it (the erasure may reach the
  // CRM before it: the outbox sends a few rows at once and instances in parallel, so changedAt orders them);
  // one given up at the attempt limit goes too, its payload with it (`outbox retry` would send it)
  await trx
    .updateTable('outbox')
    .set({ cancelled_at: now, next_attempt_at: null, payload: null })
    .where('kind', '=', 'crm')
    .where('user_id', '=', before.id)
    .where('claimed_by', 'is', null)
    .where('delivered_at', 'is', null)
    .where('cancelled_at', 'is', null)
    .execute();
  if (await queueCrmErasure(ctx, trx, before))
    await trx.updateTable('users').set({ crm_contact_at: null }).where('id', '=', before.id).execute();
}

/**
 * Whether the CRM may have learnt an account's address: its preferences were queued for it
 * (crm_contact_at), or, for those queued before migration 015 recorded it, a webhook is configured
 * here, the account stored preferences and mayReachCrm let them go on.
 */
async function crmMayKnow(ctx: Pick<AppContext, 'config'>, trx: Db, user: User): Promise<boolean> {
  if (user.crm_contact_at !== null) return true;
  if (!ctx.config.crmWebhookUrl || !(await mayReachCrm(trx, user))) return false;
  const stored = await trx
    .selectFrom('subscriptions')
    .select('user_id')
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  return stored !== undefined;
}

/**
 * Within a deletion's transaction (or a Yes to the student question's, withdrawFromCrm): when the
 * CRM may have learnt the account's address (crmMayKnow), an outbox row `{email, userId, deleted:
 * true, changedAt}` that tells it to erase the contact; returns whether it wrote one. The row names no
 * account (a deleted one is gone) and waits in the outbox for a process with the webhook: the admin
 * CLI deleting the account may have none.
 */
export async function queueCrmErasure(
  ctx: Pick<AppContext, 'config' | 'now'>,
  trx: Db,
  user: User,
): Promise<boolean> {
  if (!(await crmMayKnow(ctx, trx, user))) return false;
  const now = ctx.now();
  const payload = JSON.stringify({ email: user.email, userId: user.id, deleted: true, changedAt: now });
  await enqueue(trx, { kind: 'crm', payload, userId: null, now });
  return true;
}

import type { SubscriptionChange } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/index.ts';
import type { User } from '../db/types.ts';
import { isPlaceholderEmail, linkedIdentities } from '../identity/linked-identities.ts';
import { enqueue } from './outbox.ts';

/**
 * Whether the CRM may learn of an account's mail preferences: never a student's (one who answered
 * the student question Yes, signed up as a student, or whom a roster names a student: a child's
 * address is no marketing contact, whatever they ticked), never an address that takes no mail.
 */
export async function mayReachCrm(db: Db, user: User): Promise<boolean> {
  if (isPlaceholderEmail(user.email) || user.is_student === 1 || user.description === 'student') return false;
  const identities = await linkedIdentities(db, user.id);
  return !identities.some((identity) => identity.roles?.includes('student'));
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
    if (!ctx.config.crmWebhookUrl || !(await mayReachCrm(trx, user))) return null;
    const payload = JSON.stringify({
      email: user.email,
      userId: user.id,
      subscriptionChanges: changes,
      changedAt: now,
    });
    return enqueue(trx, { kind: 'crm', payload, userId: user.id, now });
  });
}

/**
 * Within a deletion's transaction: when the CRM may have learnt the account's address (a webhook is
 * configured, the account stored preferences, and mayReachCrm let them go on), an outbox row
 * `{email, userId, deleted: true, changedAt}` that tells it to erase the contact. The row names no
 * account, which is gone.
 */
export async function queueCrmErasure(
  ctx: Pick<AppContext, 'config' | 'now'>,
  trx: Db,
  user: User,
): Promise<void> {
  if (!ctx.config.crmWebhookUrl || !(await mayReachCrm(trx, user))) return;
  const stored = await trx
    .selectFrom('subscriptions')
    .select('user_id')
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  if (!stored) return;
  const now = ctx.now();
  const payload = JSON.stringify({ email: user.email, userId: user.id, deleted: true, changedAt: now });
  await enqueue(trx, { kind: 'crm', payload, userId: null, now });
}

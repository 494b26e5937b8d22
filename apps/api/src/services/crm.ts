import type { SubscriptionChange } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { enqueue } from './outbox.ts';

/**
 * Stores the preferences and (when a webhook is configured) an outbox row of kind `crm`, in one
 * transaction; returns the row's id, for the caller to try it at once (outbox.deliver).
 */
export async function saveSubscriptions(
  ctx: AppContext,
  user: { id: string; email: string },
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
    if (!ctx.config.crmWebhookUrl) return null;
    const payload = JSON.stringify({
      email: user.email,
      userId: user.id,
      subscriptionChanges: changes,
      changedAt: now,
    });
    return enqueue(trx, { kind: 'crm', payload, userId: user.id, now });
  });
}

import type { SubscriptionChange } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/index.ts';

const WEBHOOK_TIMEOUT_MS = 5000;

/** Stores the preferences and (when a webhook is configured) an outbox row, in one transaction. */
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
    const row = await trx
      .insertInto('crm_outbox')
      .values({
        user_id: user.id,
        payload,
        attempts: 0,
        last_error: null,
        created_at: now,
        delivered_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
}

async function deliverRow(ctx: AppContext, db: Db, row: { id: number; payload: string }): Promise<boolean> {
  const url = ctx.config.crmWebhookUrl;
  if (!url) return false;
  let error: string | null = null;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: row.payload,
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    if (!res.ok) error = `HTTP ${res.status}`;
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  }
  await db
    .updateTable('crm_outbox')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      last_error: error,
      delivered_at: error ? null : ctx.now(),
    }))
    .where('id', '=', row.id)
    .execute();
  if (error)
    ctx.logger.warn({ outboxId: row.id, error }, 'CRM webhook delivery failed; kept in crm_outbox for retry');
  return !error;
}

/** Delivers outbox rows (one, or every pending one); returns how many were delivered. */
export async function deliverCrmOutbox(ctx: AppContext, onlyId?: number): Promise<number> {
  let query = ctx.db
    .selectFrom('crm_outbox')
    .select(['id', 'payload'])
    .where('delivered_at', 'is', null)
    .orderBy('id')
    .limit(100);
  if (onlyId !== undefined) query = query.where('id', '=', onlyId);
  let delivered = 0;
  for (const row of await query.execute()) if (await deliverRow(ctx, ctx.db, row)) delivered += 1;
  return delivered;
}

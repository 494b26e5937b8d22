import type { Kysely } from 'kysely';

/**
 * Two ends of an outbox row besides delivered and failed (services/outbox.ts): `rejected_at`, the
 * mail server refused the mail for good (a mistyped address: not retried, not an alert);
 * `cancelled_at`, the code the mail carries (`code_id`, email_codes.id) was replaced, used or
 * expired before it could go, so a late mail never lands on top of the newer one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // one column a statement: SQLite adds no more
  await db.schema.alterTable('outbox').addColumn('code_id', 'integer').execute();
  await db.schema.alterTable('outbox').addColumn('rejected_at', 'bigint').execute();
  await db.schema.alterTable('outbox').addColumn('cancelled_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['code_id', 'rejected_at', 'cancelled_at'])
    await db.schema.alterTable('outbox').dropColumn(column).execute();
}

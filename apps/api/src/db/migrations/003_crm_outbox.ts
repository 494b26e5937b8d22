import type { Kysely } from 'kysely';
import { autoIncrementId } from '../dialect.ts';

/**
 * Email preferences forwarded to the CRM webhook go through an outbox: the row is written in the
 * same transaction as the preferences, so a failed or pending delivery is retried, never lost.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('crm_outbox')
    .$call(autoIncrementId(db))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .execute();
  await db.schema.createIndex('crm_outbox_pending').on('crm_outbox').column('delivered_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('crm_outbox').ifExists().execute();
}

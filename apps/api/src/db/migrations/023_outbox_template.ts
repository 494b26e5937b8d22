import type { Kysely } from 'kysely';

/**
 * outbox.template: which mail a row is (verify, reset, invite, locked), named on its delivery lines
 * and in `user show`, so "which mail did not go?" is answered without its address or code (the
 * payload, which is cleared once delivered). Rows queued before this migration, and CRM rows, have none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('template', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox').dropColumn('template').execute();
}

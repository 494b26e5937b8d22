import type { Kysely } from 'kysely';

/**
 * outbox.request_id: the reqId of the request that queued the row (services/outbox.ts enqueue), named
 * on each of its delivery lines, so an operator goes from a request to its mail's delivery, retries
 * and failure, whichever instance sent it. Rows queued before this migration, and by the admin CLI,
 * have none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('request_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox').dropColumn('request_id').execute();
}

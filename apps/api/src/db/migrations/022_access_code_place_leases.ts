import type { Kysely } from 'kysely';

/**
 * `access_code_failures.held_at`: when the provider's last place was held (services/access-codes.ts
 * holdBudgetPlace). Places older than their lease count as none in flight, so a place never given
 * back (a database blip at its settle, a crash) frees itself instead of staying taken until midnight.
 * Rows from before it have none: their places count as expired.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('access_code_failures').addColumn('held_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('access_code_failures').dropColumn('held_at').execute();
}

import type { Kysely } from 'kysely';

/**
 * `instance_secrets`: each running instance's SECRET fingerprint (services/secret-change.ts) and when
 * it last said it is up. The admin CLI checks its SECRET against the instances serving, not against
 * the last start: one start with a wrong SECRET, stopped at once, turned that check the wrong way round.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('instance_secrets')
    .addColumn('instance_id', 'text', (col) => col.primaryKey())
    .addColumn('fingerprint', 'text', (col) => col.notNull())
    .addColumn('seen_at', 'bigint', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('instance_secrets').execute();
}

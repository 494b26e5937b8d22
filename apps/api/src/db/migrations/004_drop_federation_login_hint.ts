import type { Kysely } from 'kysely';

/**
 * federation_states.login_hint was never read: the hint travels in the authorize URL and the
 * authorization server keeps it with its interaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('federation_states').dropColumn('login_hint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('federation_states').addColumn('login_hint', 'text').execute();
}

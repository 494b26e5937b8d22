import type { Kysely } from 'kysely';

/**
 * federation_states.return_url was never read: after the callback the browser continues to the
 * post-login step of its login csrf, whose login request holds the product's url.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('federation_states').dropColumn('return_url').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('federation_states').addColumn('return_url', 'text').execute();
}

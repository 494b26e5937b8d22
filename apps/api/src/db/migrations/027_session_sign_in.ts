import type { Kysely } from 'kysely';

/**
 * sessions.sign_in_method and sessions.sign_in_sp: how a session started, for the product token's
 * `amr` and `sign_in_sp` (services/current-user.ts), so a product can tell a class code typed at
 * another product from its own. sign_in_method is `pwd` (a password), `access_code` (a classroom
 * access code) or the provider's name (a provider's callback: `Google`, `Clever`, …); sign_in_sp is
 * the product whose access code it was, null otherwise. Sessions started before have neither, and
 * their tokens carry no `amr`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('sign_in_method', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('sign_in_sp', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('sign_in_sp').execute();
  await db.schema.alterTable('sessions').dropColumn('sign_in_method').execute();
}

import type { Kysely } from 'kysely';

/**
 * users.signup_browser: the sha256 of the cookie given to the browser that chose the password at a
 * self sign-up (SIGNUP_COOKIE); null when an administrator chose it, and on accounts signed up before
 * this migration. A confirmation by code from another browser must not keep a password that the
 * address's owner may never have chosen (services/accounts.ts confirmAccount).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('signup_browser', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('signup_browser').execute();
}

import { sql, type Kysely } from 'kysely';

/**
 * users.signup_browser: the sha256 of the cookie given to the browser that chose the password at a
 * self sign-up (SIGNUP_COOKIE); null when an administrator chose it. A confirmation by code from
 * another browser must not keep a password that the address's owner may never have chosen
 * (services/accounts.ts confirmAccount). Sign-ups waiting for their confirmation at the upgrade
 * recorded no browser: they are marked as chosen by one no browser holds, so their confirmation asks
 * for a new password once, and a stranger's sign-up planted before the upgrade never signs in.
 */
export const UNKNOWN_SIGNUP_BROWSER = 'signed-up-before-010';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('signup_browser', 'text').execute();
  await sql`update users set signup_browser = ${UNKNOWN_SIGNUP_BROWSER}
    where confirmed = 0 and password_hash is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('signup_browser').execute();
}

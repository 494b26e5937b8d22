import { sql, type Kysely } from 'kysely';

/**
 * users.names_proven: 0 when the names on an account may be a stranger's. Anyone may sign up first
 * with a child's address; when that account is confirmed by someone other than the browser that signed
 * up (the code from another browser, a password reset, a provider that vouches for the address but
 * not for names), the names stay what the sign-up typed, and mails greet such an account without them
 * (services/accounts.ts greetingName). Accounts confirmed elsewhere before this migration are found
 * by their audit event.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('names_proven', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await sql`update users set names_proven = 0
    where id in (select user_id from audit_log where event = 'account.confirmed-elsewhere')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('names_proven').execute();
}

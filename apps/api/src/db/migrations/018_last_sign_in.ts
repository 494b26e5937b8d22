import { sql, type Kysely } from 'kysely';

/**
 * users.last_sign_in_at: when a session last started for the account (services/sessions.ts
 * replaceSession: a password, a provider's callback, an access code), null when never. An operator
 * keeping a district's retention rule finds the dormant accounts by it (`user list --inactive-since`).
 * Accounts get the time of their latest `session.started` in the audit log, which holds a year of
 * them; an older sign-in is not known. The index on audit_log.user_id makes that a lookup per
 * account, as it does the blanking of a deleted account's addresses (services/user-admin.ts deleteUser).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('audit_log_user').on('audit_log').column('user_id').execute();
  await db.schema.alterTable('users').addColumn('last_sign_in_at', 'bigint').execute();
  await sql`update users set last_sign_in_at = (
      select max(a.at) from audit_log a where a.event = 'session.started' and a.user_id = users.id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('last_sign_in_at').execute();
  await db.schema.dropIndex('audit_log_user').execute();
}

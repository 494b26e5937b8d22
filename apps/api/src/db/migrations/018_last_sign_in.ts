import { sql, type Kysely } from 'kysely';

/**
 * users.last_sign_in_at: when a session last started for the account (services/sessions.ts
 * replaceSession: a password, a provider's callback, an access code), null when never. An operator
 * keeping a district's retention rule finds the dormant accounts by it (`user list --inactive-since`).
 * Accounts get the time of their latest `session.started` in the audit log, which holds a year of
 * them; an older sign-in is not known. The index on audit_log.user_id serves the blanking of a
 * deleted account's addresses (services/user-admin.ts deleteUser).
 */
/**
 * One pass over the audit log, grouped by account, joined to users. A subquery per account (its
 * first form) was planned per row: on a PostgreSQL just restored by pg_restore, whose tables have no
 * statistics yet, each account's lookup read every session.started entry of the index (projected
 * 3.8 hours at 300,000 accounts and 1,000,000 entries, users locked throughout). SQLite has
 * UPDATE … FROM since 3.33.
 */
export const lastSignInFromAuditLog = sql`update users set last_sign_in_at = latest.at
  from (select user_id, max(at) as at from audit_log where event = 'session.started' group by user_id) latest
  where latest.user_id = users.id`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('audit_log_user').on('audit_log').column('user_id').execute();
  await db.schema.alterTable('users').addColumn('last_sign_in_at', 'bigint').execute();
  await lastSignInFromAuditLog.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('last_sign_in_at').execute();
  await db.schema.dropIndex('audit_log_user').execute();
}

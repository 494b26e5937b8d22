import type { Kysely } from 'kysely';

/**
 * An index on each column that refers to another row and had none. Deleting the row referred to
 * (the hourly pruning of sign-ups nobody confirmed, `user delete`, `sp delete`) made the database
 * scan each such table whole for every row deleted: on SQLite, inside the server's one thread, 200
 * sign-ups beside 100,000 sessions held every request for 4 s (20 ms with these).
 */
const INDEXES: [name: string, table: string, column: string][] = [
  ['sessions_masq_user', 'sessions', 'masq_user_id'],
  ['outbox_user', 'outbox', 'user_id'],
  ['cookie_hashes_user', 'cookie_hashes', 'user_id'],
  ['access_codes_user', 'access_codes', 'user_id'],
  ['login_requests_sp', 'login_requests', 'sp_id'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, table, column] of INDEXES)
    await db.schema.createIndex(name).on(table).column(column).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).execute();
}

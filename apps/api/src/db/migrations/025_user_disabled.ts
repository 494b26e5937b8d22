import type { Kysely } from 'kysely';

/**
 * users.disabled_at: when an operator turned the account off (`user disable`), null while it is on.
 * A disabled account keeps its data but no session starts for it (services/sessions.ts
 * createSession) and its sessions are not live; `user enable` clears it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('disabled_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('disabled_at').execute();
}

import type { Kysely } from 'kysely';

/**
 * Identity: key material the authorization server needs across restarts and instances
 * (signing keys, cookie keys, the secret upstream PKCE verifiers derive from), and the
 * login csrf a social sign-in continues with after the callback.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('identity_keys')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('material', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('federation_states').addColumn('login_csrf', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('federation_states').dropColumn('login_csrf').execute();
  await db.schema.dropTable('identity_keys').ifExists().execute();
}

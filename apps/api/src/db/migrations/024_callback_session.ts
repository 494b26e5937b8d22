import type { Kysely } from 'kysely';

/**
 * federation_states.session_id: the session (sessions.id, its token's sha256) the state's callback
 * started, written as it starts. When that answer is lost on the way (its Set-Cookie with it) and
 * the same browser asks the same callback again within a short time, while that session is still
 * live, the browser gets a session in its place (identity/portal-login.ts completeSignIn). States
 * used before this migration have none: asked again, they are refused as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('federation_states').addColumn('session_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('federation_states').dropColumn('session_id').execute();
}

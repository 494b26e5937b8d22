import type { Kysely } from 'kysely';

/**
 * What each linked upstream identity asserted at its latest sign-in, for the products (auth/sig's
 * signature and the product token): JSON `{emailVerified, emailTrusted, tenant?, district?, schools?,
 * roles?, rosterId?}` (contract linkedIdentitySchema). Null on identities linked before this
 * migration until their next sign-in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_identities').addColumn('claims', 'text').execute();
  // the signature lists an account's identities on every auth/sig
  await db.schema.createIndex('user_identities_user').on('user_identities').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('user_identities_user').execute();
  await db.schema.alterTable('user_identities').dropColumn('claims').execute();
}

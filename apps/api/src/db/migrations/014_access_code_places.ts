import type { Kysely } from 'kysely';

/**
 * `access_code_failures.in_flight`: the guesses at a provider's codes being looked up right now, on
 * every instance (services/access-codes.ts holdBudgetPlace). Today's failures and these may not pass
 * the provider's budget, and only a wrong code becomes a failure.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('access_code_failures')
    .addColumn('in_flight', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('access_code_failures').dropColumn('in_flight').execute();
}

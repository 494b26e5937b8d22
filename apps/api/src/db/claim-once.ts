import type { Kysely, UpdateObject, UpdateQueryBuilder, UpdateResult } from 'kysely';
import type { Database } from './types.ts';

/** The single-use tables, each with the column that records its row's one use. */
const SPENT_AT = {
  cookie_hashes: 'used_at',
  email_codes: 'consumed_at',
  federation_states: 'used_at',
  invites: 'used_at',
  // an interaction's upstream answer (identity/adapter.ts claimInteractionAnswer)
  oidc_payloads: 'consumed_at',
} as const;
export type SingleUseTable = keyof typeof SPENT_AT;

type Claim<T extends SingleUseTable> = UpdateQueryBuilder<Database, T, T, UpdateResult>;

/**
 * Marks the row `narrow` selects used at `now` unless it already is. True only for the one call that
 * flipped it, however many race: the check and the write are one statement.
 */
export async function claimOnce<T extends SingleUseTable>(
  db: Kysely<Database>,
  table: T,
  narrow: (claim: Claim<T>) => Claim<T>,
  now: number,
): Promise<boolean> {
  const column = SPENT_AT[table];
  // the table is generic here, so Kysely cannot check the column against it; SPENT_AT names real ones
  const claim = db.updateTable(table) as unknown as Claim<T>;
  const res = await narrow(claim)
    .set({ [column]: now } as UpdateObject<Database, T, T>)
    .where(db.dynamic.ref(column), 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Gives back the claim claimOnce made at `claimedAt` on the row `narrow` selects, its use having
 * failed for now (nothing of it spent): the row can be claimed once more.
 */
export async function releaseClaim<T extends SingleUseTable>(
  db: Kysely<Database>,
  table: T,
  narrow: (claim: Claim<T>) => Claim<T>,
  claimedAt: number,
): Promise<void> {
  const column = SPENT_AT[table];
  const release = db.updateTable(table) as unknown as Claim<T>;
  await narrow(release)
    .set({ [column]: null } as UpdateObject<Database, T, T>)
    .where(db.dynamic.ref(column), '=', claimedAt)
    .execute();
}

import { expect, it } from 'vitest';
import { TEST_SECRET, createTestDb } from '../../../test/test-db.ts';
import { DIALECTS } from '../../../test/harness.ts';
import { migrateTo } from '../index.ts';

it.each(DIALECTS)(
  "migration 022 keeps today's failures and places of every provider, with no hold time ($dialect)",
  async ({ dialect, skip }) => {
    if (skip) return;
    const { db, drop } = await createTestDb(dialect, undefined, '021_code_mailbox');
    try {
      await db
        .insertInto('access_code_failures')
        .values({ sp_id: 'mathworld', day: 20_000, failures: 7, in_flight: 2, exhausted_at: null })
        .execute();
      expect(await migrateTo(db, { secret: TEST_SECRET }, '022_access_code_place_leases')).toEqual([
        '022_access_code_place_leases',
      ]);
      expect(await db.selectFrom('access_code_failures').selectAll().execute()).toEqual([
        { sp_id: 'mathworld', day: 20_000, failures: 7, in_flight: 2, exhausted_at: null, held_at: null },
      ]);
    } finally {
      await drop();
    }
  },
);

import { expect, it } from 'vitest';
import { TEST_SECRET, createTestDb } from '../../../test/test-db.ts';
import { DIALECTS } from '../../../test/harness.ts';
import { migrateTo } from '../index.ts';

it.each(DIALECTS)(
  "migration 014 keeps today's failures of every provider and holds no place ($dialect)",
  async ({ dialect, skip }) => {
    if (skip) return;
    const { db, drop } = await createTestDb(dialect, undefined, '013_outbox_outcomes');
    try {
      await db
        .insertInto('access_code_failures')
        .values({ sp_id: 'mathworld', day: 20_000, failures: 7, exhausted_at: null })
        .execute();
      expect(await migrateTo(db, { secret: TEST_SECRET }, '014_access_code_places')).toEqual([
        '014_access_code_places',
      ]);
      expect(await db.selectFrom('access_code_failures').selectAll().execute()).toEqual([
        { sp_id: 'mathworld', day: 20_000, failures: 7, in_flight: 0, exhausted_at: null },
      ]);
    } finally {
      await drop();
    }
  },
);

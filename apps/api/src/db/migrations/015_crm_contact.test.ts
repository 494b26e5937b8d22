import { describe, expect, it } from 'vitest';
import { TEST_SECRET, createTestDb } from '../../../test/test-db.ts';
import { DIALECTS } from '../../../test/harness.ts';
import { newUserRow } from '../../services/users.ts';
import { migrateTo } from '../index.ts';

describe.each(DIALECTS)('migration 015 on a database with accounts ($dialect)', ({ dialect, skip }) => {
  it.skipIf(skip)(
    'dates the CRM contact of accounts with a CRM call in the outbox (the latest not cancelled), and of no other',
    async () => {
      const { db, drop } = await createTestDb(dialect, undefined, '014_access_code_places');
      try {
        const account = (email: string) => {
          // the row as it was before the column
          const {
            crm_contact_at: _new,
            last_sign_in_at: _later,
            disabled_at: _latest,
            ...row
          } = newUserRow({ email, first: 'A', last: 'B', passwordHash: '$argon2id$x', confirmed: true }, 1);
          return row;
        };
        const forwarded = account('forwarded@school.test');
        const withdrawn = account('withdrawn@school.test');
        const mailed = account('mailed@school.test');
        await db.insertInto('users').values([forwarded, withdrawn, mailed]).execute();
        const call = (
          userId: string,
          kind: string,
          createdAt: number,
          cancelledAt: number | null = null,
        ) => ({
          kind,
          user_id: userId,
          payload: null,
          attempts: 1,
          next_attempt_at: null,
          created_at: createdAt,
          delivered_at: cancelledAt === null ? createdAt + 1 : null,
          cancelled_at: cancelledAt,
        });
        await db
          .insertInto('outbox')
          .values([
            call(forwarded.id, 'crm', 1_000),
            call(forwarded.id, 'crm', 5_000),
            call(withdrawn.id, 'crm', 2_000, 2_500),
            call(mailed.id, 'mail', 3_000),
          ])
          .execute();

        await migrateTo(db, { secret: TEST_SECRET });
        const rows = await db
          .selectFrom('users')
          .select(['email', 'crm_contact_at'])
          .orderBy('email')
          .execute();
        expect(rows).toEqual([
          { email: 'forwarded@school.test', crm_contact_at: 5_000 },
          { email: 'mailed@school.test', crm_contact_at: null },
          { email: 'withdrawn@school.test', crm_contact_at: null },
        ]);
      } finally {
        await drop();
      }
    },
  );
});

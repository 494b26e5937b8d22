import { describe, expect, it } from 'vitest';
import { TEST_SECRET, createTestDb } from '../../../test/test-db.ts';
import { DIALECTS } from '../../../test/harness.ts';
import { newUserRow } from '../../services/users.ts';
import { migrateTo } from '../index.ts';

describe.each(DIALECTS)('migration 018 on a database with accounts ($dialect)', ({ dialect, skip }) => {
  it.skipIf(skip)(
    "dates each account's last sign-in by its latest session.started in the audit log, and leaves the others null",
    async () => {
      const { db, drop } = await createTestDb(dialect, undefined, '017_outbox_request');
      try {
        const account = (email: string) => {
          // the row as it was before the column
          const { last_sign_in_at: _new, ...row } = newUserRow(
            { email, first: 'A', last: 'B', passwordHash: '$argon2id$x', confirmed: true },
            1,
          );
          return row;
        };
        const regular = account('regular@school.test');
        const failing = account('failing@school.test');
        const never = account('never@school.test');
        await db.insertInto('users').values([regular, failing, never]).execute();
        const entry = (event: string, userId: string | null, at: number) => ({
          at,
          event,
          user_id: userId,
          sp_id: null,
          address: '198.51.100.7',
          detail: '{}',
        });
        await db
          .insertInto('audit_log')
          .values([
            entry('session.started', regular.id, 1_000),
            entry('session.started', regular.id, 7_000),
            entry('sign-in.failed', regular.id, 9_000),
            // a failed sign-in is no use of the account
            entry('sign-in.failed', failing.id, 8_000),
            entry('session.started', null, 6_000),
          ])
          .execute();

        await migrateTo(db, { secret: TEST_SECRET });
        const rows = await db
          .selectFrom('users')
          .select(['email', 'last_sign_in_at'])
          .orderBy('email')
          .execute();
        expect(rows).toEqual([
          { email: 'failing@school.test', last_sign_in_at: null },
          { email: 'never@school.test', last_sign_in_at: null },
          { email: 'regular@school.test', last_sign_in_at: 7_000 },
        ]);
      } finally {
        await drop();
      }
    },
  );
});

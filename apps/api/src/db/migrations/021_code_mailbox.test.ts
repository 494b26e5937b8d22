import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { TEST_SECRET, createTestDb } from '../../../test/test-db.ts';
import { DIALECTS } from '../../../test/harness.ts';
import { newUserRow } from '../../services/users.ts';
import { migrateTo } from '../index.ts';

describe.each(DIALECTS)('migration 021 on a database with mailed codes ($dialect)', ({ dialect, skip }) => {
  it.skipIf(skip)(
    'leaves the codes issued before it without a mailbox (they count for their account only) and indexes the mailbox with the issue time',
    async () => {
      const { db, drop } = await createTestDb(dialect, undefined, '019_email_domains');
      try {
        // the row as it was before migration 025's column
        const { disabled_at: _later, ...user } = newUserRow(
          { email: 'v+1@school.test', first: 'A', last: 'B', passwordHash: '$argon2id$x', confirmed: false },
          1,
        );
        await db.insertInto('users').values(user).execute();
        // the row as it was before the column
        const code = {
          user_id: user.id,
          purpose: 'verify',
          code_hash: 'h',
          attempts: 0,
          consumed_at: null,
        } as const;
        await db
          .insertInto('email_codes')
          .values({ ...code, expires_at: 9_000, created_at: 1_000 })
          .execute();

        await migrateTo(db, { secret: TEST_SECRET });
        await db
          .insertInto('email_codes')
          .values({ ...code, expires_at: 9_000, created_at: 2_000, mailbox: 'v@school.test' })
          .execute();
        const rows = await db
          .selectFrom('email_codes')
          .select(['created_at', 'mailbox'])
          .orderBy('created_at')
          .execute();
        expect(rows).toEqual([
          { created_at: 1_000, mailbox: null },
          { created_at: 2_000, mailbox: 'v@school.test' },
        ]);
        const index =
          dialect === 'sqlite'
            ? sql`select name from sqlite_master where type = 'index' and name = 'email_codes_mailbox'`
            : sql`select indexname from pg_indexes where indexname = 'email_codes_mailbox'`;
        expect((await index.execute(db)).rows).toHaveLength(1);
      } finally {
        await drop();
      }
    },
  );
});

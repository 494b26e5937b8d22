import { describe, expect, it } from 'vitest';
import { TEST_SECRET, createTestDb } from '../../../test/test-db.ts';
import { DIALECTS } from '../../../test/harness.ts';
import { newUserRow } from '../../services/users.ts';
import { migrateTo } from '../index.ts';

describe.each(DIALECTS)('migration 011 on a database with accounts ($dialect)', ({ dialect, skip }) => {
  it.skipIf(skip)(
    'marks the names of accounts confirmed from another browser as unproven, and no other account',
    async () => {
      const { db, drop } = await createTestDb(dialect, undefined, '010_signup_browser');
      try {
        const account = (email: string) => {
          // the row as it was before the column
          const {
            names_proven: _new,
            crm_contact_at: _later,
            last_sign_in_at: _latest,
            disabled_at: _last,
            ...row
          } = newUserRow({ email, first: 'A', last: 'B', passwordHash: '$argon2id$x', confirmed: true }, 1);
          return row;
        };
        const away = account('confirmed-away@school.test');
        const here = account('confirmed-here@school.test');
        await db.insertInto('users').values([away, here]).execute();
        await db
          .insertInto('audit_log')
          .values([
            { at: 1, event: 'account.confirmed-elsewhere', user_id: away.id, sp_id: null, detail: '{}' },
            { at: 1, event: 'password.reset', user_id: here.id, sp_id: null, detail: '{}' },
          ])
          .execute();

        await migrateTo(db, { secret: TEST_SECRET });
        const rows = await db
          .selectFrom('users')
          .select(['email', 'names_proven'])
          .orderBy('email')
          .execute();
        expect(rows).toEqual([
          { email: 'confirmed-away@school.test', names_proven: 0 },
          { email: 'confirmed-here@school.test', names_proven: 1 },
        ]);
      } finally {
        await drop();
      }
    },
  );
});

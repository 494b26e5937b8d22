import { describe, expect, it } from 'vitest';
import { TEST_SECRET } from '../../../test/test-db.ts';
import { newUserRow } from '../../services/users.ts';
import { createDb, migrateTo } from '../index.ts';
import { UNKNOWN_SIGNUP_BROWSER } from './010_signup_browser.ts';

describe('migration 010 on a database with accounts', () => {
  it('marks the sign-ups waiting for confirmation as chosen by no browser, and no other account', async () => {
    const db = createDb({ dataDir: '.', sqliteFile: ':memory:' });
    const secret = { secret: TEST_SECRET };
    await migrateTo(db, secret, '009_drop_federation_return_url');
    const account = (email: string, passwordHash: string | null, confirmed: boolean) => {
      // the row as it was before the column
      const {
        signup_browser: _new,
        names_proven: _later,
        crm_contact_at: _evenLater,
        last_sign_in_at: _latest,
        disabled_at: _last,
        ...row
      } = newUserRow({ email, first: 'A', last: 'B', passwordHash, confirmed }, 1);
      return row;
    };
    await db
      .insertInto('users')
      .values([
        account('pending@school.test', '$argon2id$pending', false),
        account('confirmed@school.test', '$argon2id$confirmed', true),
        account('federated@school.test', null, true),
      ])
      .execute();

    await migrateTo(db, secret);
    const rows = await db.selectFrom('users').select(['email', 'signup_browser']).orderBy('email').execute();
    expect(rows).toEqual([
      { email: 'confirmed@school.test', signup_browser: null },
      { email: 'federated@school.test', signup_browser: null },
      { email: 'pending@school.test', signup_browser: UNKNOWN_SIGNUP_BROWSER },
    ]);
    await db.destroy();
  });
});

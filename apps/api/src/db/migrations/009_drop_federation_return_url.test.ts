import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { TEST_SECRET } from '../../../test/test-db.ts';
import { createDb, migrateTo } from '../index.ts';

const columns = async (db: ReturnType<typeof createDb>) =>
  (await sql<{ name: string }>`select name from pragma_table_info('federation_states')`.execute(db)).rows.map(
    (c) => c.name,
  );

describe('migration 009 on a database with sign-in states', () => {
  it('drops federation_states.return_url, keeping the states; down adds it back', async () => {
    const db = createDb({ dataDir: '.', sqliteFile: ':memory:' });
    const secret = { secret: TEST_SECRET };
    await migrateTo(db, secret, '008_outbox');
    await sql`insert into federation_states (state, provider, browser_binding, return_url, login_csrf, created_at, expires_at, used_at)
      values ('s1', 'Google', 'b', 'https://app.school.test/', 'c1', 1, 2, null)`.execute(db);

    // to 009 itself: a later migration's columns are not this one's business
    await migrateTo(db, secret, '009_drop_federation_return_url');
    expect(await columns(db)).not.toContain('return_url');
    expect(await db.selectFrom('federation_states').selectAll().execute()).toEqual([
      {
        state: 's1',
        provider: 'Google',
        browser_binding: 'b',
        login_csrf: 'c1',
        created_at: 1,
        expires_at: 2,
        used_at: null,
      },
    ]);

    await migrateTo(db, secret, '008_outbox');
    expect(await columns(db)).toContain('return_url');
    await db.destroy();
  });
});

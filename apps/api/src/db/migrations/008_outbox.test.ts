import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { TEST_SECRET } from '../../../test/test-db.ts';
import { createDb, migrateTo } from '../index.ts';

describe('migration 008 on a database with CRM rows', () => {
  it('moves crm_outbox into the outbox: a pending row stays due, a delivered one keeps no payload', async () => {
    const db = createDb({ dataDir: '.', sqliteFile: ':memory:' });
    const secret = { secret: TEST_SECRET };
    await migrateTo(db, secret, '006_accountable_sessions');
    await sql`insert into users (id, email, first, last, confirmed, must_reset, roles, language, created_at, updated_at)
      values ('u1', 'u1@school.test', 'U', 'One', 1, 0, '{}', 'en', 1, 1)`.execute(db);
    await sql`insert into crm_outbox (user_id, payload, attempts, last_error, created_at, delivered_at)
      values ('u1', '{"changedAt":1}', 3, 'HTTP 503', 100, null),
             ('u1', '{"changedAt":2}', 1, null, 200, 250)`.execute(db);

    await migrateTo(db, secret);
    const rows = await db.selectFrom('outbox').selectAll().orderBy('created_at').execute();
    expect(rows).toEqual([
      expect.objectContaining({
        kind: 'crm',
        user_id: 'u1',
        payload: '{"changedAt":1}',
        attempts: 3,
        last_error: 'HTTP 503',
        next_attempt_at: 100,
        delivered_at: null,
        claimed_by: null,
      }),
      expect.objectContaining({ kind: 'crm', payload: null, next_attempt_at: null, delivered_at: 250 }),
    ]);
    await db.destroy();
  });
});

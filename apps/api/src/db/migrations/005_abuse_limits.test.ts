import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { accessCodeDigest } from '../../services/crypto.ts';
import { TEST_SECRET } from '../../../test/test-db.ts';
import { createDb, migrateTo } from '../index.ts';

describe('migration 005 on a database that has plain-text access codes', () => {
  it('keeps every code working: hashed with the secret, live 30 days, revoked ones still revoked', async () => {
    const db = createDb({ dataDir: '.', sqliteFile: ':memory:' });
    const secret = { secret: TEST_SECRET };
    await migrateTo(db, secret, '004_drop_federation_login_hint');
    await sql`insert into users (id, email, first, last, confirmed, must_reset, roles, language, created_at, updated_at)
      values ('u1', 'pupil@school.test', 'P', 'Q', 1, 0, '{}', 'en', 1, 1)`.execute(db);
    await sql`insert into service_providers (sp_id, name, origins, client_id, client_secret_hash, created_at)
      values ('math', 'Math', '[]', 'c', 'h', 1)`.execute(db);
    await sql`insert into access_codes (code, sp_id, user_id, created_at, revoked_at)
      values ('123456', 'math', 'u1', 1, null), ('654321', 'math', 'u1', 1, 5)`.execute(db);

    const before = Date.now();
    await migrateTo(db, secret);
    const rows = await db.selectFrom('access_codes').selectAll().orderBy('revoked_at').execute();
    expect(rows.map((r) => [r.code_hash, r.sp_id, r.user_id, r.revoked_at])).toEqual([
      [accessCodeDigest(TEST_SECRET, '123456'), 'math', 'u1', null],
      [accessCodeDigest(TEST_SECRET, '654321'), 'math', 'u1', 5],
    ]);
    for (const row of rows) expect(row.expires_at - before).toBeGreaterThanOrEqual(30 * 24 * 60 * 60 * 1000);
    const user = await db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
    expect([user.failed_attempts, user.last_failed_at, user.locked_at]).toEqual([0, null, null]);
    await db.destroy();
  });
});

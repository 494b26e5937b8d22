import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { SESSION_IDLE_MS } from '@frontdoor/contract';
import { sha256 } from '../../services/crypto.ts';
import { readSession } from '../../services/sessions.ts';
import { TEST_SECRET } from '../../../test/test-db.ts';
import { createDb, migrateTo } from '../index.ts';

describe('migration 006 on a database with live sessions', () => {
  it('keeps them signed in, as seen at the upgrade, and ends a masquerade that had no end', async () => {
    const db = createDb({ dataDir: '.', sqliteFile: ':memory:' });
    const secret = { secret: TEST_SECRET };
    await migrateTo(db, secret, '005_abuse_limits');
    await sql`insert into users (id, email, first, last, confirmed, must_reset, roles, language, created_at, updated_at)
      values ('boss', 'boss@school.test', 'B', 'S', 1, 0, '{"admin":[]}', 'en', 1, 1),
             ('kid', 'kid@school.test', 'K', 'D', 1, 0, '{}', 'en', 1, 1)`.execute(db);
    // signed in two hours before the upgrade, masquerading without an end
    const upgradeAt = Date.now();
    const signedInAt = upgradeAt - 2 * 60 * 60 * 1000;
    await sql`insert into sessions (id, user_id, masq_user_id, created_at, expires_at, revoked_at)
      values (${sha256('boss-token')}, 'boss', 'kid', ${signedInAt}, ${upgradeAt + 6 * 60 * 60 * 1000}, null)`.execute(
      db,
    );

    await migrateTo(db, secret);
    const row = await db.selectFrom('sessions').selectAll().executeTakeFirstOrThrow();
    expect(row.last_seen_at).toBeGreaterThanOrEqual(upgradeAt);
    const session = await readSession(db, 'boss-token', row.last_seen_at + SESSION_IDLE_MS - 1);
    expect(session).toMatchObject({ userId: 'boss', masqUserId: null, masqEndsAt: null });
    await db.destroy();
  });
});

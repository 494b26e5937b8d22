import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/harness.ts';
import { createTestDb } from '../../test/test-db.ts';
import type { Db } from './index.ts';
import { newUserRow } from '../services/users.ts';
import { claimOnce } from './claim-once.ts';

describe.each(DIALECTS)('claimOnce on $dialect', ({ dialect, skip }) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    if (!skip) ({ db, drop } = await createTestDb(dialect));
  });
  afterAll(async () => drop?.());

  const invite = (code: string) =>
    db
      .insertInto('invites')
      .values({ code, email: `${code}@school.test`, created_at: 1, expires_at: 1000, used_at: null })
      .execute();
  const usedAt = async (code: string) =>
    (await db.selectFrom('invites').select('used_at').where('code', '=', code).executeTakeFirstOrThrow())
      .used_at;

  it.skipIf(skip)(
    'claims a row once: a second claim of the same row fails and keeps the first use',
    async () => {
      await invite('once');
      expect(await claimOnce(db, 'invites', (q) => q.where('code', '=', 'once'), 10)).toBe(true);
      expect(await claimOnce(db, 'invites', (q) => q.where('code', '=', 'once'), 20)).toBe(false);
      expect(await usedAt('once')).toBe(10);
    },
  );

  it.skipIf(skip)('of two claims racing for one row exactly one wins', async () => {
    await invite('raced');
    const claims = await Promise.all(
      [30, 40].map((now) => claimOnce(db, 'invites', (q) => q.where('code', '=', 'raced'), now)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect([30, 40]).toContain(await usedAt('raced'));
  });

  it.skipIf(skip)('claims nothing when no row matches, and leaves other rows unused', async () => {
    await invite('other');
    expect(await claimOnce(db, 'invites', (q) => q.where('code', '=', 'missing'), 50)).toBe(false);
    expect(await usedAt('other')).toBeNull();
  });

  it.skipIf(skip)('records the use in the column of its table (email_codes: consumed_at)', async () => {
    const user = newUserRow(
      { email: 'u1@school.test', first: 'U', last: 'One', passwordHash: null, confirmed: true },
      1,
    );
    await db.insertInto('users').values(user).execute();
    const { id } = await db
      .insertInto('email_codes')
      .values({
        user_id: user.id,
        purpose: 'verify',
        code_hash: 'h',
        attempts: 0,
        expires_at: 1000,
        consumed_at: null,
        created_at: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await claimOnce(db, 'email_codes', (q) => q.where('id', '=', id), 60)).toBe(true);
    expect(await claimOnce(db, 'email_codes', (q) => q.where('id', '=', id), 70)).toBe(false);
  });
});

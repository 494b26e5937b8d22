import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, migrateToLatest, type Db } from '../db/index.ts';
import { DIALECTS, TEST_START, testClock } from '../../test/harness.ts';
import { TEST_SECRET, createTestDb } from '../../test/test-db.ts';
import { deleteAccountPayloads, kyselyAdapter } from './adapter.ts';
import { loadIdentityKeys } from './keys.ts';

describe('oidc-provider Kysely adapter (SQLite)', () => {
  let db: Db;
  const clock = testClock(TEST_START);
  beforeAll(async () => {
    db = createDb({ dataDir: '.', sqliteFile: ':memory:' });
    await migrateToLatest(db, { secret: TEST_SECRET });
  });
  afterAll(() => db.destroy());

  it('stores, finds by id and uid, consumes once-used codes and keeps models apart', async () => {
    const codes = kyselyAdapter(db, clock.now)('AuthorizationCode');
    const sessions = kyselyAdapter(db, clock.now)('Session');
    await codes.upsert('c1', { grantId: 'g1', accountId: 'a' }, 60);
    await sessions.upsert('s1', { uid: 'u1', accountId: 'a' }, 60);
    expect(await codes.find('c1')).toEqual({ grantId: 'g1', accountId: 'a' });
    expect(await sessions.find('c1')).toBeUndefined();
    expect(await sessions.findByUid('u1')).toEqual({ uid: 'u1', accountId: 'a' });
    await codes.consume('c1');
    expect((await codes.find('c1'))?.consumed).toBeGreaterThan(0);
    await codes.upsert('c1', { grantId: 'g1', accountId: 'b' }, 60);
    expect((await codes.find('c1'))?.accountId).toBe('b');
  });

  it('hides expired rows (services/pruning.ts deletes them) and revokes every row of a grant', async () => {
    const tokens = kyselyAdapter(db, clock.now)('AccessToken');
    await db
      .insertInto('oidc_payloads')
      .values({
        id: 'old',
        type: 'AccessToken',
        payload: '{}',
        grant_id: null,
        user_code: null,
        uid: null,
        expires_at: clock.now() - 1,
        consumed_at: null,
      })
      .execute();
    expect(await tokens.find('old')).toBeUndefined();
    await tokens.upsert('t1', { grantId: 'g2' }, 60);
    await kyselyAdapter(db, clock.now)('AuthorizationCode').upsert('c2', { grantId: 'g2' }, 60);
    await tokens.revokeByGrantId('g2');
    expect(await tokens.find('t1')).toBeUndefined();
    expect(await kyselyAdapter(db, clock.now)('AuthorizationCode').find('c2')).toBeUndefined();
    await tokens.upsert('t2', { grantId: 'g3' });
    await tokens.destroy('t2');
    expect(await tokens.find('t2')).toBeUndefined();
  });

  it("expires rows by the context's clock, not the machine's", async () => {
    const interactions = kyselyAdapter(db, clock.now)('Interaction');
    await interactions.upsert('i1', { uid: 'i1-uid' }, 60);
    clock.advance(59_999);
    expect(await interactions.find('i1')).toEqual({ uid: 'i1-uid' });
    clock.advance(1);
    expect(await interactions.find('i1')).toBeUndefined();
    expect(await interactions.findByUid('i1-uid')).toBeUndefined();
  });

  it('namespaces keep the dev identity providers apart from the authorization server', async () => {
    await kyselyAdapter(db, clock.now, 'devidp:Google:')('Session').upsert('same', { accountId: 'dev' }, 60);
    await kyselyAdapter(db, clock.now)('Session').upsert('same', { accountId: 'portal' }, 60);
    expect((await kyselyAdapter(db, clock.now, 'devidp:Google:')('Session').find('same'))?.accountId).toBe(
      'dev',
    );
    expect((await kyselyAdapter(db, clock.now)('Session').find('same'))?.accountId).toBe('portal');
  });

  it('creates the signing key, cookie keys and secret once; configured cookie keys win', async () => {
    const first = await loadIdentityKeys(db, clock.now());
    const second = await loadIdentityKeys(db, clock.now());
    expect(second.jwks).toEqual(first.jwks);
    expect(second.secret.equals(first.secret)).toBe(true);
    expect(first.jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(first.jwks.keys[0]?.d).toBeDefined();
    expect((await loadIdentityKeys(db, clock.now(), ['k2', 'k1'])).cookieKeys).toEqual(['k2', 'k1']);
  });
});

describe.each(DIALECTS)('deleteAccountPayloads ($dialect)', ({ dialect, skip }) => {
  it.skipIf(skip)(
    "deletes every row naming the account and every row of its grants; another account's stay, an id's LIKE characters taken literally",
    async () => {
      const { db, drop } = await createTestDb(dialect);
      try {
        const clock = testClock(TEST_START);
        const model = (name: string) => kyselyAdapter(db, clock.now)(name);
        const account = 'acc_1%';
        await model('Grant').upsert('grant-1', { accountId: account, clientId: 'portal' }, 60);
        await model('AuthorizationCode').upsert('code-1', { accountId: account, grantId: 'grant-1' }, 60);
        await model('AccessToken').upsert('token-1', { accountId: account, grantId: 'grant-1' }, 60);
        // a row of the grant that does not name the account itself
        await model('RefreshToken').upsert('refresh-1', { grantId: 'grant-1' }, 60);
        await model('Session').upsert('session-1', { accountId: account, uid: 'u-1' }, 60);
        await model('Interaction').upsert('interaction-1', { result: { login: { accountId: account } } }, 60);
        // another account, whose id LIKE's `_` and `%` would match
        await model('Grant').upsert('grant-2', { accountId: 'accX1%more', clientId: 'portal' }, 60);
        await model('AccessToken').upsert('token-2', { accountId: 'accX1%more', grantId: 'grant-2' }, 60);
        await model('Session').upsert('session-2', { accountId: 'acc_1%-other' }, 60);

        await deleteAccountPayloads(db, account);
        const left = await db.selectFrom('oidc_payloads').select(['type', 'id']).orderBy('id').execute();
        expect(left).toEqual([
          { type: 'Grant', id: 'grant-2' },
          { type: 'Session', id: 'session-2' },
          { type: 'AccessToken', id: 'token-2' },
        ]);
      } finally {
        await drop();
      }
    },
  );
});

describe.each(DIALECTS)('oidc-provider Kysely adapter, a NUL in an id ($dialect)', ({ dialect, skip }) => {
  it.skipIf(skip)(
    'finds nothing by an id, uid or user code holding a NUL (PostgreSQL cannot store one) and consumes, destroys or revokes nothing by one',
    async () => {
      const { db, drop } = await createTestDb(dialect);
      try {
        const clock = testClock(TEST_START);
        const codes = kyselyAdapter(db, clock.now)('AuthorizationCode');
        await codes.upsert('c1', { grantId: 'g1', uid: 'u1', userCode: 'x1' }, 60);
        expect(await codes.find('c1\u0000')).toBeUndefined();
        expect(await codes.findByUid('u1\u0000')).toBeUndefined();
        expect(await codes.findByUserCode?.('x1\u0000')).toBeUndefined();
        await codes.consume('c1\u0000');
        await codes.destroy('c1\u0000');
        await codes.revokeByGrantId?.('g1\u0000');
        expect(await codes.find('c1')).toEqual({ grantId: 'g1', uid: 'u1', userCode: 'x1' });
      } finally {
        await drop();
      }
    },
  );
});

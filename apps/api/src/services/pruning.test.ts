import { TableNode, type KyselyPlugin, type QueryId } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, createTestApp, seedServiceProvider, seedUser, type TestApp } from '../../test/harness.ts';
import { createAccessCode, utcDay } from './access-codes.ts';
import { audit } from './audit.ts';
import { issueCode } from './codes.ts';
import { createCookieHash } from './cookie-hashes.ts';
import { DAY_MS, HOUR_MS } from './limits.ts';
import { createLoginRequest } from './login-requests.ts';
import { PRUNE_BATCH_ROWS, RETENTION_MS, pruneExpired, type PruneCounts } from './pruning.ts';
import { createSession } from './sessions.ts';
import { sha256 } from './crypto.ts';

const TABLES = [
  'users',
  'sessions',
  'email_codes',
  'invites',
  'login_requests',
  'cookie_hashes',
  'federation_states',
  'oidc_payloads',
  'access_codes',
  'access_code_failures',
  'outbox',
  'mailbox',
  'audit_log',
] as const satisfies readonly (keyof PruneCounts)[];

describe('retention', () => {
  it('keeps the audit log a year, spent links and codes a day, sessions and access codes a month', () => {
    expect(RETENTION_MS).toMatchObject({
      auditLog: 365 * DAY_MS,
      spent: DAY_MS,
      sessions: 30 * DAY_MS,
      accessCodes: 30 * DAY_MS,
      mailbox: 7 * DAY_MS,
      outboxDelivered: 7 * DAY_MS,
      outboxFailed: 30 * DAY_MS,
      unconfirmedSignups: 30 * DAY_MS,
    });
  });
});

describe.each(DIALECTS)('pruneExpired on $dialect', ({ dialect, skip }) => {
  let t: TestApp;
  beforeAll(async () => {
    if (!skip) t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  const rowCounts = async () => {
    const counts: Record<string, number> = {};
    for (const table of TABLES) {
      const row = await t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      counts[table] = Number(row.n);
    }
    return counts;
  };

  /** Two rows a table or more: `gone` are dead past their retention, the others live or recently dead. */
  async function seed(): Promise<Record<(typeof TABLES)[number], { gone: number; kept: number }>> {
    const now = t.clock.now();
    const ago = (ms: number) => now - ms;
    const user = await seedUser(t, { email: 'pruned@school.test' });
    await seedServiceProvider(t, 'prunesp');

    // users: a sign-up nobody confirmed for a month, with no code mailed since (gone); one with a code
    // mailed a day and a half ago, one confirmed more than a year ago, and an administrator's account
    // awaiting its verification (kept)
    const signup = async (
      email: string,
      createdAt: number,
      description: string | null,
      confirmed = false,
    ) => {
      const row = await seedUser(t, { email, confirmed });
      await t.db
        .updateTable('users')
        .set({ created_at: createdAt, description })
        .where('id', '=', row.id)
        .execute();
      return row;
    };
    await signup('abandoned@school.test', ago(31 * DAY_MS), 'student');
    const stillTrying = await signup('still-trying@school.test', ago(31 * DAY_MS), 'student');
    await t.db
      .transaction()
      .execute((trx) => issueCode(trx, t.ctx.config.secret, stillTrying, 'verify', ago(36 * HOUR_MS)));
    await signup('confirmed-long-ago@school.test', ago(400 * DAY_MS), 'teacher', true);
    await signup('admin-made@school.test', ago(40 * DAY_MS), null);

    // sessions: expired a month and a day ago (gone); revoked yesterday, and live (kept)
    await createSession(t.db, user.id, { now: ago(31 * DAY_MS), ttlMs: HOUR_MS });
    const revoked = await createSession(t.db, user.id, { now: ago(DAY_MS) });
    await t.db
      .updateTable('sessions')
      .set({ revoked_at: ago(DAY_MS - HOUR_MS) })
      .where('id', '=', sha256(revoked))
      .execute();
    await createSession(t.db, user.id, { now });

    // mailed codes (a newer code consumes the older one of its purpose): expired 3 days ago, and
    // consumed 29 hours ago though not yet expired then (gone); expired 5 hours ago, issued within
    // the hour the mail limit counts, and live (kept)
    const code = (purpose: 'verify' | 'reset', issuedAt: number) =>
      t.db.transaction().execute((trx) => issueCode(trx, t.ctx.config.secret, user, purpose, issuedAt));
    await code('reset', ago(3 * DAY_MS));
    await code('verify', ago(36 * HOUR_MS));
    await code('verify', ago(29 * HOUR_MS));
    await code('reset', ago(30 * 60 * 1000));
    await code('reset', now);

    const invite = (code: string, expiresAt: number, usedAt: number | null) =>
      t.db
        .insertInto('invites')
        .values({
          code,
          email: 'x@school.test',
          created_at: ago(20 * DAY_MS),
          expires_at: expiresAt,
          used_at: usedAt,
        })
        .execute();
    await invite('expired', ago(2 * DAY_MS), null);
    await invite('used', now + DAY_MS, ago(2 * DAY_MS));
    await invite('live', now + DAY_MS, null);
    await invite('used-today', now + DAY_MS, ago(HOUR_MS));

    const request = { spId: 'prunesp', url: 'https://app.mathworld.test/', isTeacher: false };
    await createLoginRequest(t.db, request, ago(2 * DAY_MS));
    await createLoginRequest(t.db, request, now);

    const cookie = { userId: user.id, spId: 'prunesp', browser: 'b' };
    await createCookieHash(t.db, cookie, ago(2 * DAY_MS));
    await createCookieHash(t.db, cookie, now);

    const state = (id: string, createdAt: number) =>
      t.db
        .insertInto('federation_states')
        .values({
          state: id,
          provider: 'Google',
          browser_binding: 'b',
          login_csrf: null,
          created_at: createdAt,
          expires_at: createdAt + 10 * 60 * 1000,
          used_at: null,
        })
        .execute();
    await state('old', ago(2 * DAY_MS));
    // an unauthenticated get_csrf writes one: it goes as it expires, not a day later
    await state('just-expired', ago(11 * 60 * 1000));
    await state('new', now);

    const payload = (id: string, expiresAt: number | null, type = 'AccessToken') =>
      t.db
        .insertInto('oidc_payloads')
        .values({
          id,
          type,
          payload: '{}',
          grant_id: null,
          user_code: null,
          uid: null,
          expires_at: expiresAt,
          consumed_at: null,
        })
        .execute();
    await payload('old', ago(2 * DAY_MS));
    await payload('recent', ago(HOUR_MS));
    await payload('forever', null);
    // an interaction (a sign-in page's request) is of no use once it has ended: gone at once,
    // since one address can start thousands of them an hour; a live one stays
    await payload('ended-interaction', ago(1000), 'Interaction');
    await payload('live-interaction', now + HOUR_MS, 'Interaction');

    // access codes: expired and revoked over a month ago (gone); expired a week ago, and live (kept)
    const at = (ms: number) => ({ ...t.ctx, now: () => ms });
    await createAccessCode(at(ago(40 * DAY_MS)), { spId: 'prunesp', userId: user.id, ttlDays: 5 });
    const revokedCode = await createAccessCode(at(ago(40 * DAY_MS)), { spId: 'prunesp', userId: user.id });
    await t.db
      .updateTable('access_codes')
      .set({ revoked_at: ago(35 * DAY_MS) })
      .where('id', '=', revokedCode.id)
      .execute();
    await createAccessCode(at(ago(14 * DAY_MS)), { spId: 'prunesp', userId: user.id, ttlDays: 7 });
    await createAccessCode(t.ctx, { spId: 'prunesp', userId: user.id });

    for (const day of [utcDay(ago(31 * DAY_MS)), utcDay(ago(29 * DAY_MS)), utcDay(now)])
      await t.db
        .insertInto('access_code_failures')
        .values({ sp_id: 'prunesp', day, failures: 3, exhausted_at: null })
        .execute();

    // outbox: delivered 8 days ago, failed 31 days ago (gone); delivered 6 days ago, failed 29 days
    // ago, and pending (kept)
    const outbox = (end: { delivered_at: number } | { failed_at: number } | null) =>
      t.db
        .insertInto('outbox')
        .values({
          kind: 'crm',
          user_id: user.id,
          payload: '{}',
          attempts: 1,
          next_attempt_at: end ? null : now,
          created_at: ago(60 * DAY_MS),
          ...end,
        })
        .execute();
    await outbox({ delivered_at: ago(8 * DAY_MS) });
    await outbox({ failed_at: ago(31 * DAY_MS) });
    await outbox({ delivered_at: ago(6 * DAY_MS) });
    await outbox({ failed_at: ago(29 * DAY_MS) });
    await outbox(null);

    const mail = (sentAt: number) =>
      t.db
        .insertInto('mailbox')
        .values({ to_address: 'x@school.test', subject: 's', text: 't', html: 'h', sent_at: sentAt })
        .execute();
    await mail(ago(8 * DAY_MS));
    await mail(now);

    await audit(at(ago(366 * DAY_MS)), { event: 'account.locked', userId: user.id });
    await audit(at(ago(364 * DAY_MS)), { event: 'account.unlocked', userId: user.id });

    return {
      // the sign-up still trying and its code are kept: its code is one of email_codes' kept ones
      users: { gone: 1, kept: 4 },
      sessions: { gone: 1, kept: 2 },
      email_codes: { gone: 2, kept: 4 },
      invites: { gone: 2, kept: 2 },
      login_requests: { gone: 1, kept: 1 },
      cookie_hashes: { gone: 1, kept: 1 },
      federation_states: { gone: 2, kept: 1 },
      oidc_payloads: { gone: 2, kept: 3 },
      access_codes: { gone: 2, kept: 2 },
      access_code_failures: { gone: 1, kept: 2 },
      outbox: { gone: 2, kept: 3 },
      mailbox: { gone: 1, kept: 1 },
      audit_log: { gone: 1, kept: 1 },
    };
  }

  it.skipIf(skip)(
    'deletes what is dead past its retention, keeps the rest, and counts per table',
    async () => {
      const expected = await seed();
      const before = await rowCounts();
      for (const table of TABLES)
        expect(before[table], table).toBe(expected[table].gone + expected[table].kept);

      const counts = await pruneExpired(t.ctx);
      expect(counts).toEqual(Object.fromEntries(TABLES.map((table) => [table, expected[table].gone])));
      expect(await rowCounts()).toEqual(
        Object.fromEntries(TABLES.map((table) => [table, expected[table].kept])),
      );

      // nothing more to delete until time passes
      expect(Object.values(await pruneExpired(t.ctx)).every((n) => n === 0)).toBe(true);

      // 400 days on every lifetime has ended: only the outbox row still pending and the
      // authorization server's row without an expiry stay
      t.clock.advance(400 * DAY_MS);
      await pruneExpired(t.ctx);
      expect(await rowCounts()).toEqual({
        ...Object.fromEntries(TABLES.map((table) => [table, 0])),
        outbox: 1,
        oidc_payloads: 1,
        // the confirmed accounts (signed up or not) and the administrator's, which no retention ends
        users: 3,
      });
    },
  );

  it.skipIf(skip)(
    'an unconfirmed sign-up past its retention leaves no client address in the audit log; a live account keeps its own, and one turned off stays',
    async () => {
      const now = t.clock.now();
      const abandoned = await seedUser(t, { email: 'gone-signup@school.test', confirmed: false });
      const kept = await seedUser(t, { email: 'kept-signup@school.test' });
      // one an operator turned off (`user disable` keeps its data) stays, unconfirmed as it is
      const disabled = await seedUser(t, { email: 'disabled-signup@school.test', confirmed: false });
      await t.db
        .updateTable('users')
        .set({ created_at: now - 31 * DAY_MS, description: 'student' })
        .where('id', 'in', [abandoned.id, kept.id, disabled.id])
        .execute();
      await t.db.updateTable('users').set({ disabled_at: now }).where('id', '=', disabled.id).execute();
      const at = { ...t.ctx, now: () => now - 31 * DAY_MS };
      for (const userId of [abandoned.id, kept.id])
        await audit(at, {
          event: 'code.failed',
          userId,
          address: '198.51.100.7',
          detail: { purpose: 'verify' },
        });
      expect((await pruneExpired(t.ctx)).users).toBe(1);
      expect(await t.db.selectFrom('users').select('id').where('id', '=', disabled.id).execute()).toEqual([
        { id: disabled.id },
      ]);
      const entries = await t.db
        .selectFrom('audit_log')
        .select(['user_id', 'address'])
        .where('user_id', 'in', [abandoned.id, kept.id])
        .orderBy('id')
        .execute();
      expect(entries).toEqual([
        { user_id: abandoned.id, address: null },
        { user_id: kept.id, address: '198.51.100.7' },
      ]);
    },
  );

  it.skipIf(skip)(
    "deletes a backlog in statements of at most PRUNE_BATCH_ROWS rows, whatever the table's key",
    async () => {
      const now = t.clock.now();
      const rows = (n: number) => Array.from({ length: n }, (_, i) => i);
      // a year of a district's audit entries after an upgrade, and a day of one address's sign-in
      // steps (the authorization server's interactions, keyed by id and type)
      const year = 2 * PRUNE_BATCH_ROWS + 500;
      for (const part of [rows(year).slice(0, PRUNE_BATCH_ROWS * 2), rows(year).slice(PRUNE_BATCH_ROWS * 2)])
        await t.db
          .insertInto('audit_log')
          .values(part.map((i) => ({ at: now - 400 * DAY_MS + i, event: 'sign_in', detail: '{}' })))
          .execute();
      const steps = PRUNE_BATCH_ROWS + 100;
      await t.db
        .insertInto('oidc_payloads')
        .values(
          rows(steps).map((i) => ({
            id: `step-${i}`,
            type: 'Interaction',
            payload: '{}',
            grant_id: null,
            user_code: null,
            uid: null,
            expires_at: now - 1000,
            consumed_at: null,
          })),
        )
        .execute();

      // each delete statement's table and the rows it removed
      const tables = new Map<QueryId, string>();
      const deletes: { table: string; rows: number }[] = [];
      const recorder: KyselyPlugin = {
        transformQuery: ({ node, queryId }) => {
          if (node.kind === 'DeleteQueryNode') {
            const from = node.from.froms[0];
            if (from && TableNode.is(from)) tables.set(queryId, from.table.identifier.name);
          }
          return node;
        },
        transformResult: async ({ result, queryId }) => {
          const table = tables.get(queryId);
          if (table) deletes.push({ table, rows: Number(result.numAffectedRows) });
          return result;
        },
      };

      const counts = await pruneExpired({ ...t.ctx, db: t.db.withPlugin(recorder) });
      expect(counts).toMatchObject({ audit_log: year, oidc_payloads: steps });
      const of = (table: string) => deletes.filter((d) => d.table === table).map((d) => d.rows);
      expect(of('audit_log')).toEqual([PRUNE_BATCH_ROWS, PRUNE_BATCH_ROWS, 500]);
      expect(of('oidc_payloads')).toEqual([PRUNE_BATCH_ROWS, 100]);
      // a table with nothing to delete costs one statement
      expect(of('mailbox')).toEqual([0]);
    },
  );
});

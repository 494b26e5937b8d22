import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { TEST_SECRET, createTestDb } from '../../../test/test-db.ts';
import { DIALECTS } from '../../../test/harness.ts';
import { newUserRow } from '../../services/users.ts';
import { migrateTo } from '../index.ts';
import { lastSignInFromAuditLog } from './018_last_sign_in.ts';

/** A row of users as it was before the column. */
const account = (email: string) => {
  const {
    last_sign_in_at: _new,
    disabled_at: _later,
    ...row
  } = newUserRow({ email, first: 'A', last: 'B', passwordHash: '$argon2id$x', confirmed: true }, 1);
  return row;
};

describe.each(DIALECTS)('migration 018 on a database with accounts ($dialect)', ({ dialect, skip }) => {
  it.skipIf(skip)(
    "dates each account's last sign-in by its latest session.started in the audit log, and leaves the others null",
    async () => {
      const { db, drop } = await createTestDb(dialect, undefined, '017_outbox_request');
      try {
        const regular = account('regular@school.test');
        const failing = account('failing@school.test');
        const never = account('never@school.test');
        await db.insertInto('users').values([regular, failing, never]).execute();
        const entry = (event: string, userId: string | null, at: number) => ({
          at,
          event,
          user_id: userId,
          sp_id: null,
          address: '198.51.100.7',
          detail: '{}',
        });
        await db
          .insertInto('audit_log')
          .values([
            entry('session.started', regular.id, 1_000),
            entry('session.started', regular.id, 7_000),
            entry('sign-in.failed', regular.id, 9_000),
            // a failed sign-in is no use of the account
            entry('sign-in.failed', failing.id, 8_000),
            entry('session.started', null, 6_000),
          ])
          .execute();

        await migrateTo(db, { secret: TEST_SECRET });
        const rows = await db
          .selectFrom('users')
          .select(['email', 'last_sign_in_at'])
          .orderBy('email')
          .execute();
        expect(rows).toEqual([
          { email: 'failing@school.test', last_sign_in_at: null },
          { email: 'never@school.test', last_sign_in_at: null },
          { email: 'regular@school.test', last_sign_in_at: 7_000 },
        ]);
      } finally {
        await drop();
      }
    },
  );
});

/** A plan node of PostgreSQL's EXPLAIN (FORMAT JSON). */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Parent Relationship'?: string;
  Plans?: PlanNode[];
}

const readsAuditLog = (node: PlanNode): boolean =>
  node['Relation Name'] === 'audit_log' || (node.Plans ?? []).some(readsAuditLog);

/** Whether the audit log is read again per account: in a subplan, or inside a nested loop's inner side. */
const perAccount = (node: PlanNode): boolean =>
  (node['Parent Relationship'] === 'SubPlan' && readsAuditLog(node)) ||
  (node['Node Type'] === 'Nested Loop' && readsAuditLog(node.Plans?.[1] ?? node)) ||
  (node.Plans ?? []).some(perAccount);

describe('migration 018 on a PostgreSQL just restored (no statistics)', () => {
  const postgres = DIALECTS.find((d) => d.dialect === 'postgres');
  it.skipIf(postgres?.skip)(
    'reads the audit log once for all accounts, not once per account, and dates each account right',
    async () => {
      const { db, drop } = await createTestDb('postgres', undefined, '017_outbox_request');
      try {
        // pg_restore leaves tables unanalyzed; autovacuum must not analyze them under the test
        for (const table of ['users', 'audit_log'])
          await sql`alter table ${sql.table(table)} set (autovacuum_enabled = false)`.execute(db);
        const users = Array.from({ length: 20_000 }, (_, i) => account(`u${i}@school.test`));
        for (let i = 0; i < users.length; i += 1_000)
          await db
            .insertInto('users')
            .values(users.slice(i, i + 1_000))
            .execute();
        // five entries per account, a third of them session starts, as a district's year holds
        const events = ['session.started', 'sign-in.failed', 'password.changed'];
        const entries = Array.from({ length: 100_000 }, (_, i) => ({
          at: 1_000 + i,
          event: events[i % 3] ?? '',
          user_id: users[i % users.length]?.id ?? null,
          sp_id: null,
          address: '198.51.100.7',
          detail: '{}',
        }));
        for (let i = 0; i < entries.length; i += 5_000)
          await db
            .insertInto('audit_log')
            .values(entries.slice(i, i + 5_000))
            .execute();

        // planned as the migration plans it (its index and column made, the tables unanalyzed), then undone
        const plan = await db.connection().execute(async (connection) => {
          await sql`begin`.execute(connection);
          try {
            await sql`create index audit_log_user on audit_log (user_id)`.execute(connection);
            await sql`alter table users add column last_sign_in_at bigint`.execute(connection);
            const { rows } = await sql<{
              'QUERY PLAN': [{ Plan: PlanNode }];
            }>`explain (format json) ${lastSignInFromAuditLog}`.execute(connection);
            return rows[0]?.['QUERY PLAN'][0].Plan;
          } finally {
            await sql`rollback`.execute(connection);
          }
        });
        expect(plan && readsAuditLog(plan)).toBe(true);
        expect(plan && perAccount(plan), JSON.stringify(plan)).toBe(false);

        await migrateTo(db, { secret: TEST_SECRET }, '018_last_sign_in');
        const { rows: analyzed } = await sql<{ n: number }>`select count(*)::int as n from pg_stats
          where tablename in ('users', 'audit_log') and schemaname = current_schema()`.execute(db);
        expect(analyzed).toEqual([{ n: 0 }]);

        const latest = new Map<string, number>();
        for (const entry of entries)
          if (entry.event === 'session.started' && entry.user_id)
            latest.set(entry.user_id, Math.max(latest.get(entry.user_id) ?? 0, entry.at));
        const rows = await db.selectFrom('users').select(['id', 'last_sign_in_at']).execute();
        expect(rows.length).toBe(users.length);
        for (const row of rows) expect(row.last_sign_in_at, row.id).toBe(latest.get(row.id) ?? null);
      } finally {
        await drop();
      }
    },
    60_000,
  );
});

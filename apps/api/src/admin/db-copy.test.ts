import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { sql, type Insertable } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_JWKS_PATH, sessionSchema } from '@frontdoor/contract';
import { buildApp } from '../app.ts';
import { createDb, executedMigrations, type Db } from '../db/index.ts';
import type { Database } from '../db/types.ts';
import { createAccessCode } from '../services/access-codes.ts';
import { createLoginRequest } from '../services/login-requests.ts';
import { createSession } from '../services/sessions.ts';
import { createTestContext } from '../../test/context.ts';
import {
  ApiClient,
  DIALECTS,
  TEST_PASSWORD,
  createTestApp,
  createTestDb,
  lastMail,
  portalAuthorizeUrl,
  seedServiceProvider,
  seedUser,
  type TestApp,
} from '../../test/harness.ts';
import { createPostgresDatabase } from '../../test/test-db.ts';
import { COPY_BATCH_ROWS, CopyRefused, copyDatabase, foreignKeyOrder } from './db-copy.ts';
import { parseAdminArgs, runAdminCommand } from './commands.ts';

const pgSkipped = DIALECTS.find((d) => d.dialect === 'postgres')?.skip ?? true;
const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cli.ts');
const exec = promisify(execFile);

/**
 * Rows for the tables no flow of the test fills. Typed over every table of `Database`: a table
 * added there and not here fails the typecheck, and one a migration adds without rows here fails
 * the test's "every table holds rows" check.
 */
function moreRows(
  userId: string,
  spId: string,
  now: number,
): { [T in keyof Database]: Insertable<Database[T]>[] } {
  return {
    // filled by the flows of the test: seedUser, sendreset and the mail it queues, a password
    // sign-in, createSession, createAccessCode, createLoginRequest, the authorize request, the keys
    users: [],
    email_codes: [],
    outbox: [],
    mailbox: [],
    audit_log: [],
    sessions: [],
    access_codes: [],
    login_requests: [],
    service_providers: [],
    oidc_payloads: [],
    identity_keys: [],
    instance_secrets: [{ instance_id: 'instance-1', fingerprint: 'fingerprint-1', seen_at: now }],
    user_identities: [
      {
        user_id: userId,
        provider: 'google',
        subject: 'g-1',
        email: 'ada@school.test',
        created_at: now,
        claims: '{}',
      },
      { user_id: userId, provider: 'apple', subject: 'a-1', email: null, created_at: now, claims: null },
    ],
    invites: [
      { code: 'invite-1', email: 'new@school.test', created_at: now, expires_at: now + 1e9, used_at: null },
    ],
    cookie_hashes: [
      {
        hash_digest: 'digest-1',
        user_id: userId,
        sp_id: spId,
        expires_at: now + 60_000,
        used_at: null,
        created_at: now,
      },
    ],
    subscriptions: [{ user_id: userId, subscription_id: 1, subscribed: 1, updated_at: now }],
    realm_overrides: [{ domain: 'school.test', account_type: 'Managed' }],
    federation_states: [
      {
        state: 'state-1',
        provider: 'google',
        browser_binding: 'binding',
        created_at: now,
        expires_at: now + 600_000,
        used_at: null,
        login_csrf: null,
      },
    ],
    access_code_failures: [{ sp_id: spId, day: 20_468, failures: 3, exhausted_at: null }],
  };
}

/** Every row of every table, in a stable order: what the two databases must hold alike. */
async function contents(db: Db, tables: string[]): Promise<Record<string, string[]>> {
  const all: Record<string, string[]> = {};
  for (const table of tables) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
    all[table] = rows
      .map((row) =>
        JSON.stringify(Object.fromEntries(Object.entries(row).sort(([a], [b]) => a.localeCompare(b)))),
      )
      .sort();
  }
  return all;
}

describe('foreignKeyOrder', () => {
  it('puts each table after those it refers to, a table referring to itself included, and refuses a cycle', () => {
    expect(
      foreignKeyOrder(
        ['sessions', 'users', 'access_codes', 'service_providers', 'tree'],
        [
          { table: 'sessions', references: 'users' },
          { table: 'access_codes', references: 'users' },
          { table: 'access_codes', references: 'service_providers' },
          { table: 'tree', references: 'tree' },
        ],
      ),
    ).toEqual(['service_providers', 'tree', 'users', 'access_codes', 'sessions']);
    expect(() =>
      foreignKeyOrder(
        ['a', 'b'],
        [
          { table: 'a', references: 'b' },
          { table: 'b', references: 'a' },
        ],
      ),
    ).toThrow(/cycle among a, b/);
  });
});

describe.skipIf(pgSkipped)('db copy from SQLite to PostgreSQL', () => {
  let source: TestApp;
  let target: { url: string; drop: () => Promise<void> } | undefined;
  let copied: Db | undefined;
  let copiedApp: FastifyInstance | undefined;
  const run = (...argv: string[]) => {
    const { positionals, values } = parseAdminArgs(argv);
    return runAdminCommand(source.ctx, positionals, values);
  };

  beforeAll(async () => {
    source = await createTestApp('sqlite');
  });
  afterAll(async () => source?.close());
  afterEach(async () => {
    await copiedApp?.close();
    await copied?.destroy();
    copiedApp = undefined;
    copied = undefined;
    await target?.drop();
    target = undefined;
  });

  it('copies every table of a used SQLite database; on the copy sessions, pending codes, access codes and keys work, and a new row of every serial table takes the next id', async () => {
    const t = source;
    const now = t.clock.now();
    const ada = await seedUser(t, { email: 'ada@school.test' });
    await seedUser(t, { email: 'bob@school.test' });
    const sp = await seedServiceProvider(t);
    const token = await createSession(t.db, ada.id, { now });
    const access = await createAccessCode(t.ctx, { spId: sp.sp_id, userId: ada.id });
    await createLoginRequest(
      t.db,
      { spId: sp.sp_id, url: 'https://app.mathworld.test/start', isTeacher: false },
      now,
    );
    // an Interaction of the authorization server (oidc_payloads)
    expect((await t.app.inject({ url: portalAuthorizeUrl(t) })).statusCode).toBe(303);
    // the product token's keys (identity_keys), as products have cached them
    const jwks = (await t.client().get(PRODUCT_JWKS_PATH)).json();
    // a sign-in (audit_log) and a pending reset code, mailed (email_codes, outbox, mailbox)
    expect(
      (await t.client().post('/api/cognito/login', { email: 'bob@school.test', password: TEST_PASSWORD }))
        .statusCode,
    ).toBe(200);
    expect((await t.client().post('/api/cognito/sendreset', { un: 'ada@school.test' })).statusCode).toBe(200);
    const { code } = await lastMail(t, 'ada@school.test');
    expect(code).toMatch(/^\d{8}$/);
    for (const [table, rows] of Object.entries(moreRows(ada.id, sp.sp_id, now)))
      if (rows.length)
        await t.db
          .insertInto(table as keyof Database)
          .values(rows as never)
          .execute();
    // rows past a deleted one: SQLite never gives the deleted id again, nor may PostgreSQL
    await t.db.deleteFrom('user_identities').where('provider', '=', 'apple').execute();

    const { url } = (target = await createPostgresDatabase());
    const result = await run('--json', 'db', 'copy', '--to', url);

    const tables = Object.keys(result.tables as Record<string, number>);
    // every table a migration made, and the rows of each as SQLite stores them
    expect(tables.toSorted()).toEqual(Object.keys(moreRows('', '', 0)).toSorted());
    expect(Object.entries(result.tables as Record<string, number>).filter(([, n]) => n === 0)).toEqual([]);
    // parents first
    expect(tables.indexOf('users')).toBeLessThan(tables.indexOf('sessions'));
    expect(tables.indexOf('service_providers')).toBeLessThan(tables.indexOf('access_codes'));
    copied = createDb({ databaseUrl: url, dataDir: '.' });
    // the audit entry of `db copy` itself goes to the source after the copy
    const sourceRows = await contents(t.db, tables);
    const auditOfCopy = sourceRows.audit_log?.filter((row) => row.includes('admin.command')) ?? [];
    expect(auditOfCopy).toHaveLength(1);
    // its --to is a database URL: recorded as given at all, never looked up as a person's address
    expect(auditOfCopy[0]).toContain(String.raw`\"options\":{\"to\":true}`);
    sourceRows.audit_log = sourceRows.audit_log?.filter((row) => !row.includes('admin.command')) ?? [];
    expect(await contents(copied, tables)).toEqual(sourceRows);
    expect(result.copied).toMatch(
      /^\d+ rows of \d+ tables from SQLite in DATA_DIR .* to PostgreSQL at \S+\/api_test_\w+, its id sequences set/,
    );
    expect(result.next).toMatch(/same SECRET as the SQLite server had/);
    expect(JSON.stringify(result)).not.toMatch(/postgres:\/\//);

    // the server on the copy, with the same settings (SECRET)
    const ctx = await createTestContext({
      config: t.ctx.config,
      db: copied,
      now: t.clock.now,
      logger: t.ctx.logger,
    });
    copiedApp = await buildApp(ctx);
    await copiedApp.ready();
    const client = () => new ApiClient(copiedApp as FastifyInstance, t.clock.now);
    // the session reads, its product token signed with a key products already hold
    const session = sessionSchema.parse((await client().signInWith(token).get('/api/auth/sig')).json());
    expect(session).toMatchObject({
      loggedin: true,
      payload: { signature: { user: { email: 'ada@school.test' } } },
    });
    expect((await client().get(PRODUCT_JWKS_PATH)).json()).toEqual(jwks);
    // writes to the serial tables: a sign-in (audit_log), a reset mailed (email_codes, outbox, mailbox)
    expect(
      (await client().post('/api/cognito/login', { email: 'bob@school.test', password: TEST_PASSWORD }))
        .statusCode,
    ).toBe(200);
    expect((await client().post('/api/cognito/sendreset', { un: 'bob@school.test' })).statusCode).toBe(200);
    expect((await lastMail({ db: copied, ctx }, 'bob@school.test')).code).toMatch(/^\d{8}$/);
    // the code mailed on SQLite still resets (it is stored keyed by SECRET)
    const pw = 'Moved-To-Postgres-77';
    expect(
      (await client().post('/api/cognito/reset', { un: 'ada@school.test', code, pw, confirmPw: pw }))
        .statusCode,
    ).toBe(200);
    // the access code is the one the student holds
    const { rows: codes } = await sql<{ id: string }>`select id from access_codes`.execute(copied);
    expect(codes.map((row) => row.id)).toContain(access.id);
    // each serial table takes its next id after the highest SQLite gave, the deleted one's too
    const identity = await copied
      .insertInto('user_identities')
      .values({
        user_id: ada.id,
        provider: 'clever',
        subject: 'c-1',
        email: null,
        created_at: now,
        claims: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(identity.id).toBe(3);
    for (const table of ['audit_log', 'email_codes', 'outbox', 'mailbox'] as const) {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(
        copied,
      );
      expect(rows[0]?.n, table).toBeGreaterThan((result.tables as Record<string, number>)[table] ?? 0);
    }
  }, 60_000);

  it('copies a table larger than a batch, batch by batch', async () => {
    const db = (await createTestDb('sqlite')).db;
    try {
      const rows = Array.from({ length: COPY_BATCH_ROWS * 2 + 7 }, (_, i) => ({
        to_address: `n${i}@school.test`,
        subject: 's',
        text: 't',
        html: 'h',
        sent_at: i,
      }));
      for (let i = 0; i < rows.length; i += 100)
        await db
          .insertInto('mailbox')
          .values(rows.slice(i, i + 100))
          .execute();
      target = await createPostgresDatabase();
      copied = createDb({ databaseUrl: target.url, dataDir: '.' });
      const result = await copyDatabase(db, copied, { secret: source.ctx.config.secret, batchRows: 100 });
      expect(result.tables.mailbox).toBe(rows.length);
      expect(result.sequences).toMatchObject({ mailbox: rows.length, audit_log: 0 });
      const next = await copied
        .insertInto('mailbox')
        .values(rows[0] as (typeof rows)[0])
        .returning('id')
        .executeTakeFirstOrThrow();
      expect(next.id).toBe(rows.length + 1);
      // an empty table's sequence starts at 1, as on a new database
      const audit = await copied
        .insertInto('audit_log')
        .values({ at: 1, event: 'e', user_id: null, sp_id: null, address: null, detail: '{}' })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect(audit.id).toBe(1);
    } finally {
      await db.destroy();
    }
  }, 60_000);

  it('refuses a PostgreSQL database that has tables (one in use), before migrating it, and leaves it as it was', async () => {
    target = await createPostgresDatabase();
    await run('db', 'copy', '--to', target.url);
    copied = createDb({ databaseUrl: target.url, dataDir: '.' });
    const users = await copied.selectFrom('users').select('id').execute();
    await seedUser(source, { email: 'later@school.test' });
    await expect(run('db', 'copy', '--to', target.url)).rejects.toThrow(
      /^the PostgreSQL database is not empty \(.*users.*\): copy into a new, empty database/,
    );
    expect(await copied.selectFrom('users').select('id').execute()).toEqual(users);
  }, 60_000);

  it('refuses a SQLite database behind this release, naming what to do, and leaves PostgreSQL without even the schema', async () => {
    const behind = await createTestDb('sqlite', undefined, '016_foreign_key_indexes');
    try {
      target = await createPostgresDatabase();
      copied = createDb({ databaseUrl: target.url, dataDir: '.' });
      const refused = copyDatabase(behind.db, copied, { secret: source.ctx.config.secret });
      await expect(refused).rejects.toThrow(CopyRefused);
      await expect(refused).rejects.toThrow(
        /has not run migration 017_outbox_request(, \w+)* of this release: start this release once on SQLite/,
      );
      const { rows } = await sql`select tablename from pg_tables where schemaname = current_schema()`.execute(
        copied,
      );
      expect(rows).toEqual([]);
    } finally {
      await behind.db.destroy();
    }
  }, 60_000);

  it('as the CLI runs it, leaves a SQLite database behind this release as it was and refuses it, and refuses a DATA_DIR holding no database', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'fd-copy-'));
    try {
      const behind = await createTestDb('sqlite', dataDir, '016_foreign_key_indexes');
      await behind.db.destroy();
      target = await createPostgresDatabase();
      const copy = (from: string) =>
        exec(process.execPath, [CLI, '--json', 'db', 'copy', '--to', target?.url ?? ''], {
          env: { ...process.env, DATA_DIR: from, APP_ENV: 'development', DATABASE_URL: '' },
        }).then(
          () => ({ code: 0, error: '' }),
          (e: { code: number; stderr: string }) => ({
            code: e.code,
            error: (JSON.parse(e.stderr.trim().split('\n').at(-1) ?? '{}') as { error?: string }).error,
          }),
        );
      expect(await copy(dataDir)).toEqual({
        code: 1,
        error: expect.stringMatching(
          /has not run migration 017_outbox_request.*start this release once on SQLite/,
        ),
      });
      // not migrated by the CLI: the release that ran on it still starts on it
      const kept = createDb({ dataDir });
      expect((await executedMigrations(kept)).at(-1)).toBe('016_foreign_key_indexes');
      await kept.destroy();
      // a DATA_DIR mistyped: refused, and nothing made there
      expect(await copy(path.join(dataDir, 'mistyped'))).toEqual({
        code: 1,
        error: expect.stringMatching(
          /^DATA_DIR \S+mistyped holds no database \(frontdoor\.sqlite\): DATA_DIR must name/,
        ),
      });
      expect(existsSync(path.join(dataDir, 'mistyped'))).toBe(false);
      // an empty file where the database should be: no server ever ran on it
      mkdirSync(path.join(dataDir, 'empty'));
      writeFileSync(path.join(dataDir, 'empty', 'frontdoor.sqlite'), '');
      expect(await copy(path.join(dataDir, 'empty'))).toEqual({
        code: 1,
        error: expect.stringMatching(
          /^the SQLite database to copy from is new and empty.*DATA_DIR must name/,
        ),
      });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses without --to, a --to that is not PostgreSQL, and a CLI configured with DATABASE_URL', async () => {
    await expect(run('db', 'copy')).rejects.toThrow(/^--to <postgres URL> is required/);
    await expect(run('db', 'copy', '--to', 'mysql://x/y')).rejects.toThrow(/^--to must be a postgres:\/\//);
    const ctx = {
      ...source.ctx,
      config: { ...source.ctx.config, databaseUrl: 'postgres://u:pw@db.test/live' },
    };
    await expect(runAdminCommand(ctx, ['db', 'copy'], { to: 'postgres://u:pw@db.test/new' })).rejects.toThrow(
      /DATABASE_URL is set \(PostgreSQL at db\.test\/live\): run it with DATABASE_URL unset/,
    );
    await expect(run('db', 'copy', '--to', 'postgres://nobody@127.0.0.1:1/none')).rejects.toThrow(
      /^PostgreSQL at 127\.0\.0\.1:1\/none \(--to\) cannot be used \(.*ECONNREFUSED/,
    );
  }, 60_000);
});

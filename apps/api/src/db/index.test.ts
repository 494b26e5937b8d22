import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresAdapter, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../../test/harness.ts';
import {
  createPostgresDatabase,
  createTestDb,
  postgresReachable,
  TEST_DATABASE_URL,
  TEST_SECRET,
} from '../../test/test-db.ts';
import {
  assertWritable,
  createDb,
  exposedDatabasePaths,
  migrateToLatest,
  rescueDatabase,
  MigrationError,
  RELEASE_MIGRATIONS,
  PoolBusyError,
  type Db,
} from './index.ts';

describe('createDb on SQLite', () => {
  let dataDir: string;
  let db: Db;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'fd-db-'));
    db = createDb({ dataDir });
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const count = async () =>
    (await sql<{ n: number }>`select count(*) as n from blobs`.execute(db)).rows[0]?.n;

  it("lets a transaction's error reach the caller when SQLite rolled back by itself (disk full), not Kysely's failed ROLLBACK", async () => {
    await sql`create table blobs (v blob)`.execute(db);
    const pages = (await sql<{ page_count: number }>`pragma page_count`.execute(db)).rows[0]?.page_count;
    // a full disk, made small: two pages more than the file has cannot hold a 100 kB row
    await sql.raw(`pragma max_page_count = ${Number(pages) + 2}`).execute(db);

    const failed = await db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into blobs values (${Buffer.alloc(10)})`.execute(trx);
        await sql`insert into blobs values (${Buffer.alloc(100_000)})`.execute(trx);
      })
      .catch((err: unknown) => err);
    expect(failed).toMatchObject({ code: 'SQLITE_FULL', message: 'database or disk is full' });
    expect(await count()).toBe(0);

    // a transaction SQLite did not end is still rolled back by Kysely, and the connection goes on
    const thrown = new Error('after the insert');
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`insert into blobs values (${Buffer.alloc(10)})`.execute(trx);
        throw thrown;
      }),
    ).rejects.toBe(thrown);
    expect(await count()).toBe(0);
    await sql`insert into blobs values (${Buffer.alloc(10)})`.execute(db);
    expect(await count()).toBe(1);
  });
});

describe.each(DIALECTS)('a failed migration ($dialect)', ({ dialect, skip }) => {
  /** Whether an index of this name exists, and the migrations the database recorded. */
  async function state(db: Db) {
    const index =
      dialect === 'sqlite'
        ? sql`select name from sqlite_master where type = 'index' and name = 'sessions_masq_user'`
        : sql`select indexname from pg_indexes where indexname = 'sessions_masq_user'`;
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    return { indexed: (await index.execute(db)).rows.length > 0, last: rows.at(-1)?.name };
  }

  it.skipIf(skip)(
    'keeps nothing of the migrations run with it (one transaction on SQLite too), so the next start finds nothing in its way and runs them whole',
    async () => {
      // SQLite as a server keeps it: a file in WAL mode
      const dataDir = mkdtempSync(path.join(tmpdir(), 'fd-db-'));
      const { db, drop } = await createTestDb(dialect, dataDir, '015_crm_contact');
      try {
        // in the way of 016's second index, once its first is made
        await sql`create index outbox_user on users (email)`.execute(db);
        const failed = await migrateToLatest(db, { secret: TEST_SECRET }).catch((error: unknown) => error);
        expect(failed).toBeInstanceOf(MigrationError);
        expect(failed).toMatchObject({ migration: '016_foreign_key_indexes' });
        // 016's first index went with the rest: before, every later start failed on it ("already exists")
        expect(await state(db)).toEqual({ indexed: false, last: '015_crm_contact' });

        await sql`drop index outbox_user`.execute(db);
        const ran = await migrateToLatest(db, { secret: TEST_SECRET });
        expect(ran.slice(0, 2)).toEqual(['016_foreign_key_indexes', '017_outbox_request']);
        expect(await state(db)).toEqual({ indexed: true, last: ran.at(-1) });
      } finally {
        await drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});

describe.each(DIALECTS)('migrating an older database ($dialect)', ({ dialect, skip }) => {
  it.skipIf(skip)(
    'names the pending migrations before the first starts, then each one with its milliseconds as it ends',
    async () => {
      const { db, drop } = await createTestDb(dialect, undefined, '015_crm_contact');
      try {
        const told: unknown[] = [];
        const progress = {
          pending: (names: string[]) => told.push({ pending: names }),
          ran: (name: string, ms: number) => told.push({ ran: name, ms }),
        };
        const ran = await migrateToLatest(db, { secret: TEST_SECRET, progress });
        const pending = RELEASE_MIGRATIONS.slice(RELEASE_MIGRATIONS.indexOf('016_foreign_key_indexes'));
        expect(ran).toEqual(pending);
        expect(told).toEqual([
          { pending },
          ...pending.map((name) => ({ ran: name, ms: expect.any(Number) })),
        ]);
        // up to date: nothing to tell
        told.length = 0;
        await migrateToLatest(db, { secret: TEST_SECRET, progress });
        expect(told).toEqual([]);
      } finally {
        await drop();
      }
    },
  );
});

describe("createDb on SQLite under umask 0022 (systemd's default)", () => {
  let parent: string;
  let umask: number;
  beforeEach(() => {
    parent = mkdtempSync(path.join(tmpdir(), 'fd-db-mode-'));
    umask = process.umask(0o022);
  });
  afterEach(() => {
    process.umask(umask);
    rmSync(parent, { recursive: true, force: true });
  });
  /** The group's and others' bits of a path's mode: none for what DATA_DIR holds. */
  const othersBits = (file: string) => statSync(file).mode & 0o077;

  it("makes a DATA_DIR whose parents are missing, and refuses one under /proc at once (Node's recursive mkdir loops there without end)", () => {
    const nested = path.join(parent, 'a', 'b', 'data');
    createDb({ dataDir: nested }).destroy();
    expect(statSync(path.join(parent, 'a')).mode & 0o777).toBe(0o700);
    expect(statSync(nested).isDirectory()).toBe(true);
    expect(() => createDb({ dataDir: '/proc/frontdoor-no-such-dir/data' })).toThrow(/ENOENT/);
  });

  it('makes DATA_DIR, the database file, its -wal and -shm and a rescued copy for this user alone (password hashes, sessions, the private signing keys)', async () => {
    const dataDir = path.join(parent, 'data');
    const db = createDb({ dataDir });
    try {
      await migrateToLatest(db, { secret: TEST_SECRET });
      const file = path.join(dataDir, 'frontdoor.sqlite');
      for (const made of [dataDir, file, `${file}-wal`, `${file}-shm`])
        expect(othersBits(made), made).toBe(0);
      const copy = await rescueDatabase(db, Date.parse('2026-11-28T12:00:00Z'));
      expect(othersBits(copy)).toBe(0);
      expect(exposedDatabasePaths(dataDir)).toEqual([]);
    } finally {
      await db.destroy();
    }
  });

  it('names an existing DATA_DIR and database file that others may read, leaving their modes as the operator set them', async () => {
    const dataDir = path.join(parent, 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    const db = createDb({ dataDir });
    await db.destroy();
    const file = path.join(dataDir, 'frontdoor.sqlite');
    chmodSync(file, 0o640);
    const reopened = createDb({ dataDir });
    try {
      expect(exposedDatabasePaths(dataDir)).toEqual([
        { path: dataDir, mode: '0755' },
        { path: file, mode: '0640' },
        // SQLite gives them the file's mode
        { path: `${file}-wal`, mode: '0640' },
        { path: `${file}-shm`, mode: '0640' },
      ]);
      expect(statSync(dataDir).mode & 0o777).toBe(0o755);
    } finally {
      await reopened.destroy();
    }
  });
});

describe('assertWritable', () => {
  it('refuses a SQLite file opened read-only, as SQLite opens one this user cannot write (a restore by root), and lets a writable one through', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'fd-db-'));
    const writable = createDb({ dataDir });
    await migrateToLatest(writable, { secret: 'x' });
    const readOnly = new Kysely<never>({
      dialect: new SqliteDialect({
        database: new SQLite(path.join(dataDir, 'frontdoor.sqlite'), { readonly: true }),
      }),
    }) as unknown as Db;
    try {
      // it reads as usual: only a write tells
      expect(
        (await sql<{ n: number }>`select count(*) as n from kysely_migration`.execute(readOnly)).rows[0]?.n,
      ).toBeGreaterThan(0);
      await expect(assertWritable(readOnly)).rejects.toMatchObject({ code: 'SQLITE_READONLY' });
      await expect(assertWritable(writable)).resolves.toBeUndefined();
    } finally {
      await readOnly.destroy();
      await writable.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('assertWritable beside another process writing', () => {
  it('answers at once that a SQLite file another connection holds for writing takes writes, without waiting out busy_timeout (it would hold every request)', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'fd-db-'));
    const db = createDb({ dataDir });
    await migrateToLatest(db, { secret: 'x' });
    const other = new SQLite(path.join(dataDir, 'frontdoor.sqlite'));
    try {
      other.exec('begin immediate');
      await expect(assertWritable(db)).resolves.toBeUndefined();
      // and the wait for a lock is the connection's own again
      expect(await sql<{ timeout: number }>`pragma busy_timeout`.execute(db).then((r) => r.rows[0])).toEqual({
        timeout: 5000,
      });
    } finally {
      other.exec('rollback');
      other.close();
      await db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('createDb on PostgreSQL', async () => {
  const unreachable = await postgresReachable();
  it.skipIf(unreachable !== null)(
    'outlives PostgreSQL closing its connections (a restart, a failover), idle or inside a transaction: the loss is reported, the next query reconnects',
    async () => {
      const { databaseUrl, drop } = await createTestDb('postgres');
      const lost: Error[] = [];
      const db = createDb({ databaseUrl, dataDir: '.', onConnectionLost: (error) => lost.push(error) });
      const admin = createDb({ databaseUrl: TEST_DATABASE_URL, dataDir: '.' });
      try {
        // one connection, idle in the pool
        await sql`select 1`.execute(db);
        const name = new URL(databaseUrl ?? '').pathname.slice(1);
        await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name}`.execute(
          admin,
        );
        await vi.waitFor(() => expect(lost.length).toBeGreaterThan(0));
        // once, not by the pool and the connection both
        expect(lost).toHaveLength(1);
        expect(String(lost[0]?.message)).toMatch(/terminating connection/);
        expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);

        // and a connection lent out, between two statements of a transaction: the transaction fails
        const failed = await db
          .transaction()
          .execute(async (trx) => {
            await sql`select 1`.execute(trx);
            await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name}`.execute(
              admin,
            );
            await vi.waitFor(() => expect(lost.length).toBeGreaterThan(1));
            await sql`select 1`.execute(trx);
          })
          .catch((error: unknown) => error);
        expect(failed).toBeInstanceOf(Error);
        expect(lost).toHaveLength(2);
        expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
      } finally {
        await db.destroy();
        await admin.destroy();
        await drop();
      }
    },
  );

  it.skipIf(unreachable !== null)(
    'holds at most DATABASE_POOL_SIZE connections: more queries at once wait for one of them',
    async () => {
      const db = createDb({ databaseUrl: TEST_DATABASE_URL, dataDir: '.', poolSize: 2 });
      try {
        const backends = await Promise.all(
          Array.from({ length: 6 }, () =>
            sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.05)`.execute(db),
          ),
        );
        expect(new Set(backends.map(({ rows }) => rows[0]?.pid)).size).toBe(2);
      } finally {
        await db.destroy();
      }
    },
  );

  it.skipIf(unreachable !== null)(
    'bounds a wait for a lock (a DBA holding a table): the statement fails with 55P03 after lock_timeout, the pool serves the next query',
    async () => {
      const { databaseUrl, drop } = await createTestDb('postgres');
      const db = createDb({ databaseUrl, dataDir: '.', poolSize: 1, timeouts: { lockMs: 100 } });
      const holder = new pg.Client({ connectionString: databaseUrl });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('lock table sessions in access exclusive mode');
        const insert = db
          .insertInto('sessions')
          .values({
            id: 'held',
            user_id: 'nobody',
            masq_user_id: null,
            masq_started_at: null,
            masq_ends_at: null,
            created_at: 0,
            expires_at: 1,
            revoked_at: null,
            last_seen_at: 0,
          })
          .execute();
        await expect(insert).rejects.toMatchObject({ code: '55P03' });
        // the pool's one connection was given back: a query elsewhere goes through
        expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
      } finally {
        await holder.end();
        await db.destroy();
        await drop();
      }
    },
  );

  it.skipIf(unreachable !== null)(
    'bounds a statement (statement_timeout: 57014) and the wait for a free connection (PoolBusyError naming the pool size)',
    async () => {
      const db = createDb({
        databaseUrl: TEST_DATABASE_URL,
        dataDir: '.',
        poolSize: 1,
        timeouts: { statementMs: 50, poolWaitMs: 50 },
      });
      try {
        await expect(sql`select pg_sleep(5)`.execute(db)).rejects.toMatchObject({ code: '57014' });
        await db.connection().execute(async () => {
          const waiting = sql`select 1`.execute(db);
          await expect(waiting).rejects.toBeInstanceOf(PoolBusyError);
          await expect(waiting).rejects.toMatchObject({
            connections: 1,
            message: expect.stringMatching(/^all 1 PostgreSQL connections busy/),
          });
        });
      } finally {
        await db.destroy();
      }
    },
  );

  it.skipIf(unreachable !== null)(
    'migrates without the request timeouts: waits for another instance migrating longer than they allow, saying that it waits, and gives the connection back with them',
    async () => {
      const { url, drop } = await createPostgresDatabase();
      const timeouts = { statementMs: 50, lockMs: 50, idleInTransactionMs: 50 };
      const db = createDb({ databaseUrl: url, dataDir: '.', poolSize: 1, timeouts });
      // another instance's migrator, holding the migration lock
      const other = createDb({ databaseUrl: url, dataDir: '.' });
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      let holding = () => {};
      const held = new Promise<void>((resolve) => (holding = resolve));
      const lockOptions = { lockTable: 'kysely_migration_lock', lockRowId: 'migration_lock' };
      const otherMigrating = other.connection().execute(async (connection) => {
        await new PostgresAdapter().acquireMigrationLock(connection, lockOptions);
        holding();
        await released;
        await new PostgresAdapter().releaseMigrationLock(connection, lockOptions);
      });
      try {
        await held;
        const waiting = vi.fn();
        const progress = { pending: () => undefined, ran: () => undefined, waiting };
        const migrating = migrateToLatest(db, { secret: TEST_SECRET, progress });
        const waitingForLock = () =>
          sql<{ n: number }>`select count(*)::int as n from pg_locks l join pg_stat_activity a using (pid)
            where l.locktype = 'advisory' and not l.granted and a.datname = current_database()`.execute(
            other,
          );
        await vi.waitFor(async () => expect((await waitingForLock()).rows[0]?.n).toBe(1));
        // said once, as the wait begins
        expect(waiting).toHaveBeenCalledTimes(1);
        // longer than every request timeout of db
        await new Promise((resolve) => setTimeout(resolve, 200));
        release();
        await otherMigrating;
        expect((await migrating).length).toBeGreaterThan(0);
        const { rows } = await sql<{ statement: string; lock: string; idle: string }>`select
          current_setting('statement_timeout') as statement, current_setting('lock_timeout') as lock,
          current_setting('idle_in_transaction_session_timeout') as idle`.execute(db);
        expect(rows).toEqual([{ statement: '50ms', lock: '50ms', idle: '50ms' }]);
      } finally {
        release();
        await otherMigrating.catch(() => undefined);
        await db.destroy();
        await other.destroy();
        await drop();
      }
    },
  );

  it.skipIf(unreachable !== null)(
    'assertWritable refuses a PostgreSQL database that takes no writes (a replica, default_transaction_read_only): 25006',
    async () => {
      const { databaseUrl, drop } = await createTestDb('postgres');
      const name = new URL(databaseUrl ?? '').pathname.slice(1);
      const admin = createDb({ databaseUrl: TEST_DATABASE_URL, dataDir: '.' });
      await sql`alter database ${sql.id(name)} set default_transaction_read_only = on`.execute(admin);
      const db = createDb({ databaseUrl, dataDir: '.' });
      try {
        expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
        await expect(assertWritable(db)).rejects.toMatchObject({ code: '25006' });
      } finally {
        await db.destroy();
        await admin.destroy();
        await drop();
      }
    },
  );
});

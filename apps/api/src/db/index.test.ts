import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../../test/harness.ts';
import { createTestDb, postgresReachable, TEST_DATABASE_URL, TEST_SECRET } from '../../test/test-db.ts';
import { assertWritable, createDb, migrateToLatest, MigrationError, type Db } from './index.ts';

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

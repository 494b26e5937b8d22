import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { createDb, migrateTo, type Db } from '../src/db/index.ts';

export type Dialect = 'sqlite' | 'postgres';

/** PostgreSQL of the CI and dev machines; tests create a private database on it. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** null when PostgreSQL answers, else the reason it does not (printed when its runs are skipped). */
export async function postgresReachable(url = TEST_DATABASE_URL): Promise<string | null> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * A fresh database: SQLite in memory, or a private PostgreSQL database. Dropping waits until the
 * pool's backends have really gone: pg's pool.end() resolves while they are still closing, and a
 * forced drop under them would end a query still running on them.
 */
/** The server secret of every test app (the pepper the migrations hash codes with). */
export const TEST_SECRET = 'frontdoor-test-secret-0123456789abcdef';

export async function createTestDb(
  dialect: Dialect,
  /** SQLite in a file in this directory instead of in memory. */
  sqliteDir?: string,
  /** Migrated up to this migration only (an upgrade test fills the older tables, then migrates on). */
  upTo?: string,
): Promise<{ db: Db; databaseUrl: string | undefined; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const db = createDb(sqliteDir ? { dataDir: sqliteDir } : { dataDir: '.', sqliteFile: ':memory:' });
    await migrateTo(db, { secret: TEST_SECRET }, upTo);
    return { db, databaseUrl: undefined, drop: () => db.destroy() };
  }
  const { url: databaseUrl, drop } = await createPostgresDatabase();
  const db = createDb({ databaseUrl, dataDir: '.' });
  await migrateTo(db, { secret: TEST_SECRET }, upTo);
  return {
    db,
    databaseUrl,
    drop: async () => {
      await db.destroy();
      await drop();
    },
  };
}

/** A new PostgreSQL database of its own, with nothing in it (not even the schema), and its dropping. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `api_test_${randomBytes(6).toString('hex')}`;
  const admin = createDb({ databaseUrl: TEST_DATABASE_URL, dataDir: '.' });
  await sql`create database ${sql.id(name)}`.execute(admin);
  return {
    url: `${TEST_DATABASE_URL.replace(/\/[^/]*$/, '')}/${name}`,
    drop: async () => {
      // the pools' backends go a moment after destroy() resolves
      for (let attempt = 0; attempt < 100; attempt++) {
        const { rows } = await sql<{
          n: number;
        }>`select count(*)::int as n from pg_stat_activity where datname = ${name}`.execute(admin);
        if (rows[0]?.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await sql`drop database ${sql.id(name)}`.execute(admin);
      await admin.destroy();
    },
  };
}

/**
 * Fills a SQLite test database as a full disk does (SQLITE_FULL): its file grows no further, and each
 * row written to `table` brings one that needs new pages (the rows a request writes would often fit in
 * the pages the file has). The function returned gives the room back.
 */
export async function fillDisk(db: Db, table: string): Promise<() => Promise<void>> {
  await sql`create table filler (b blob)`.execute(db);
  await sql
    .raw(
      `create trigger fill after insert on ${table} begin insert into filler values (zeroblob(65536)); end`,
    )
    .execute(db);
  const { rows } = await sql<{ pages: number }>`select page_count as pages from pragma_page_count()`.execute(
    db,
  );
  await sql.raw(`pragma max_page_count = ${rows[0]?.pages}`).execute(db);
  return async () => {
    await sql.raw('pragma max_page_count = 1000000').execute(db);
  };
}

import { closeSync, existsSync, mkdirSync, openSync, renameSync, statSync, statfsSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  sql,
  type DialectAdapter,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import { DEFAULT_MIGRATION_TABLE, Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { Database } from './types.ts';
import { setting } from '../env-variables.ts';
import { SQLITE_FILE } from './sqlite-file.ts';
import * as m001 from './migrations/001_initial.ts';
import * as m002 from './migrations/002_identity.ts';
import * as m003 from './migrations/003_crm_outbox.ts';
import * as m004 from './migrations/004_drop_federation_login_hint.ts';
import { abuseLimits } from './migrations/005_abuse_limits.ts';
import { accountableSessions } from './migrations/006_accountable_sessions.ts';
import * as m007 from './migrations/007_identity_claims.ts';
import * as m008 from './migrations/008_outbox.ts';
import * as m009 from './migrations/009_drop_federation_return_url.ts';
import * as m010 from './migrations/010_signup_browser.ts';
import * as m011 from './migrations/011_names_proven.ts';
import * as m012 from './migrations/012_email_spelling.ts';
import * as m013 from './migrations/013_outbox_outcomes.ts';
import * as m014 from './migrations/014_access_code_places.ts';
import * as m015 from './migrations/015_crm_contact.ts';
import * as m016 from './migrations/016_foreign_key_indexes.ts';
import * as m017 from './migrations/017_outbox_request.ts';
import * as m018 from './migrations/018_last_sign_in.ts';
import * as m019 from './migrations/019_email_domains.ts';
import * as m020 from './migrations/020_full_width_local_parts.ts';
import * as m021 from './migrations/021_code_mailbox.ts';
import * as m022 from './migrations/022_access_code_place_leases.ts';
import * as m023 from './migrations/023_outbox_template.ts';
import * as m024 from './migrations/024_callback_session.ts';
import * as m025 from './migrations/025_user_disabled.ts';
import * as m026 from './migrations/026_instance_secrets.ts';
import * as m027 from './migrations/027_session_sign_in.ts';

export type Db = Kysely<Database>;

export interface DbOptions {
  /** PostgreSQL connection string; when absent, SQLite in dataDir. */
  databaseUrl?: string | undefined;
  /** PostgreSQL connections this process may hold (DATABASE_POOL_SIZE). */
  poolSize?: number;
  dataDir: string;
  /** SQLite file name inside dataDir, or ':memory:'. */
  sqliteFile?: string;
  /**
   * PostgreSQL closed a connection (a restart, a failover, idle_session_timeout): the pool drops it
   * and the next query opens another; a query on it fails as any query can.
   */
  onConnectionLost?: (error: Error) => void;
  /** PostgreSQL's waits, each defaulting to its constant below; tests make them short. */
  timeouts?: Partial<PostgresTimeouts>;
}

export interface PostgresTimeouts {
  poolWaitMs: number;
  statementMs: number;
  lockMs: number;
  idleInTransactionMs: number;
}

// PostgreSQL returns bigint (int8) as a string by default; our timestamps fit in a double.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

/** How long a query waits for a free PostgreSQL connection (or a new one to open). */
export const POOL_WAIT_MS = 10_000;

/**
 * How long PostgreSQL runs one statement (statement_timeout). A request's statements take
 * milliseconds; one stuck (behind a lock, or scanning far more than it should) held its pool
 * connection until it ended, and ten of them every request of the instance. Migrations run without it.
 */
export const STATEMENT_TIMEOUT_MS = 10_000;

/**
 * How long a statement waits for a lock (lock_timeout): a DBA's open transaction, VACUUM FULL,
 * ALTER TABLE or CREATE INDEX, a newer release migrating in a rolling upgrade. Shorter than the
 * statement timeout, so that the log says a lock held the request; as long as SQLite's busy_timeout.
 */
const LOCK_TIMEOUT_MS = 5_000;

/**
 * How long a transaction of this process may sit open with no statement running
 * (idle_in_transaction_session_timeout): none waits on anything but its own statements, so one
 * idle that long is stuck, and PostgreSQL ends its session, releasing the locks it held.
 */
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 30_000;

/**
 * No PostgreSQL connection came free within the pool's wait: every one is held by a query (stuck
 * behind a lock, or slow), or the pool is small for the load.
 */
export class PoolBusyError extends Error {
  /** The pool's size: DATABASE_POOL_SIZE. */
  readonly connections: number;
  constructor(connections: number, waitedMs: number, cause: unknown) {
    super(`all ${connections} PostgreSQL connections busy: none came free within ${waitedMs} ms`, { cause });
    this.connections = connections;
  }
}

/** pg-pool's refusal of a query that waited its connectionTimeoutMillis in the queue; it has no code. */
const POOL_QUEUE_TIMEOUT = 'timeout exceeded when trying to connect';

/** How many SQLite statements stay prepared; queries differ only by a few IN lists, so this holds them all. */
const PREPARED_STATEMENTS = 500;

/**
 * Kysely's ROLLBACK after a statement that made SQLite roll the transaction back itself (SQLITE_FULL,
 * SQLITE_IOERR): there is nothing left to undo, and running it would throw "cannot rollback - no
 * transaction is active" in place of the statement's error, the one that says what went wrong.
 */
const ROLLED_BACK_ALREADY: SqliteStatement = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  iterate: () => [][Symbol.iterator](),
};

/**
 * Kysely prepares every query anew, which on SQLite is a parse and plan per call (most of a simple
 * read's cost); this keeps each statement prepared by its SQL text, oldest dropped past the limit.
 * Safe because better-sqlite3 is synchronous and Kysely runs one query at a time per connection
 * (so a statement runs right after it is prepared, in the transaction state seen here).
 */
function preparedOnce(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      if (sql === 'rollback' && !sqlite.inTransaction) return ROLLED_BACK_ALREADY;
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (statements.size >= PREPARED_STATEMENTS) statements.delete(statements.keys().next().value ?? '');
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/**
 * SQLite undoes DDL on rollback as PostgreSQL does, but Kysely's adapter says it cannot: its Migrator
 * ran each statement alone, and a start killed mid-migration (systemd, the OOM killer) left part of
 * one applied and unrecorded, failing every later start on what it had made ("already exists"). Said
 * true, a run's pending migrations are one transaction, as on PostgreSQL. So a migration must not
 * set PRAGMA foreign_keys (ignored inside a transaction) nor VACUUM (refused there).
 */
class SqliteTransactionalDdlAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class SqliteTransactionalDdlDialect extends SqliteDialect {
  override createAdapter(): DialectAdapter {
    return new SqliteTransactionalDdlAdapter();
  }
}

/** The timeouts a migration runs without: it may rewrite a large table, or wait for another instance's. */
const MIGRATION_UNBOUNDED = ['statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout'];

/**
 * Kysely's Migrator holds one connection for a run: it takes the migration lock (waiting while
 * another instance migrates), migrates in a transaction, then releases it. On that connection the
 * request timeouts are lifted for the run and restored (RESET: to createDb's) before it goes back to the pool.
 */
class MigrationPostgresAdapter extends PostgresAdapter {
  override async acquireMigrationLock(...args: Parameters<PostgresAdapter['acquireMigrationLock']>) {
    const [db] = args;
    for (const setting of MIGRATION_UNBOUNDED)
      await sql`select set_config(${setting}, '0', false)`.execute(db);
    await super.acquireMigrationLock(...args);
  }

  override async releaseMigrationLock(...args: Parameters<PostgresAdapter['releaseMigrationLock']>) {
    const [db] = args;
    await super.releaseMigrationLock(...args);
    for (const setting of MIGRATION_UNBOUNDED) await sql`reset ${sql.raw(setting)}`.execute(db);
  }
}

class MigrationPostgresDialect extends PostgresDialect {
  override createAdapter(): DialectAdapter {
    return new MigrationPostgresAdapter();
  }
}

export { SQLITE_FILE };

/**
 * DATA_DIR and its files are this user's alone, whatever the umask (systemd's is 0022): the database
 * holds password hashes, sessions and the authorization server's private signing keys.
 */
const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

/**
 * `mkdir -p` at PRIVATE_DIR_MODE. Node's recursive mkdir never returns for a path under /proc (it
 * loops on the ENOENT that /proc answers), so the directory itself is made first, and its parents
 * only when the parent is what is missing: a DATA_DIR that cannot be made fails at once.
 */
function makePrivateDir(dir: string): void {
  try {
    mkdirSync(dir, { mode: PRIVATE_DIR_MODE });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && statSync(dir).isDirectory()) return;
    const parent = path.dirname(dir);
    if (code !== 'ENOENT' || parent === dir || existsSync(parent)) throw error;
    makePrivateDir(parent);
    mkdirSync(dir, { mode: PRIVATE_DIR_MODE });
  }
}

/** Makes `file` for this user alone unless it exists: SQLite would make it with the umask's mode. */
function createPrivateFile(file: string): void {
  try {
    closeSync(openSync(file, 'wx', PRIVATE_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** A path in DATA_DIR that other users of this machine may read or write, with its mode (`0644`). */
export interface ExposedPath {
  path: string;
  mode: string;
}

/**
 * DATA_DIR and the database files in it that other users may read or write: made before this release
 * (under the umask), or given other modes by hand. Told, never changed: the modes are the operator's.
 */
export function exposedDatabasePaths(dataDir: string): ExposedPath[] {
  const file = path.join(dataDir, SQLITE_FILE);
  const exposed: ExposedPath[] = [];
  for (const candidate of [dataDir, file, `${file}-wal`, `${file}-shm`]) {
    let mode: number;
    try {
      mode = statSync(candidate).mode & 0o777;
    } catch {
      continue;
    }
    if (mode & 0o077) exposed.push({ path: candidate, mode: `0${mode.toString(8)}` });
  }
  return exposed;
}

export function createDb(options: DbOptions): Db {
  if (options.databaseUrl) {
    const max = options.poolSize ?? Number(setting({}, 'DATABASE_POOL_SIZE'));
    const poolWaitMs = options.timeouts?.poolWaitMs ?? POOL_WAIT_MS;
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max,
      // every connection busy (or the server not answering): a request fails after this instead of
      // waiting without end, holding its client and piling up behind the others
      connectionTimeoutMillis: poolWaitMs,
      // sent at connect, so every statement on every connection is bounded (the constants say why)
      statement_timeout: options.timeouts?.statementMs ?? STATEMENT_TIMEOUT_MS,
      lock_timeout: options.timeouts?.lockMs ?? LOCK_TIMEOUT_MS,
      idle_in_transaction_session_timeout:
        options.timeouts?.idleInTransactionMs ?? IDLE_IN_TRANSACTION_TIMEOUT_MS,
    });
    // unheard, a connection's 'error' ends the process: every instance at once on a database restart.
    // Each connection's own listener reports its loss once, idle or lent out (between two statements
    // of a transaction): the pool repeats an idle one's, and one lent out follows PostgreSQL's reason
    // with "Connection terminated unexpectedly" as its socket closes
    pool.on('error', () => undefined);
    pool.on('connect', (client) => {
      let reported = false;
      client.on('error', (error: Error) => {
        if (!reported) options.onConnectionLost?.(error);
        reported = true;
      });
    });
    const connect = () =>
      pool.connect().catch((error: unknown) => {
        throw error instanceof Error && error.message === POOL_QUEUE_TIMEOUT
          ? new PoolBusyError(max, poolWaitMs, error)
          : error;
      });
    return new Kysely<Database>({
      dialect: new MigrationPostgresDialect({
        pool: { Client: pg.Client, connect, end: () => pool.end(), options: pool.options },
      }),
    });
  }
  const file = options.sqliteFile ?? SQLITE_FILE;
  let location = file;
  if (file !== ':memory:') {
    makePrivateDir(options.dataDir);
    location = path.join(options.dataDir, file);
    // SQLite gives the -wal and -shm it makes the file's mode
    createPrivateFile(location);
  }
  const sqlite = new SQLite(location);
  sqlite.pragma('journal_mode = WAL');
  // with WAL, a commit is durable across a crash of the process; only a power loss can undo the last
  // ones (never corrupting the file), and commits stop waiting for a disk flush each
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // the admin CLI may write beside a running server: wait for the lock instead of failing
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({
    dialect: new SqliteTransactionalDdlDialect({ database: preparedOnce(sqlite) }),
  });
  if (file !== ':memory:') {
    const { dev, ino } = statSync(location);
    const opened = { location, dev, ino, sqlite, journals: new Map<string, FileIdentity>() };
    openedFiles.set(db, opened);
    noteJournals(opened);
  }
  return db;
}

interface FileIdentity {
  dev: number;
  ino: number;
}

/**
 * The SQLite file each database opened (its inode), its connection, to copy it from, and the
 * journal files (`-wal`, `-shm`) it writes beside it, once they exist (a new database's come with
 * its first write).
 */
const openedFiles = new WeakMap<
  Db,
  FileIdentity & { location: string; sqlite: SQLite.Database; journals: Map<string, FileIdentity> }
>();

/** Notes which `-wal` and `-shm` are this database's: called while its file is the one at its path. */
function noteJournals(opened: { location: string; journals: Map<string, FileIdentity> }): void {
  for (const journal of [`${opened.location}-wal`, `${opened.location}-shm`]) {
    if (opened.journals.has(journal)) continue;
    try {
      const { dev, ino } = statSync(journal);
      opened.journals.set(journal, { dev, ino });
    } catch {
      // not written yet
    }
  }
}

export interface DatabaseFileProblem {
  /** removed: nothing at the path; replaced: another file there. */
  problem: 'removed' | 'replaced';
  location: string;
}

/**
 * Whether the SQLite file a database writes to is no longer the one at its path. SQLite notices
 * neither case: it goes on writing to the file it opened, and a removed file is lost when the process ends.
 */
export function databaseFileProblem(db: Db): DatabaseFileProblem | undefined {
  const opened = openedFiles.get(db);
  if (!opened) return undefined;
  let now: { dev: number; ino: number };
  try {
    now = statSync(opened.location);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // anything else (a permission, a failing disk) says nothing of which file is there
    return code === 'ENOENT' || code === 'ENOTDIR'
      ? { problem: 'removed', location: opened.location }
      : undefined;
  }
  // a volume mounted in its place may hold the same inode number: the device tells them apart
  if (now.dev !== opened.dev || now.ino !== opened.ino)
    return { problem: 'replaced', location: opened.location };
  // the file is in place: the journal beside it is its own (closeDatabase)
  noteJournals(opened);
  return undefined;
}

/**
 * Notes the journal beside a SQLite database's file as its own (a new database's comes with its first
 * write, after createDb), so that closeDatabase can tell it from a journal another file brought.
 */
export function noteOwnJournal(db: Db): void {
  databaseFileProblem(db);
}

/**
 * A consistent copy of everything the database holds (the WAL's commits included), written beside
 * its path (the directory made again if it went too) as `<file>.rescued-<time>`; returns its path.
 */
export async function rescueDatabase(db: Db, now: number): Promise<string> {
  const opened = openedFiles.get(db);
  if (!opened) throw new Error('not a SQLite database opened from a file');
  const copy = `${opened.location}.rescued-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
  makePrivateDir(path.dirname(copy));
  createPrivateFile(copy);
  const backup = opened.sqlite.backup(copy);
  rescuesUnderWay.set(db, backup);
  try {
    await backup;
  } finally {
    if (rescuesUnderWay.get(db) === backup) rescuesUnderWay.delete(db);
  }
  return copy;
}

/** A copy still being written: closing the database would cut it short (better-sqlite3 deletes it). */
const rescuesUnderWay = new WeakMap<Db, Promise<unknown>>();

/**
 * Closes the database. When the file at its path is no longer the one it wrote to (removed or
 * replaced under it: databaseFileProblem), what it wrote is first copied beside the path once more
 * (rescueDatabase, after any copy under way: nothing written until the stop is lost), and its own
 * journal (`-wal`, `-shm`, told by their inodes from a journal the file put at the path brought) is
 * moved aside after closing: SQLite would replay it onto whatever is put at the path, the rescued
 * copy as the error line says ("database disk image is malformed").
 */
export async function closeDatabase(
  db: Db,
  now: number,
): Promise<{ rescuedTo?: string; setAside: string[] }> {
  const opened = openedFiles.get(db);
  const problem = databaseFileProblem(db);
  let rescuedTo: string | undefined;
  if (opened && problem) {
    await rescuesUnderWay.get(db)?.catch(() => undefined);
    rescuedTo = await rescueDatabase(db, now);
  }
  await db.destroy();
  const setAside: string[] = [];
  if (!opened || !problem) return { setAside };
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  for (const [journal, own] of opened.journals) {
    let there: FileIdentity;
    try {
      there = statSync(journal);
    } catch {
      continue;
    }
    if (there.dev !== own.dev || there.ino !== own.ino) continue;
    renameSync(journal, `${journal}.set-aside-${stamp}`);
    setAside.push(`${journal}.set-aside-${stamp}`);
  }
  return { rescuedTo, setAside };
}

/**
 * Versioned migrations, in order; bundled statically so no file-system scanning is needed. The
 * server secret is the pepper of the codes a migration hashes.
 */
const migrations = (secret: string): Record<string, Migration> => ({
  '001_initial': m001,
  '002_identity': m002,
  '003_crm_outbox': m003,
  '004_drop_federation_login_hint': m004,
  '005_abuse_limits': abuseLimits(secret),
  '006_accountable_sessions': accountableSessions(),
  '007_identity_claims': m007,
  '008_outbox': m008,
  '009_drop_federation_return_url': m009,
  '010_signup_browser': m010,
  '011_names_proven': m011,
  '012_email_spelling': m012,
  '013_outbox_outcomes': m013,
  '014_access_code_places': m014,
  '015_crm_contact': m015,
  '016_foreign_key_indexes': m016,
  '017_outbox_request': m017,
  '018_last_sign_in': m018,
  '019_email_domains': m019,
  '020_full_width_local_parts': m020,
  '021_code_mailbox': m021,
  '022_access_code_place_leases': m022,
  '023_outbox_template': m023,
  '024_callback_session': m024,
  '025_user_disabled': m025,
  '026_instance_secrets': m026,
  '027_session_sign_in': m027,
});

/** The names of this release's migrations, oldest first (the secret plays no part in them). */
export const RELEASE_MIGRATIONS: readonly string[] = Object.keys(migrations(''));

/** A database that a newer release migrated: this one does not know every migration it ran. */
export class NewerDatabaseError extends Error {
  readonly migrations: string[];
  constructor(migrations: string[]) {
    super(
      `the database was migrated by a newer release of Frontdoor (migration ${migrations.join(', ')}, unknown to this one): run that release again, or restore the backup taken before its upgrade`,
    );
    this.migrations = migrations;
  }
}

/**
 * A migration that failed, or the migrator before any ran (no `migration` then). A run's migrations
 * are one transaction on both dialects: none of them was kept, the database is as the run found it.
 */
export class MigrationError extends Error {
  readonly migration: string | undefined;
  constructor(migration: string | undefined, error: unknown) {
    // the driver's error is the cause, whose code says what failed (ECONNREFUSED, SQLITE_FULL: startup-failure.ts)
    super(`database migration failed${migration ? ` at ${migration}` : ''}: ${String(error)}`, {
      cause: error,
    });
    this.migration = migration;
  }
}

/** Whether no migration has run on this database yet: a file or database nothing has used. */
export async function isNewDatabase(db: Db): Promise<boolean> {
  return (await executedMigrations(db)).length === 0;
}

/** The names of the migrations a database ran: none on a new one, which has no table of them yet. */
export async function executedMigrations(db: Db): Promise<string[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((table) => table.name === DEFAULT_MIGRATION_TABLE)) return [];
  const { rows } = await sql<{
    name: string;
  }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(db);
  return rows.map((row) => row.name);
}

/**
 * A write refused for want of space: SQLite's "database or disk is full" (also PRAGMA max_page_count
 * reached), the system's ENOSPC, PostgreSQL's disk_full.
 */
const DISK_FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', '53100']);

/**
 * Below this, a SQLite database's disk is full for it: it fails to grow its -shm file (32 kB) or its
 * -wal with an I/O error (SQLITE_IOERR_SHMSIZE, SQLITE_IOERR_WRITE on some filesystems), not SQLITE_FULL.
 */
const NEARLY_FULL_BYTES = 1024 * 1024;

/** The bytes this user may still write on a directory's disk; Infinity when that cannot be read. */
export function freeBytesAt(dir: string): number {
  try {
    const { bavail, bsize } = statfsSync(dir);
    return bavail * bsize;
  } catch {
    return Infinity;
  }
}

/**
 * Whether an error, or one of its causes (a migration's), is a write refused for want of space. On
 * SQLite (`sqliteDir`, its DATA_DIR) an I/O error is one too when less than NEARLY_FULL_BYTES is left
 * there; `freeBytes` reads that for such an error only, not for every failed request.
 */
export function isDiskFull(
  error: unknown,
  sqliteDir?: string,
  freeBytes: (dir: string) => number = freeBytesAt,
): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = String((e as { code?: unknown }).code);
    if (DISK_FULL_CODES.has(code)) return true;
    if (
      sqliteDir !== undefined &&
      code.startsWith('SQLITE_IOERR') &&
      freeBytes(sqliteDir) < NEARLY_FULL_BYTES
    )
      return true;
  }
  return false;
}

/**
 * Throws the driver's refusal (SQLITE_READONLY, PostgreSQL's 25006) when the database takes no
 * writes, by a write that changes nothing. Such a database opens, migrates when up to date and reads
 * as usual: a SQLite file this user cannot write (restored by root, or its -wal and -shm files made
 * by an admin command run as root), a PostgreSQL replica or default_transaction_read_only. Every
 * sign-in would then fail while the server said it was ready.
 */
export async function assertWritable(db: Db): Promise<void> {
  const sqlite = openedFiles.get(db)?.sqlite;
  if (!sqlite) {
    await sql`delete from ${sql.table(DEFAULT_MIGRATION_TABLE)} where false`.execute(db);
    return;
  }
  // SQLite waits for another process's write (the admin CLI) synchronously, holding every request:
  // not here. That it is busy says it takes writes
  const timeout = sqlite.pragma('busy_timeout', { simple: true }) as number;
  sqlite.pragma('busy_timeout = 0');
  try {
    sqlite.prepare(`delete from ${DEFAULT_MIGRATION_TABLE} where false`).run();
  } catch (error) {
    if (!String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY')) throw error;
  } finally {
    sqlite.pragma(`busy_timeout = ${timeout}`);
  }
}

/**
 * What a start's migrating says while it runs (main.ts logs it): a large database's upgrade takes
 * minutes with requests refused, and the log said nothing until it ended.
 */
export interface MigrationProgress {
  /** The migrations about to run, oldest first: told once, when the first starts (behind the lock). */
  pending: (names: string[]) => void;
  /** One migration ran (kept only when the run's transaction commits), in ms. */
  ran: (name: string, ms: number) => void;
  /** Another instance holds the migration lock (PostgreSQL): this start waits for its migration to end. */
  waiting?: () => void;
}

/** The advisory lock Kysely's PostgresAdapter migrates under (its LOCK_ID, not exported). */
const KYSELY_MIGRATION_LOCK_ID = sql.lit('3853314791062309107');

/**
 * Whether the PostgreSQL migration lock is free now: taken and given back at once on one connection.
 * Another instance may take it in between; the start then waits without having said so, as before.
 */
async function migrationLockFree(db: Db): Promise<boolean> {
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{
      free: boolean;
    }>`select pg_try_advisory_lock(${KYSELY_MIGRATION_LOCK_ID}::bigint) as free`.execute(connection);
    if (rows[0]?.free)
      await sql`select pg_advisory_unlock(${KYSELY_MIGRATION_LOCK_ID}::bigint)`.execute(connection);
    return rows[0]?.free === true;
  });
}

interface MigrateOptions {
  secret: string;
  progress?: MigrationProgress;
}

/** Runs the migrations a database has not run yet; returns their names, oldest first (none: up to date). */
export const migrateToLatest = (db: Db, options: MigrateOptions): Promise<string[]> => migrateTo(db, options);

/**
 * Each migration's up timed and told to `progress`. Kysely runs the pending ones in order, after
 * the last one run (it refuses one older than that), so the first to start names those that follow it.
 */
function withProgress(
  known: Record<string, Migration>,
  progress: MigrationProgress,
  target: string | undefined,
): Record<string, Migration> {
  const names = Object.keys(known);
  const last = target ? names.indexOf(target) : names.length - 1;
  let told = false;
  return Object.fromEntries(
    Object.entries(known).map(([name, migration], index) => [
      name,
      {
        ...migration,
        up: async (db) => {
          if (!told) progress.pending(names.slice(index, last + 1));
          told = true;
          const started = performance.now();
          await migration.up(db);
          progress.ran(name, Math.round(performance.now() - started));
        },
      },
    ]),
  );
}

/**
 * Up (or down) to the named migration; the newest when none is named (upgrade tests start older).
 * Returns the names of the migrations run, in order.
 */
export async function migrateTo(db: Db, options: MigrateOptions, name?: string): Promise<string[]> {
  const known = migrations(options.secret);
  const provider: MigrationProvider = {
    getMigrations: async () => (options.progress ? withProgress(known, options.progress, name) : known),
  };
  const migrator = new Migrator({ db, provider });
  const unknown = (await executedMigrations(db)).filter((executed) => !Object.hasOwn(known, executed));
  if (unknown.length) throw new NewerDatabaseError(unknown);
  // a start behind another instance's long migration said nothing until it ended
  if (
    options.progress?.waiting &&
    db.getExecutor().adapter instanceof PostgresAdapter &&
    !(await migrationLockFree(db))
  )
    options.progress.waiting();
  const { error, results } = await (name ? migrator.migrateTo(name) : migrator.migrateToLatest());
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new MigrationError(failed?.migrationName, error);
  return (results ?? []).map((result) => result.migrationName);
}

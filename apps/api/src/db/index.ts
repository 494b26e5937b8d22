import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { Database } from './types.ts';
import * as m001 from './migrations/001_initial.ts';
import * as m002 from './migrations/002_identity.ts';
import * as m003 from './migrations/003_crm_outbox.ts';
import * as m004 from './migrations/004_drop_federation_login_hint.ts';
import { abuseLimits } from './migrations/005_abuse_limits.ts';
import { accountableSessions } from './migrations/006_accountable_sessions.ts';

export type Db = Kysely<Database>;

export interface DbOptions {
  /** PostgreSQL connection string; when absent, SQLite in dataDir. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** SQLite file name inside dataDir, or ':memory:'. */
  sqliteFile?: string;
}

// PostgreSQL returns bigint (int8) as a string by default; our timestamps fit in a double.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export function createDb(options: DbOptions): Db {
  if (options.databaseUrl) {
    return new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: options.databaseUrl, max: 10 }) }),
    });
  }
  const file = options.sqliteFile ?? 'frontdoor.sqlite';
  let location = file;
  if (file !== ':memory:') {
    mkdirSync(options.dataDir, { recursive: true });
    location = path.join(options.dataDir, file);
  }
  const sqlite = new SQLite(location);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  // the admin CLI may write beside a running server: wait for the lock instead of failing
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
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
});

export async function migrateToLatest(db: Db, options: { secret: string }): Promise<void> {
  await migrateTo(db, options);
}

/** Up (or down) to the named migration; the newest when none is named (upgrade tests start older). */
export async function migrateTo(db: Db, options: { secret: string }, name?: string): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(options.secret) };
  const migrator = new Migrator({ db, provider });
  const { error, results } = await (name ? migrator.migrateTo(name) : migrator.migrateToLatest());
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(
      `database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`,
    );
  }
}

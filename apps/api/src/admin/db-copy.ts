import { sql, type Kysely, type Transaction } from 'kysely';
import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE } from 'kysely/migration';
import type { AppConfig } from '../config.ts';
import { createDb, executedMigrations, migrateToLatest, type Db } from '../db/index.ts';
import { isPostgres } from '../db/dialect.ts';
import type { Database } from '../db/types.ts';
import { databaseLocation } from '../startup-failure.ts';

/**
 * `npm run admin -- db copy --to <postgres URL>`: the move from one instance on SQLite to PostgreSQL
 * (docs/DEPLOYMENT.md, "Moving from SQLite to PostgreSQL"). A copy by hand (the schema made by the
 * server, the rows by CSV) leaves PostgreSQL's id sequences at 1, and every sign-in then fails on a
 * duplicate audit_log id while /readyz says ready.
 */

/** Rows read from SQLite and written to PostgreSQL at a time: memory stays flat whatever the database's size. */
export const COPY_BATCH_ROWS = 500;

/** A copy the databases do not allow; nothing was written to the target. */
export class CopyRefused extends Error {}

export interface CopyResult {
  /** Rows copied per table, in the order they were copied (parents before the tables referring to them). */
  tables: Record<string, number>;
  /** The last id each serial sequence of the target was set to (the next insert takes the one after). */
  sequences: Record<string, number>;
}

/** Kysely's own tables: the target has them from its migration, never copied. */
const MIGRATION_TABLES = new Set([DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE]);

/** The name the copy reads SQLite's rowid under, its keyset (every table has one, whatever its key). */
const ROWID = 'frontdoor_copy_rowid';

type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

/**
 * Copies every row of a SQLite database (`source`) into an empty PostgreSQL database (`target`), in
 * one transaction on the target: it refuses a target with any table, migrates it with the server's
 * migrations, refuses a source not at the same migrations, copies each table in batches
 * (parents first), and sets each serial sequence past the ids copied. Any failure leaves the target
 * as it was. The source is read in one transaction too, so the copy is one moment of it.
 */
export async function copyDatabase(
  source: Db,
  target: Db,
  options: { secret: string; batchRows?: number },
): Promise<CopyResult> {
  if (isPostgres(source)) throw new CopyRefused('the database to copy from must be SQLite');
  if (!isPostgres(target)) throw new CopyRefused('the database to copy into must be PostgreSQL');
  const batchRows = options.batchRows ?? COPY_BATCH_ROWS;
  return source.transaction().execute((snapshot) =>
    target.transaction().execute(async (trx) => {
      // before any migration, which on a database in use would take its locks and stall its traffic
      const { rows: existing } = await sql<{
        name: string;
      }>`select tablename as name from pg_tables where schemaname = current_schema() order by tablename`.execute(
        trx,
      );
      if (existing.length)
        throw new CopyRefused(
          `the PostgreSQL database is not empty (it has the tables ${existing.map((t) => t.name).join(', ')}): copy into a new, empty database (createdb), never one in use`,
        );
      // the server's own migrations, so the target is what a server started on it would make
      await migrateToLatest(trx, { secret: options.secret });
      await assertSameMigrations(snapshot, trx);
      const tables = await tablesInForeignKeyOrder(trx);
      const sourceTables = await sqliteTables(snapshot);
      const unmatched = [
        ...sourceTables.filter((t) => !tables.includes(t)),
        ...tables.filter((t) => !sourceTables.includes(t)),
      ];
      if (unmatched.length)
        throw new CopyRefused(
          `the tables of the two databases differ (${unmatched.join(', ')}) though both ran the same migrations: the SQLite database was changed by hand`,
        );
      const counts: Record<string, number> = {};
      for (const table of tables) counts[table] = await copyTable(snapshot, trx, table, batchRows);
      return { tables: counts, sequences: await setSequences(snapshot, trx, tables) };
    }),
  );
}

/** The source must have run exactly the migrations this release made the target with. */
async function assertSameMigrations(source: Kysely<Database>, target: Kysely<Database>): Promise<void> {
  const latest = await executedMigrations(target);
  const ran = await executedMigrations(source);
  // a DATA_DIR mistyped or relative to another directory: the CLI opened a new, empty file there
  if (!ran.length)
    throw new CopyRefused(
      'the SQLite database to copy from is new and empty, no server ever ran on it: DATA_DIR must name the directory the server keeps its database in',
    );
  const missing = latest.filter((name) => !ran.includes(name));
  if (missing.length)
    throw new CopyRefused(
      `the SQLite database has not run migration ${missing.join(', ')} of this release: start this release once on SQLite (DATABASE_URL unset) until it logs "frontdoor listening", stop it, then copy`,
    );
  const unknown = ran.filter((name) => !latest.includes(name));
  if (unknown.length)
    throw new CopyRefused(
      `the SQLite database was migrated by a newer release (migration ${unknown.join(', ')}, unknown to this one): copy it with that release`,
    );
}

/** The application's tables in SQLite (not SQLite's own, not Kysely's). */
async function sqliteTables(source: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{
    name: string;
  }>`select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\'`.execute(
    source,
  );
  return rows.map((row) => row.name).filter((name) => !MIGRATION_TABLES.has(name));
}

/** The target's tables, each after every table its foreign keys refer to (read from PostgreSQL's catalog). */
async function tablesInForeignKeyOrder(trx: Transaction<Database>): Promise<string[]> {
  const { rows: tables } = await sql<{
    name: string;
  }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(trx);
  const { rows: references } = await sql<ForeignKey>`
    select child.relname as "table", parent.relname as "references"
    from pg_constraint c
    join pg_class child on child.oid = c.conrelid
    join pg_class parent on parent.oid = c.confrelid
    where c.contype = 'f' and child.relnamespace = current_schema()::regnamespace`.execute(trx);
  return foreignKeyOrder(
    tables.map((t) => t.name).filter((name) => !MIGRATION_TABLES.has(name)),
    references,
  );
}

export interface ForeignKey {
  table: string;
  references: string;
}

/**
 * The tables in an order where each comes after the tables it refers to (alphabetical among those
 * free to go next); a table referring to itself is no obstacle. Throws on a cycle, which no
 * migration makes: its rows could not be inserted one table at a time.
 */
export function foreignKeyOrder(tables: string[], references: ForeignKey[]): string[] {
  const ordered: string[] = [];
  let left = [...tables].sort();
  while (left.length) {
    const next = left.filter((table) =>
      references.every((r) => r.table !== table || r.references === table || !left.includes(r.references)),
    );
    if (!next.length) throw new Error(`foreign keys refer in a cycle among ${left.join(', ')}`);
    ordered.push(...next);
    left = left.filter((table) => !next.includes(table));
  }
  return ordered;
}

/**
 * One table, COPY_BATCH_ROWS at a time by SQLite's rowid (keyset: each batch starts after the last
 * one's rowid, so no batch rereads the table). Values go as SQLite stores them: timestamps and
 * booleans are integers in both dialects, JSON is text (db/types.ts).
 */
async function copyTable(
  source: Kysely<Database>,
  trx: Transaction<Database>,
  table: string,
  batchRows: number,
): Promise<number> {
  let copied = 0;
  let after = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const { rows } = await sql<Record<string, unknown>>`
      select rowid as ${sql.id(ROWID)}, * from ${sql.table(table)}
      where rowid > ${after} order by rowid limit ${batchRows}`.execute(source);
    if (!rows.length) return copied;
    after = Number(rows.at(-1)?.[ROWID]);
    for (const row of rows) delete row[ROWID];
    try {
      await (trx as unknown as AnyDb).insertInto(table).values(rows).execute();
    } catch (error) {
      throw new Error(`copying ${table} failed: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
    copied += rows.length;
    if (rows.length < batchRows) return copied;
  }
}

/**
 * Every serial sequence of the copied tables (pg_get_serial_sequence) set to the highest id copied,
 * or to the highest SQLite ever gave (sqlite_sequence: AUTOINCREMENT never reuses the id of a deleted
 * row, and an outbox row names an email code by its id) when that is higher. Left at 1, the next
 * insert of each collides with a copied row.
 */
async function setSequences(
  source: Kysely<Database>,
  trx: Transaction<Database>,
  tables: string[],
): Promise<Record<string, number>> {
  const { rows: serials } = await sql<{ table: string; column: string; sequence: string | null }>`
    select table_name as "table", column_name as "column",
      pg_get_serial_sequence(quote_ident(table_name), column_name) as "sequence"
    from information_schema.columns where table_schema = current_schema()`.execute(trx);
  const hasSequenceTable = (
    await sql`select 1 from sqlite_master where name = 'sqlite_sequence'`.execute(source)
  ).rows.length;
  const given = new Map(
    hasSequenceTable
      ? (
          await sql<{ name: string; seq: number }>`select name, seq from sqlite_sequence`.execute(source)
        ).rows.map((row) => [row.name, Number(row.seq)])
      : [],
  );
  const sequences: Record<string, number> = {};
  for (const { table, column, sequence } of serials) {
    if (!sequence || !tables.includes(table)) continue;
    const { rows } = await sql<{
      last: number | null;
    }>`select max(${sql.ref(column)}) as last from ${sql.table(table)}`.execute(trx);
    const last = Math.max(Number(rows[0]?.last ?? 0), given.get(table) ?? 0);
    // an empty table: the next id is 1, as on a new database
    if (last > 0) await sql`select setval(cast(${sequence} as regclass), ${last})`.execute(trx);
    else await sql`select setval(cast(${sequence} as regclass), 1, false)`.execute(trx);
    sequences[table] = last;
  }
  return sequences;
}

/** Why `db copy` cannot run with these settings and this --to; undefined when it can. */
export function copyUsageProblem(
  config: Pick<AppConfig, 'databaseUrl'>,
  to: string | undefined,
): string | undefined {
  if (!to) return '--to <postgres URL> is required: the new, empty PostgreSQL database to copy into';
  const url = URL.parse(to);
  if (!url || !['postgres:', 'postgresql:'].includes(url.protocol))
    return '--to must be a postgres:// or postgresql:// URL, as DATABASE_URL will be (postgres://user:password@host:5432/frontdoor)';
  if (config.databaseUrl)
    return `db copy copies the SQLite database of DATA_DIR, but DATABASE_URL is set (PostgreSQL at ${databaseLocation(config.databaseUrl)}): run it with DATABASE_URL unset, as the SQLite server runs`;
  return undefined;
}

/**
 * The admin command: copies the CLI's SQLite database into the PostgreSQL database at `to` and
 * says what comes next. The target's password never appears in what it prints.
 */
export async function copyToPostgres(
  ctx: { db: Db; config: Pick<AppConfig, 'dataDir' | 'secret'> & { identity: { cookieKeys: string[] } } },
  to: string,
): Promise<Record<string, unknown>> {
  const where = `PostgreSQL at ${databaseLocation(to)}`;
  const target = createDb({ databaseUrl: to, dataDir: ctx.config.dataDir, poolSize: 1 });
  try {
    try {
      await sql`select 1`.execute(target);
    } catch (error) {
      throw new CopyRefused(
        `${where} (--to) cannot be used (${error instanceof Error ? error.message : String(error)}): create the database (createdb) and correct the host, user, password or name in --to`,
        { cause: error },
      );
    }
    const { tables } = await copyDatabase(ctx.db, target, { secret: ctx.config.secret });
    const rows = Object.values(tables).reduce((sum, n) => sum + n, 0);
    const keep = ctx.config.identity.cookieKeys.length ? 'SECRET and OIDC_COOKIE_KEYS' : 'SECRET';
    return {
      copied: `${rows} rows of ${Object.keys(tables).length} tables from SQLite in DATA_DIR ${ctx.config.dataDir} to ${where}, its id sequences set after the rows copied.`,
      tables,
      next: `Set DATABASE_URL to that database and start the server with the same ${keep} as the SQLite server had: mailed codes and access codes are stored keyed by SECRET${ctx.config.identity.cookieKeys.length ? ', and sign-ins under way are sealed with OIDC_COOKIE_KEYS' : ''}. Keep DATA_DIR as it is until the new server works.`,
    };
  } finally {
    await target.destroy();
  }
}

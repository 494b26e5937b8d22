import { PostgresAdapter, type CreateTableBuilder, type Kysely } from 'kysely';

export const isPostgres = <T>(db: Kysely<T>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/** An auto-incrementing integer `id` primary key, spelled the way each dialect wants it. */
export const autoIncrementId =
  (db: Kysely<unknown>) =>
  <T extends string, C extends string>(table: CreateTableBuilder<T, C>): CreateTableBuilder<T, C | 'id'> =>
    isPostgres(db)
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

/**
 * Whether PostgreSQL refused a value its text cannot hold: a NUL (22021, `invalid byte sequence for
 * encoding "UTF8": 0x00`) or a `\u0000` in JSON it was to read (22P05). Only a client's input
 * carries one, and SQLite would have found nothing by it: the client's mistake, never a 500.
 */
export const isUnstorableText = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '22021' || code === '22P05';
};

/** Whether a write failed on a foreign key (SQLite's and PostgreSQL's codes): what it names is gone. */
export const isForeignKeyViolation = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
};

/**
 * Whether PostgreSQL gave up on a statement that a lock or its own length held: it waited past
 * lock_timeout (55P03) or ran past statement_timeout (57014, also an operator's pg_cancel_backend).
 */
export const isHeldStatement = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '55P03' || code === '57014';
};

/** Network failures of a connection to PostgreSQL. */
export const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * Why PostgreSQL could not take a request's statement at all, or null: it cannot be reached (a network
 * failure, SQLSTATE class 08, its shutdown or restart ending the connection, 57P01–57P03, or node-postgres's
 * "Connection terminated…" for a connection cut under a query or not made in time), or it refuses more
 * connections (53300: max_connections, or a role's or database's CONNECTION LIMIT). Both pass once the
 * server answers again, as a held lock does.
 */
export const databaseUnavailable = (error: unknown): 'unreachable' | 'tooManyConnections' | null => {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === undefined)
    return typeof message === 'string' && message.startsWith(PG_CONNECTION_TERMINATED) ? 'unreachable' : null;
  if (typeof code !== 'string') return null;
  if (code === '53300') return 'tooManyConnections';
  return UNREACHABLE.has(code) || /^08[0-9A-Z]{3}$/.test(code) || /^57P0[123]$/.test(code)
    ? 'unreachable'
    : null;
};

/** How node-postgres's own errors for a lost connection begin; they carry no code. */
const PG_CONNECTION_TERMINATED = 'Connection terminated';

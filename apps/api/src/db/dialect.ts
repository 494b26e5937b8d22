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

import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import { PoolBusyError, type Db } from '../db/index.ts';
import { databaseUnavailable, isHeldStatement } from '../db/dialect.ts';
import { databaseLocation } from '../startup-failure.ts';
import { MINUTE_MS } from './limits.ts';

/** When a request the database could not serve in time (a lock, a long statement, no free connection) may try again. */
export const DATABASE_BUSY_RETRY_MS = 5000;

/** When each database's once-a-minute lines (a busy pool, PostgreSQL unreachable or full) were last written. */
const saidAt = new WeakMap<Db, Map<string, number>>();

/**
 * Notes an error that is the database unable to serve the request for now (true; false for any other
 * error), as the API and the authorization server answer it: 503 serverBusy with Retry-After
 * (DATABASE_BUSY_RETRY_MS). A database that held the request past its timeouts (db/index.ts: a lock,
 * a long statement, no free connection), or that PostgreSQL cannot take at all (unreachable, or
 * refusing more connections), passes once it answers again. The line says what held it: a lock's
 * for each request, the pool's and an unreachable PostgreSQL's once a minute (every request says the same).
 */
export function noteDatabaseBusy(
  ctx: Pick<AppContext, 'config' | 'db' | 'now'>,
  log: FastifyBaseLogger,
  error: unknown,
): boolean {
  const onceAMinute = (what: string) => {
    const said = saidAt.get(ctx.db) ?? new Map<string, number>();
    saidAt.set(ctx.db, said);
    if (ctx.now() - (said.get(what) ?? -Infinity) < MINUTE_MS) return false;
    said.set(what, ctx.now());
    return true;
  };
  if (error instanceof PoolBusyError) {
    if (onceAMinute('poolBusy'))
      log.warn(
        `${error.message}: requests answer 503 serverBusy. Queries stuck behind a lock or running long hold them (pg_stat_activity), or DATABASE_POOL_SIZE is small for the load`,
      );
    return true;
  }
  const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
  if (isHeldStatement(error)) {
    log.warn(
      // PostgreSQL's words: "canceling statement due to lock timeout" (or statement timeout)
      { reason: message },
      'a PostgreSQL lock or a long statement held this request past lock_timeout or statement_timeout: answered 503 serverBusy. See pg_stat_activity for what holds the lock',
    );
    return true;
  }
  const unavailable = databaseUnavailable(error);
  if (!unavailable || !ctx.config.databaseUrl) return false;
  if (onceAMinute(unavailable)) {
    const database = databaseLocation(ctx.config.databaseUrl);
    log.error(
      { reason: message, errorCode: code, setting: 'DATABASE_URL', database },
      unavailable === 'unreachable'
        ? `PostgreSQL at ${database} (DATABASE_URL) cannot be reached: requests answer 503 serverBusy until it answers again. Start it, or correct the host and port in DATABASE_URL`
        : `PostgreSQL at ${database} (DATABASE_URL) has too many connections and refuses more: requests answer 503 serverBusy. Raise max_connections (or the role's or database's CONNECTION LIMIT) above DATABASE_POOL_SIZE times the instances, or lower DATABASE_POOL_SIZE`,
    );
  }
  return true;
}

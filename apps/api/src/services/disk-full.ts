import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import { freeBytesAt, isDiskFull, type Db } from '../db/index.ts';
import { databaseLocation } from '../startup-failure.ts';

/**
 * How long a database counts as full after a write it refused for want of space (/readyz 503,
 * frontdoor_database_up 0), and how often the error line saying so is written at most. The probes'
 * write changes nothing and needs no space, so only the writes that failed can tell.
 */
export const DISK_FULL_MS = 60_000;

/** When each database last refused a write for want of space, and when the error line last said so. */
const refusals = new WeakMap<Db, { lastAt: number; toldAt: number }>();

/** Whether the database refused a write for want of space within the last DISK_FULL_MS. */
export function diskFullLately(db: Db, now: number): boolean {
  const seen = refusals.get(db);
  return seen !== undefined && now - seen.lastAt < DISK_FULL_MS;
}

/**
 * Notes an error that is a write refused for want of space (true; false for any other error) and says
 * so in one error line at most every DISK_FULL_MS, naming DATA_DIR or the PostgreSQL database: every
 * sign-in fails then, and a stack per request would bury what to do. On SQLite an I/O error with
 * DATA_DIR's disk nearly full is one too, as at start-up (isDiskFull; `freeBytes` reads the space).
 */
export function noteDiskFull(
  ctx: Pick<AppContext, 'config' | 'db' | 'now'>,
  log: FastifyBaseLogger,
  err: unknown,
  freeBytes: (dir: string) => number = freeBytesAt,
): boolean {
  const { dataDir, databaseUrl } = ctx.config;
  if (!isDiskFull(err, databaseUrl ? undefined : dataDir, freeBytes)) return false;
  const now = ctx.now();
  const seen = refusals.get(ctx.db);
  if (seen && now - seen.toldAt < DISK_FULL_MS) {
    seen.lastAt = now;
    return true;
  }
  refusals.set(ctx.db, { lastAt: now, toldAt: now });
  const consequence = 'writes fail (every sign-in and sign-up) and /readyz answers 503';
  if (databaseUrl) {
    const database = databaseLocation(databaseUrl);
    log.error(
      { err, setting: 'DATABASE_URL', database },
      `the disk of PostgreSQL at ${database} (DATABASE_URL) is full: ${consequence} until space is freed on the database server`,
    );
  } else
    log.error(
      { err, setting: 'DATA_DIR', dataDir },
      `the disk of DATA_DIR ${dataDir} is full: ${consequence} until space is freed there`,
    );
  return true;
}

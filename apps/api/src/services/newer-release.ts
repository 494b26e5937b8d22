import type { AppContext } from '../context.ts';
import { RELEASE_MIGRATIONS, executedMigrations, type Db } from '../db/index.ts';

/** How often /readyz looks for a newer release's migrations; the answer is kept in between. */
export const NEWER_RELEASE_CHECK_MS = 60_000;

/** What the last look found, per database, and whether the error line was written. */
const looks = new WeakMap<Db, { lookedAt: number; unknown: string[]; told: boolean }>();

/**
 * The migrations the database ran that this release does not know: a newer release migrated it while
 * this instance went on serving (a rolling upgrade that left it running). The start refuses such a
 * database (NewerDatabaseError); a running instance only learns it here, looking at most every
 * NEWER_RELEASE_CHECK_MS, and says it in one error line, once: it may write rows the newer release
 * cannot read.
 */
export async function newerReleaseMigrations(
  ctx: Pick<AppContext, 'db' | 'logger' | 'now'>,
): Promise<string[]> {
  const now = ctx.now();
  let look = looks.get(ctx.db);
  if (!look || now - look.lookedAt >= NEWER_RELEASE_CHECK_MS) {
    const unknown = (await executedMigrations(ctx.db)).filter((name) => !RELEASE_MIGRATIONS.includes(name));
    look = { lookedAt: now, unknown, told: look?.told ?? false };
    looks.set(ctx.db, look);
  }
  if (look.unknown.length && !look.told) {
    look.told = true;
    ctx.logger.error(
      { migrations: look.unknown },
      `the database was migrated by a newer release of Frontdoor (migration ${look.unknown.join(', ')}, unknown to this one) while this instance serves: /readyz answers 503; stop this instance, whose writes the newer release may not read, and run the newer release in its place`,
    );
  }
  return look.unknown;
}

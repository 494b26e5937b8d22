import type { Logger } from 'pino';
import { databaseFileProblem, rescueDatabase, type Db } from './index.ts';

const WHAT_TO_DO = {
  removed:
    'the database file was removed under the running server: all it writes is lost when it stops; stop it, move the rescued copy (rescuedTo) to databaseAt and start it again',
  replaced:
    'the database file was replaced under the running server, which still writes to the old one (lost when it stops): stop it; to keep the old data, move the rescued copy (rescuedTo) to databaseAt before starting it again',
} as const;

/**
 * The check main.ts runs every minute on SQLite: while the file the server writes to is not the one
 * at its path, an error line says so and what to do, after a copy of what the server holds has been
 * saved beside the path (once: the line names it).
 */
export function watchDatabaseFile(db: Db, logger: Logger, now: () => number): () => Promise<void> {
  let rescuedTo: string | undefined;
  return async () => {
    const found = databaseFileProblem(db);
    if (!found) return;
    if (!rescuedTo)
      rescuedTo = await rescueDatabase(db, now()).catch((err: unknown) => {
        logger.error({ err }, 'could not save a copy of the database the server writes to');
        return undefined;
      });
    logger.error({ databaseAt: found.location, rescuedTo }, WHAT_TO_DO[found.problem]);
  };
}

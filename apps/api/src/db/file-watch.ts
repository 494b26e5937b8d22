import type { Logger } from 'pino';
import { databaseFileProblem, rescueDatabase, type Db } from './index.ts';

const WHAT_TO_DO = {
  removed:
    "the database file was removed under the running server: all it writes would be lost when it stops; stop it (it then saves a last copy, named in its warning line, and sets the removed file's journal aside), move that copy to databaseAt and start it again (if it was killed instead, move the newest rescued copy after deleting the -wal and -shm files beside databaseAt)",
  replaced:
    'the database file was replaced under the running server, which still writes to the old one: stop it (it then saves a last copy of the old one, named in its warning line); to keep the old data, move that copy to databaseAt before starting it again',
} as const;

/**
 * The check main.ts runs every minute on SQLite: while the file the server writes to is not the one
 * at its path, an error line says so and what to do, after a copy of what the server holds has been
 * saved beside the path (once: the line names it).
 */
export function watchDatabaseFile(db: Db, logger: Logger, now: () => number): () => Promise<void> {
  // the copy under way or made: a large database may take longer than a minute to copy, and the
  // next check must not start a second one
  let rescue: Promise<string | undefined> | undefined;
  return async () => {
    const found = databaseFileProblem(db);
    if (!found) return;
    rescue ??= rescueDatabase(db, now()).catch((err: unknown) => {
      logger.error({ err }, 'could not save a copy of the database the server writes to');
      return undefined;
    });
    const rescuedTo = await rescue;
    // a copy that failed is tried again at the next check
    if (rescuedTo === undefined) rescue = undefined;
    logger.error({ databaseAt: found.location, rescuedTo }, WHAT_TO_DO[found.problem]);
  };
}

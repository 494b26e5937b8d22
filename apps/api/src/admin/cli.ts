import { existsSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { loadConfig, type AppConfig } from '../config.ts';
import {
  RELEASE_MIGRATIONS,
  SQLITE_FILE,
  assertWritable,
  createDb,
  executedMigrations,
  migrateToLatest,
  type Db,
} from '../db/index.ts';
import { readEnvFile } from '../env-file.ts';
import { createMailer } from '../mail/mailer.ts';
import { createLogger } from '../services/logger.ts';
import { createOutbox } from '../services/outbox.ts';
import { databaseLocation, startupFailure } from '../startup-failure.ts';
import {
  COMMANDS,
  HELP,
  UsageError,
  commandName,
  formatResult,
  helpFor,
  parseAdminArgs,
  runAdminCommand,
} from './commands.ts';
import { readPassword } from './read-password.ts';

/** `npm run admin -- <command>`: same DATA_DIR / DATABASE_URL as the server. Exit 0 ok, 1 failure, 2 usage. */
async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseAdminArgs(argv);
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.info(helpFor(positionals));
    return 0;
  }
  if (!positionals.length) {
    console.info(HELP);
    return 2;
  }
  const fail = (message: string) =>
    console.error(values.json ? JSON.stringify({ error: message }) : `error: ${message}`);
  const notice = (message: string) =>
    console.error(values.json ? JSON.stringify({ notice: message }) : `notice: ${message}`);
  let config: AppConfig | undefined;
  let db: Db | undefined;
  try {
    // the server's .env, read the same way: the real environment wins
    readEnvFile();
    config = loadConfig(process.env);
    const unmigrated = COMMANDS[commandName(positionals)]?.unmigrated;
    // db copy leaves its source as it is: a DATA_DIR mistyped gets no new, empty database made there
    if (unmigrated && !config.databaseUrl && !existsSync(path.join(config.dataDir, SQLITE_FILE))) {
      fail(
        `DATA_DIR ${config.dataDir} holds no database (${SQLITE_FILE}): DATA_DIR must name the directory the server keeps its database in`,
      );
      return 1;
    }
    db = createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    // a DATA_DIR mistyped, or relative to another directory, gives an empty database, which would
    // take the command as if it were the server's: say so before doing it
    const ran = await executedMigrations(db);
    if (!ran.length) notice(newDatabaseNotice(config));
    // db copy leaves its source as it is: migrated here, an older release could no longer start on it
    if (!unmigrated) {
      // an older release's database, maybe under its running server: migrated here, that server's
      // requests would wait behind the migration's locks and it could no longer start
      if (ran.length && RELEASE_MIGRATIONS.some((name) => !ran.includes(name))) {
        fail(olderDatabaseRefusal(config, ran));
        await db.destroy();
        return 1;
      }
      await migrateToLatest(db, { secret: config.secret });
      // every other command writes (its audit entry at least): a replica or a read-only file is
      // refused here in the server's sentence, not by the driver mid-command
      await assertWritable(db);
    }
  } catch (err) {
    // the server's sentence for a setting it cannot start with, not a stack trace
    fail(startupFailure(err, config).message);
    await db?.destroy();
    return 1;
  }
  const now = () => Date.now();
  const mailer = createMailer(config, db, now);
  const logger = createLogger({ level: 'warn', destination: pino.destination(2) });
  const outbox = createOutbox({ config, db, logger, now }, mailer);
  try {
    const result = await runAdminCommand(
      {
        db,
        config,
        outbox,
        now,
        logger,
        readPassword: () => readPassword(process.stdin, process.stderr),
      },
      positionals,
      values,
    );
    console.info(formatResult(result, values.json ?? false));
    return 0;
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
    return err instanceof UsageError ? 2 : 1;
  } finally {
    await mailer.close();
    await db.destroy();
  }
}

function databaseWhere(config: AppConfig): string {
  return config.databaseUrl
    ? `PostgreSQL at ${databaseLocation(config.databaseUrl)} (DATABASE_URL)`
    : `DATA_DIR ${config.dataDir}`;
}

function newDatabaseNotice(config: AppConfig): string {
  return `${databaseWhere(config)} held no database, so this command made a new, empty one: if the server uses another, set DATA_DIR or DATABASE_URL to the server's and run the command again`;
}

function olderDatabaseRefusal(config: AppConfig, ran: string[]): string {
  const last = ran.toSorted().at(-1);
  return `the database of ${databaseWhere(config)} is an older release's (its last migration is ${last}, this release's ${RELEASE_MIGRATIONS.at(-1)}): start this release's server first, which migrates it, then run the command again; nothing was changed`;
}

process.exitCode = await main(process.argv.slice(2));

import pino from 'pino';
import { loadConfig, type AppConfig } from '../config.ts';
import { createDb, migrateToLatest, type Db } from '../db/index.ts';
import { readEnvFile } from '../env-file.ts';
import { createMailer } from '../mail/mailer.ts';
import { createLogger } from '../services/logger.ts';
import { createOutbox } from '../services/outbox.ts';
import { startupFailure } from '../startup-failure.ts';
import { HELP, UsageError, formatResult, helpFor, parseAdminArgs, runAdminCommand } from './commands.ts';
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
  let config: AppConfig | undefined;
  let db: Db | undefined;
  try {
    // the server's .env, read the same way: the real environment wins
    readEnvFile();
    config = loadConfig(process.env);
    db = createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    await migrateToLatest(db, { secret: config.secret });
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

process.exitCode = await main(process.argv.slice(2));

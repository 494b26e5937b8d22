import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { createDb, migrateToLatest } from '../db/index.ts';
import { readEnvFile } from '../env-file.ts';
import { DemoRefused, assertDemoAllowed, demoInstructions, seedDemo } from '../services/demo.ts';
import { startupFailure } from '../startup-failure.ts';

const SEED_HELP = `Usage: npm run seed [-- --json]

Development only: makes the demo of the README's quick start ready. Creates the service provider
"demo" (returning to /dev/sp on this portal), a demo student and a demo teacher with known
passwords, a new access code for the student and a new login request, then prints what to open.
Run it again at any time: nothing is duplicated, the accounts get their documented password back.
Reads PUBLIC_URL / PORT and DATA_DIR / DATABASE_URL like the server. --json prints one JSON object.`;

/** `npm run seed`. Exit 0 ok, 1 failure, 2 usage or refused (production). */
async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n\n${SEED_HELP}`);
    return 2;
  }
  if (values.help) {
    console.info(SEED_HELP);
    return 0;
  }
  const fail = (message: string, code: number) => {
    console.error(values.json ? JSON.stringify({ error: message }) : `npm run seed: ${message}`);
    return code;
  };
  let config;
  try {
    // the server's .env too: its APP_ENV=production must refuse the demo here as well
    readEnvFile();
    config = loadConfig(process.env);
    // before the database is opened: a production database is neither migrated nor touched
    assertDemoAllowed(config);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof DemoRefused) return fail(err.message, 2);
    throw err;
  }
  let db;
  try {
    db = createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    await migrateToLatest(db, { secret: config.secret });
  } catch (err) {
    // the server's sentence for a DATA_DIR or database it cannot start with, not a stack trace
    await db?.destroy();
    return fail(startupFailure(err, config).message, 1);
  }
  try {
    const seed = await seedDemo({ db, config, now: () => Date.now() });
    console.info(values.json ? JSON.stringify(seed) : demoInstructions(seed));
    return 0;
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err), 1);
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main(process.argv.slice(2));

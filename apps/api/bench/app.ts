import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino, { type Logger } from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Env } from '../src/config.ts';
import { createDb, migrateToLatest } from '../src/db/index.ts';
import { createTestContext } from '../test/context.ts';

/**
 * The portal as the bench and the load test run it: the whole app on SQLite in a temporary
 * directory, real clock, with `env` on top of the bench defaults; `close` removes everything.
 */
export async function benchApp(env: Env, logger: Logger = pino({ level: 'silent' })) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fd-bench-'));
  const config = loadConfig({ APP_ENV: 'development', DATA_DIR: dataDir, WEB_DIST: '/nonexistent', ...env });
  const db = createDb({ dataDir, databaseUrl: undefined });
  await migrateToLatest(db, { secret: config.secret });
  const ctx = await createTestContext({ config, db, now: () => Date.now(), logger });
  const app = await buildApp(ctx);
  // mail is sent as in production: by the worker, beside the requests
  ctx.outbox.start();
  return {
    app,
    ctx,
    db,
    close: async () => {
      await app.close();
      await ctx.outbox.stop();
      await db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const RESULTS_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../bench/results.md',
);

/**
 * Writes `text`, which starts with the line `heading`, into bench/results.md in place of that
 * section (up to the next `#` or `##` heading), leaving the other tools' sections as they are.
 */
export function writeResultsSection(heading: string, text: string): void {
  const before = existsSync(RESULTS_FILE) ? readFileSync(RESULTS_FILE, 'utf8') : '';
  const start = before.indexOf(`${heading}\n`);
  const section = `${text.replace(/\s*$/, '')}\n`;
  if (start === -1) {
    writeFileSync(RESULTS_FILE, `${before.replace(/\s*$/, '')}${before.trim() ? '\n\n' : ''}${section}`);
    return;
  }
  const rest = before.slice(start + heading.length);
  const next = rest.search(/\n#{1,2} /);
  const tail = next === -1 ? '' : `\n${rest.slice(next + 1)}`;
  writeFileSync(RESULTS_FILE, `${before.slice(0, start)}${section}${tail}`);
}

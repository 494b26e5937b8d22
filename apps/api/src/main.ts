import { createLogger } from './services/logger.ts';
import { buildApp } from './app.ts';
import { ConfigError, developmentWarning, loadConfig } from './config.ts';
import type { AppContext } from './context.ts';
import { createDb, migrateToLatest } from './db/index.ts';
import { createMailer } from './mail/mailer.ts';
import { deliverCrmOutbox } from './services/crm.ts';
import { createLimitState } from './services/limits.ts';
import { pruneExpired } from './services/pruning.ts';

const CRM_RETRY_MS = 60_000;
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'info' });
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      logger.fatal(err.message);
      process.exit(1);
    }
    throw err;
  }
  const db = createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateToLatest(db, { secret: config.secret });
  const now = () => Date.now();
  const ctx: AppContext = {
    config,
    db,
    logger,
    now,
    mailer: createMailer(config, db, now),
    limits: await createLimitState(config, logger),
  };
  const app = await buildApp(ctx);
  const address = await app.listen({ port: config.port, host: config.host });
  logger.info(
    {
      address,
      publicUrl: config.publicUrl,
      env: config.env,
      database: config.databaseUrl ? 'postgres' : 'sqlite',
    },
    'frontdoor listening',
  );
  const warning = developmentWarning(config);
  if (warning) logger.warn(warning);

  // CRM forwards that failed stay in crm_outbox; retry them in the background
  const retry = config.crmWebhookUrl
    ? setInterval(
        () => void deliverCrmOutbox(ctx).catch((err: unknown) => logger.warn({ err }, 'CRM retry failed')),
        CRM_RETRY_MS,
      )
    : undefined;

  // rows dead longer than their retention are deleted hourly (services/pruning.ts)
  const pruning = setInterval(() => {
    pruneExpired(ctx)
      .then((counts) => logger.info({ counts }, 'pruned expired rows'))
      .catch((err: unknown) => logger.warn({ err }, 'pruning failed'));
  }, PRUNE_INTERVAL_MS);
  pruning.unref();

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    clearInterval(retry);
    clearInterval(pruning);
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    try {
      // close() stops accepting and resolves after in-flight requests have been answered; keep-alive
      // connections that carried them become idle only afterwards, so keep closing idle ones
      const reaper = setInterval(() => app.server.closeIdleConnections(), 100);
      await app.close();
      clearInterval(reaper);
      await ctx.mailer.close();
      await db.destroy();
      logger.info('stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

await main();

import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { createLogger, terminalDestination } from './services/logger.ts';
import { buildApp } from './app.ts';
import {
  ConfigError,
  corsOriginsWarning,
  developmentBanner,
  developmentLinks,
  developmentWarning,
  proxyWarning,
  loadConfig,
  logLevel,
  type AppConfig,
} from './config.ts';
import type { AppContext } from './context.ts';
import { watchDatabaseFile } from './db/file-watch.ts';
import {
  assertWritable,
  closeDatabase,
  createDb,
  exposedDatabasePaths,
  isNewDatabase,
  migrateToLatest,
  noteOwnJournal,
} from './db/index.ts';
import { ENV_FILE, readEnvFile, unreadEnvFile } from './env-file.ts';
import { setting } from './env-variables.ts';
import { checkSmtp, createMailer } from './mail/mailer.ts';
import { trackConnections } from './services/connections.ts';
import { createLimitState } from './services/limits.ts';
import { createOutbox } from './services/outbox.ts';
import { pruneExpired } from './services/pruning.ts';
import {
  forgetInstance,
  INSTANCE_HEARTBEAT_MS,
  noteInstance,
  noteSecretChange,
} from './services/secret-change.ts';
import { databaseLocation, startupFailure } from './startup-failure.ts';

const PRUNE_INTERVAL_MS = 60 * 60 * 1000;
const FILE_CHECK_INTERVAL_MS = 60 * 1000;
const SHUTDOWN_GRACE_MS = 10_000;

/** This process among the instances of one database (instance_secrets). */
const instanceId = randomUUID();

/**
 * Fails as app.listen would (the port in use, below 1024, HOST not this machine's) before the database
 * is opened: a start that migrated and then found its port held by the old release still running left
 * that release a database it refuses. A listen closed at once; PORT 0 (any free port) needs none.
 */
async function assertCanListen(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ port, host }, resolve);
  });
  await new Promise((resolve) => probe.close(resolve));
}

/** Where the database is, as a log line may show it. */
const databaseAt = (config: AppConfig) =>
  config.databaseUrl ? databaseLocation(config.databaseUrl) : config.dataDir;

/** Checks the port, opens the database, migrates it, builds the app and listens. */
async function start(config: AppConfig, logger: Logger) {
  // development answers the pages with how to build them; production never starts without them
  if (config.production && !existsSync(path.join(config.webDist, 'index.html')))
    throw new ConfigError(
      `WEB_DIST ${config.webDist} holds no web build (index.html): run \`npm run build\` before the production start, or set WEB_DIST to where it is`,
    );
  await assertCanListen(config.port, config.host);
  const db = createDb({
    databaseUrl: config.databaseUrl,
    poolSize: config.databasePoolSize,
    dataDir: config.dataDir,
    onConnectionLost: (err) =>
      logger.warn({ err }, 'PostgreSQL closed a connection; the next query opens another'),
  });
  // a DATA_DIR or DATABASE_URL that is not the server's data looks like any other start: said once
  if (config.production && (await isNewDatabase(db))) {
    const setting = config.databaseUrl ? 'DATABASE_URL' : 'DATA_DIR';
    logger.warn(
      { setting, databaseAt: databaseAt(config) },
      `a new, empty database is made at ${databaseAt(config)}: if this server had accounts before, ${setting} points elsewhere than its data`,
    );
  }
  const exposed = config.databaseUrl ? [] : exposedDatabasePaths(config.dataDir);
  if (exposed.length)
    logger.warn(
      { setting: 'DATA_DIR', exposed },
      `other users of this machine may read the database in DATA_DIR (password hashes, sessions, the private signing keys): ${exposed.map((e) => `${e.path} is ${e.mode}`).join(', ')}; run chmod go-rwx ${exposed.map((e) => e.path).join(' ')}`,
    );
  const migrating = performance.now();
  const migrations = await migrateToLatest(db, {
    secret: config.secret,
    progress: {
      pending: (names) => logger.info({ migrations: names }, `migrating: ${names.join(', ')}`),
      ran: (migration, ms) => logger.info({ migration, ms }, 'migration ran'),
      waiting: () =>
        logger.info(
          "waiting for another instance's migration: the migration lock is held, and this start goes on once it is free",
        ),
    },
  });
  // what an upgrade changed in the database, and how long the start waited for it (docs/DEPLOYMENT.md)
  if (migrations.length)
    logger.info({ migrations, ms: Math.round(performance.now() - migrating) }, 'database migrated');
  await assertWritable(db);
  // the file was just written: its journal is beside it, and closeDatabase must know it as its own
  noteOwnJournal(db);
  const now = () => Date.now();
  // a SECRET other than the last start's fails every live code: said before the first pupil's try is
  await noteSecretChange({ db, config, logger, now });
  // the admin CLI checks its SECRET against the instances serving (services/secret-change.ts)
  await noteInstance({ db, config, now }, instanceId);
  const mailer = createMailer(config, db, now);
  const ctx: AppContext = {
    config,
    db,
    logger,
    now,
    outbox: createOutbox({ config, db, logger, now }, mailer),
    limits: await createLimitState(config, logger),
  };
  const app = await buildApp(ctx);
  const connections = trackConnections(app.server, now);
  const address = await app.listen({ port: config.port, host: config.host });
  return { ctx, app, mailer, address, connections };
}

async function main(): Promise<void> {
  // before anything reads the environment; a variable of the real environment wins over the file.
  // One it cannot read is refused below, in the fatal line of any other setting
  let fromEnvFile: string[] = [];
  let envFileRefusal: unknown;
  try {
    fromEnvFile = readEnvFile();
  } catch (err) {
    envFileRefusal = err;
  }
  // at the default level until LOG_LEVEL is known to be one: its refusal is a line like any other's
  const logger = createLogger({
    level: setting({}, 'LOG_LEVEL'),
    destination: await terminalDestination(process.env.APP_ENV),
  });
  let config: AppConfig | undefined;
  let started;
  try {
    if (envFileRefusal) throw envFileRefusal;
    logger.level = logLevel(process.env);
    if (fromEnvFile.length) logger.info({ file: ENV_FILE, variables: fromEnvFile }, 'read .env');
    const unread = unreadEnvFile();
    if (unread)
      logger.warn(
        { file: unread, read: ENV_FILE },
        `${unread} is not read: the server reads the .env at the repository's root (${ENV_FILE})`,
      );
    config = loadConfig(process.env);
    started = await start(config, logger);
  } catch (err) {
    // one line saying what failed and which setting to look at, not a stack trace
    const { message, fields } = startupFailure(err, config);
    logger.fatal(fields, message);
    process.exit(1);
  }
  const { ctx, app, mailer, address, connections } = started;
  const { db } = ctx;
  // before `frontdoor listening`, which ends a start that succeeds (docs/DEPLOYMENT.md)
  const warning = developmentWarning(config);
  // a person at a terminal reads the banner; a pipe or a log collector gets one JSON line with the links
  if (warning && process.stdout.isTTY) process.stdout.write(`${developmentBanner(config)}\n`);
  else if (warning)
    logger.warn(
      { links: Object.fromEntries(developmentLinks(config).map((link) => [link.label, link.target])) },
      warning,
    );
  for (const startWarning of [proxyWarning(config), corsOriginsWarning(config)])
    if (startWarning) logger.warn(startWarning);
  logger.info(
    {
      // a URL that reaches it from this machine (with HOST=0.0.0.0, the loopback one)
      address,
      // HOST=0.0.0.0 listens on every interface, `address` names one only
      addresses: app
        .addresses()
        .map((a) =>
          typeof a === 'string'
            ? a
            : a.family === 'IPv6'
              ? `[${a.address}]:${a.port}`
              : `${a.address}:${a.port}`,
        ),
      publicUrl: config.publicUrl,
      env: config.env,
      database: config.databaseUrl ? 'postgres' : 'sqlite',
      // where the data is, and whether the abuse limits are shared by every instance (docs/DEPLOYMENT.md)
      databaseAt: databaseAt(config),
      limitCounters: ctx.limits.counters.shared()
        ? 'redis'
        : config.redisUrl
          ? 'memory (redis unreachable: per instance until it answers)'
          : 'memory',
    },
    'frontdoor listening',
  );
  // mail and CRM calls go out from the outbox (services/outbox.ts), also those left from a previous run
  ctx.outbox.start();
  // a wrong SMTP password or an unreachable mail server is told once, now, not mail by mail; not awaited:
  // the portal serves either way
  if (config.smtpUrl) void checkSmtp(config.smtpUrl, logger, { requireTls: config.smtpRequireTls });

  // rows dead longer than their retention are deleted hourly (services/pruning.ts)
  const pruning = setInterval(() => {
    pruneExpired(ctx)
      .then((counts) => logger.info({ counts }, 'pruned expired rows'))
      .catch((err: unknown) => logger.warn({ err }, 'pruning failed'));
  }, PRUNE_INTERVAL_MS);
  pruning.unref();

  // a SQLite file removed under the server is lost when it stops, unless someone hears of it in time
  const checkFile = watchDatabaseFile(db, logger, ctx.now);
  const fileCheck = setInterval(() => void checkFile(), FILE_CHECK_INTERVAL_MS);
  fileCheck.unref();

  // a missed beat (the database away) is made up by the next: the row counts as up for several
  const heartbeat = setInterval(
    () => void noteInstance(ctx, instanceId).catch(() => undefined),
    INSTANCE_HEARTBEAT_MS,
  );
  heartbeat.unref();

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    clearInterval(pruning);
    clearInterval(fileCheck);
    clearInterval(heartbeat);
    // no new sends once going: a send the exit cuts short holds its row for the claim's 13 minutes,
    // while a row left unclaimed goes out at once from another instance or the restarted one
    const outboxStopped = ctx.outbox.stop();
    // a load balancer learns from /readyz and from each answer's closed connection that this instance
    // is going, and sends a class's next requests elsewhere, while this one still answers them
    if (config.shutdownDrainMs > 0) {
      app.drain();
      logger.info(
        { signal, drainMs: config.shutdownDrainMs },
        'shutting down: draining (/readyz answers 503)',
      );
      await sleep(config.shutdownDrainMs);
    }
    logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const force = setTimeout(() => {
      logger.error(connections.stillOpen(), 'shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    try {
      // close() stops accepting and resolves after in-flight requests have been answered; keep-alive
      // connections that carried them become idle only afterwards, so keep closing idle ones, and
      // those answered whose request is still arriving, which Node never counts idle
      const reaper = setInterval(() => {
        app.server.closeIdleConnections();
        connections.closeAnswered();
      }, 100);
      await app.close();
      clearInterval(reaper);
      await outboxStopped;
      await mailer.close();
      // no longer serving: its SECRET stops counting for the admin CLI at once (else when its row ages)
      await forgetInstance(db, instanceId).catch(() => undefined);
      const closed = await closeDatabase(db, ctx.now());
      if (closed.rescuedTo)
        logger.warn(
          closed,
          'the database file was removed or replaced under the server: a last copy of all it wrote is at rescuedTo, and its journal was moved aside (setAside), never to be replayed onto the file put at the path',
        );
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

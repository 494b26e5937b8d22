import type { Logger } from 'pino';
import type { AppConfig } from '../src/config.ts';
import type { AppContext } from '../src/context.ts';
import type { Db } from '../src/db/index.ts';
import { mailboxMailer, type Mailer } from '../src/mail/mailer.ts';
import { createLimitState } from '../src/services/limits.ts';
import { createOutbox } from '../src/services/outbox.ts';

/**
 * The AppContext of every test app and of the bench: mail goes to the dev mailbox unless another
 * mailer is given, and the outbox worker is not started (tests drain it; the bench starts it).
 */
export async function createTestContext(options: {
  config: AppConfig;
  db: Db;
  now: () => number;
  logger: Logger;
  mailer?: Mailer;
}): Promise<AppContext> {
  const { config, db, now, logger } = options;
  return {
    config,
    db,
    now,
    logger,
    outbox: createOutbox({ config, db, logger, now }, options.mailer ?? mailboxMailer(db, now)),
    limits: await createLimitState(config, logger),
  };
}

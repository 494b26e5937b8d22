import type { Logger } from 'pino';
import type { AppConfig } from './config.ts';
import type { Db } from './db/index.ts';
import type { LimitState } from './services/limits.ts';
import type { Outbox } from './services/outbox.ts';

/** What every route and service needs; built once by main.ts (or a test harness) and handed to buildApp. */
export interface AppContext {
  config: AppConfig;
  db: Db;
  /** Where mail and CRM calls are written to be sent (createOutbox); main.ts starts its worker. */
  outbox: Outbox;
  logger: Logger;
  /** Epoch milliseconds; tests move time by replacing it. */
  now: () => number;
  /** The abuse limits' counters and the argon2 queue (createLimitState); buildApp closes them. */
  limits: LimitState;
}

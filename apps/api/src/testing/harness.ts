import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Logger } from 'pino';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, type Roles } from '@frontdoor/contract';
import { buildApp } from '../app.ts';
import { loadConfig, type Env } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/index.ts';
import { mailboxMailer, type Mailer } from '../mail/mailer.ts';
import { hashPassword, newUserRow } from '../services/users.ts';
import { createSession } from '../services/sessions.ts';
import { createServiceProvider } from '../services/service-providers.ts';
import { createLimitState } from '../services/limits.ts';
import { createLogger } from '../services/logger.ts';
import { createOutbox } from '../services/outbox.ts';
import { createTestDb, postgresReachable, TEST_DATABASE_URL, TEST_SECRET, type Dialect } from './test-db.ts';

export { createTestDb, type Dialect };

const pgProblem = await postgresReachable();
if (pgProblem)
  console.info(
    `[api tests] PostgreSQL at ${TEST_DATABASE_URL} not reachable, its runs are skipped: ${pgProblem}`,
  );

/** The dialects every API suite runs on; PostgreSQL is skipped (with the reason printed) when unreachable. */
export const DIALECTS: { dialect: Dialect; skip: boolean }[] = [
  { dialect: 'sqlite', skip: false },
  { dialect: 'postgres', skip: pgProblem !== null },
];

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  db: Db;
  clock: { now: () => number; advance: (ms: number) => void };
  client: () => ApiClient;
  close: () => Promise<void>;
}

export const TEST_PASSWORD = 'Correct-Horse-9-Battery';

export async function createTestApp(
  dialect: Dialect,
  options: { env?: Env; mailer?: Mailer; logger?: Logger } = {},
): Promise<TestApp> {
  const { db, drop } = await createTestDb(dialect);
  let time = Date.UTC(2026, 0, 15, 9, 0, 0);
  const now = () => time;
  const config = loadConfig({
    APP_ENV: 'development',
    PUBLIC_URL: 'http://localhost:8080',
    RATE_LIMIT_MULTIPLIER: '1000',
    SECRET: TEST_SECRET,
    WEB_DIST: '/nonexistent-dist',
    ...options.env,
  });
  const logger = options.logger ?? createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  // the worker is not started: tests send what is due with ctx.outbox.drain() (lastMail does)
  const ctx: AppContext = {
    config,
    db,
    now,
    logger,
    outbox: createOutbox({ config, db, logger, now }, options.mailer ?? mailboxMailer(db, now)),
    limits: await createLimitState(config, logger),
  };
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    db,
    clock: { now, advance: (ms) => void (time += ms) },
    client: () => new ApiClient(app),
    close: async () => {
      await app.close();
      await drop();
    },
  };
}

/** A browser-like client over fastify.inject: keeps cookies and sends the CSRF header like the SPA. */
export class ApiClient {
  readonly cookies = new Map<string, string>();
  private readonly app: FastifyInstance;
  constructor(app: FastifyInstance) {
    this.app = app;
  }

  async request(options: InjectOptions & { url: string }): Promise<LightMyRequestResponse> {
    const jar = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await this.app.inject({
      ...options,
      headers: { ...(jar ? { cookie: jar } : {}), ...options.headers },
    });
    for (const c of res.cookies) {
      if (
        c.value === '' ||
        (c.maxAge !== undefined && c.maxAge <= 0) ||
        (c.expires && c.expires.getTime() < Date.now())
      )
        this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }

  get(url: string, headers: Record<string, string> = {}) {
    return this.request({ method: 'GET', url, headers });
  }

  /** POST JSON with the double-submit header (fetching the CSRF cookie first when there is none). */
  async post(url: string, payload: unknown, headers: Record<string, string> = {}) {
    if (!this.cookies.has(CSRF_COOKIE)) await this.get('/api/auth/sig');
    return this.request({
      method: 'POST',
      url,
      payload: payload as InjectOptions['payload'],
      headers: { [CSRF_HEADER]: this.cookies.get(CSRF_COOKIE) ?? '', ...headers },
    });
  }

  signInWith(token: string): this {
    this.cookies.set(SESSION_COOKIE, token);
    return this;
  }
}

export interface SeedUser {
  email: string;
  password?: string | null;
  confirmed?: boolean;
  mustReset?: boolean;
  roles?: Roles;
  first?: string;
  last?: string;
  language?: string;
}

export async function seedUser(t: Pick<TestApp, 'db' | 'clock'>, user: SeedUser) {
  const password = user.password === undefined ? TEST_PASSWORD : user.password;
  const row = newUserRow(
    {
      email: user.email,
      first: user.first ?? 'Ada',
      last: user.last ?? 'Lovelace',
      passwordHash: password ? await hashPassword(password) : null,
      confirmed: user.confirmed ?? true,
      mustReset: user.mustReset ?? false,
      roles: user.roles ?? {},
      language: user.language ?? 'en',
    },
    t.clock.now(),
  );
  await t.db.insertInto('users').values(row).execute();
  return row;
}

export async function signedInClient(t: TestApp, userId: string): Promise<ApiClient> {
  return t.client().signInWith(await createSession(t.db, userId, { now: t.clock.now() }));
}

export async function seedServiceProvider(
  t: Pick<TestApp, 'db' | 'clock'>,
  spId = 'mathworld',
  origins = ['https://app.mathworld.test'],
) {
  return createServiceProvider(t.db, { spId, name: `${spId} Learning`, origins }, t.clock.now());
}

export const basicAuth = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;

/** Sends what the outbox holds, then the newest mail to an address in the dev mailbox and the six-digit code it carries. */
export async function lastMail(t: Pick<TestApp, 'db' | 'ctx'>, to: string) {
  await t.ctx.outbox.drain();
  const mail = await t.db
    .selectFrom('mailbox')
    .selectAll()
    .where('to_address', '=', to)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return { mail, code: mail ? /: (\d{6})$/m.exec(mail.text)?.[1] : undefined };
}

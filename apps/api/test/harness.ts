import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Level, Logger } from 'pino';
import { CSRF_COOKIE, CSRF_HEADER, EMAIL_CODE_LENGTH, SESSION_COOKIE, type Roles } from '@frontdoor/contract';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Env } from '../src/config.ts';
import type { AppContext } from '../src/context.ts';
import type { Db } from '../src/db/index.ts';
import type { Mailer } from '../src/mail/mailer.ts';
import { hashPassword, newUserRow } from '../src/services/users.ts';
import { createSession } from '../src/services/sessions.ts';
import { createServiceProvider } from '../src/services/service-providers.ts';
import { startMasquerade } from '../src/services/masquerade.ts';
import { createLogger } from '../src/services/logger.ts';
import { PORTAL_CLIENT_ID, portalConfig } from '../src/services/portal-config.ts';
import { Browser } from './browser.ts';
import { createTestContext } from './context.ts';
import { freePort } from './fake-http.ts';
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

/** The one clock of a test: `ctx.now` of the app, standing still until the test moves it. */
export interface TestClock {
  now: () => number;
  advance: (ms: number) => void;
}

/** Where an inject-based test app's clock starts (dates in assertions are stable). */
export const TEST_START = Date.UTC(2026, 0, 15, 9, 0, 0);

export function testClock(start: number): TestClock {
  let time = start;
  return { now: () => time, advance: (ms) => void (time += ms) };
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  db: Db;
  clock: TestClock;
  client: () => ApiClient;
  close: () => Promise<void>;
}

/** A test app on a real port, for flows a browser walks over HTTP (the identity side's redirects). */
export interface ListeningTestApp extends TestApp {
  baseUrl: string;
  browser: () => Browser;
}

export interface TestAppOptions {
  env?: Env;
  mailer?: Mailer;
  logger?: Logger;
  /** Listen on 127.0.0.1 at a free port (PUBLIC_URL points there) instead of answering inject only. */
  listen?: boolean;
  /** SQLite in a file in this directory, as a server keeps it, instead of in memory. */
  sqliteDir?: string;
}

export const TEST_PASSWORD = 'Correct-Horse-9-Battery';

/**
 * The whole app (buildApp) on a fresh database, answering fastify.inject, or listening when
 * `listen` asks for it. A listening app's clock starts at the real time: oidc-provider and
 * openid-client keep the real clock for the tokens and cookies they date, and ctx.now must agree
 * with them; it still stands still until the test advances it.
 */
export async function createTestApp(
  dialect: Dialect,
  options: TestAppOptions & { listen: true },
): Promise<ListeningTestApp>;
export async function createTestApp(dialect: Dialect, options?: TestAppOptions): Promise<TestApp>;
export async function createTestApp(
  dialect: Dialect,
  options: TestAppOptions = {},
): Promise<TestApp | ListeningTestApp> {
  // the PUBLIC_URL (the issuer of the identity side) must be known before the app is built
  const port = options.listen ? await freePort() : undefined;
  const baseUrl = port === undefined ? undefined : `http://127.0.0.1:${port}`;
  const { db, drop } = await createTestDb(dialect, options.sqliteDir);
  const clock = testClock(options.listen ? Date.now() : TEST_START);
  const config = loadConfig({
    APP_ENV: 'development',
    PUBLIC_URL: baseUrl ?? 'http://localhost:8080',
    ...(port === undefined ? {} : { PORT: String(port) }),
    RATE_LIMIT_MULTIPLIER: '1000',
    SECRET: TEST_SECRET,
    WEB_DIST: '/nonexistent-dist',
    ...options.env,
  });
  const logger = options.logger ?? createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  // the worker is not started: tests send what is due with ctx.outbox.drain() (lastMail does)
  const ctx = await createTestContext({ config, db, now: clock.now, logger, mailer: options.mailer });
  const app = await buildApp(ctx);
  if (port === undefined) await app.ready();
  else await app.listen({ port, host: '127.0.0.1' });
  const testApp: TestApp = {
    app,
    ctx,
    db,
    clock,
    client: () => new ApiClient(app, clock.now),
    close: async () => {
      await app.close();
      await drop();
    },
  };
  return baseUrl === undefined
    ? testApp
    : { ...testApp, baseUrl, browser: () => new Browser(baseUrl, clock.now) };
}

/** The CSRF cookie as the SPA reads it: `__Host-fd_csrf` where cookies are Secure, else `fd_csrf`. */
export const csrfCookieOf = (cookies: Pick<Map<string, string>, 'get'>): string | undefined =>
  cookies.get(`__Host-${CSRF_COOKIE}`) ?? cookies.get(CSRF_COOKIE);

/** A browser-like client over fastify.inject: keeps cookies and sends the CSRF header like the SPA. */
export class ApiClient {
  readonly cookies = new Map<string, string>();
  private readonly app: FastifyInstance;
  private readonly now: () => number;
  /** `now`: the test's clock, which the server's cookie expiry dates come from too. */
  constructor(app: FastifyInstance, now: () => number) {
    this.app = app;
    this.now = now;
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
        (c.expires && c.expires.getTime() < this.now())
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
    if (!csrfCookieOf(this.cookies)) await this.get('/api/auth/sig');
    return this.request({
      method: 'POST',
      url,
      payload: payload as InjectOptions['payload'],
      headers: { [CSRF_HEADER]: csrfCookieOf(this.cookies) ?? '', ...headers },
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

/** An administrator (`adminEmail`) signed in and masquerading as a new account (`asEmail`), with its client. */
export async function masqueradingClient(t: TestApp, adminEmail: string, asEmail: string) {
  const admin = await seedUser(t, { email: adminEmail, roles: { admin: [1] } });
  const as = await seedUser(t, { email: asEmail });
  const client = await signedInClient(t, admin.id);
  await startMasquerade(t.ctx, admin, as);
  return { admin, as, client };
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

/**
 * A new authorization request of the portal's own client, as its sign-in buttons make one (PKCE S256),
 * with `extra` parameters added or replaced: each stores an Interaction.
 */
export const portalAuthorizeUrl = (t: Pick<TestApp, 'ctx'>, extra: Record<string, string> = {}): string =>
  `/oidc/oauth2/authorize?${new URLSearchParams({
    client_id: PORTAL_CLIENT_ID,
    response_type: 'code',
    redirect_uri: portalConfig(t.ctx.config).redirectUri,
    scope: 'openid',
    state: 'state-1',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    ...extra,
  }).toString()}`;

/** A mailed code at the end of its mail's line (`Your verification code is: 12345678`). */
const MAILED_CODE = new RegExp(`: (\\d{${EMAIL_CODE_LENGTH}})$`, 'm');

/** Sends what the outbox holds, then the newest mail to an address in the dev mailbox and the code it carries. */
export async function lastMail(t: Pick<TestApp, 'db' | 'ctx'>, to: string) {
  // one row at a time, in the outbox's order: its lanes send at once, and the mailbox would list
  // whichever send ended first as the newest (a sign-up's code after the reset queued behind it)
  const due = await t.db
    .selectFrom('outbox')
    .select('id')
    .where('next_attempt_at', '<=', t.ctx.now())
    .orderBy('next_attempt_at')
    .orderBy('id')
    .execute();
  for (const { id } of due) await t.ctx.outbox.deliver(id);
  const mail = await t.db
    .selectFrom('mailbox')
    .selectAll()
    .where('to_address', '=', to)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return { mail, code: mail ? MAILED_CODE.exec(mail.text)?.[1] : undefined };
}

/** A mailed code other than `code`, of its length: a wrong guess at it. */
export const wrongCode = (code: string) =>
  String((Number(code) + 1) % 10 ** EMAIL_CODE_LENGTH).padStart(EMAIL_CODE_LENGTH, '0');

/** A logger whose lines a test reads, each parsed as it is written. */
export function capturedLines<Line = Record<string, unknown>>(level: Level) {
  const lines: Line[] = [];
  const logger = createLogger({
    level,
    destination: { write: (line) => void lines.push(JSON.parse(line) as Line) },
  });
  return { lines, logger };
}

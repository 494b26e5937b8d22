import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER, messages } from '@frontdoor/contract';
import { ConfigError, loadConfig } from '../config.ts';
import { createAccessCode } from '../services/access-codes.ts';
import { Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type Driver } from 'kysely';
import { SCRAPE_DATABASE_TIMEOUT_MS, observeRequest, registry, scrape } from '../services/metrics.ts';
import { createLogger } from '../services/logger.ts';
import type { Database } from '../db/types.ts';
import {
  DIALECTS,
  TEST_PASSWORD,
  createTestApp,
  seedServiceProvider,
  seedUser,
  type TestApp,
} from '../../test/harness.ts';

const TOKEN = 'scraper-token-for-the-tests';
const csrf = { cookie: `${CSRF_COOKIE}=t`, [CSRF_HEADER]: 't' };

/** The value of one sample of the exposition text: `name` with exactly `labels`; 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(',');
  for (const line of text.split('\n')) {
    const m = /^([\w:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m?.[1] === name && (m[2] ?? '').split(',').sort().join(',') === want) return Number(m[3]);
  }
  return 0;
}

describe('request timings', () => {
  it('are a Prometheus histogram: cumulative buckets up to +Inf (the count), and the sum', async () => {
    for (const ms of [3, 30, 9000]) observeRequest('GET', '/test/timing', 200, ms);
    const text = await registry.metrics();
    const labels = { method: 'GET', route: '/test/timing', status: '200' };
    const bucket = (le: string) =>
      sample(text, 'frontdoor_http_request_duration_seconds_bucket', { ...labels, le });
    expect(['0.005', '0.025', '0.05', '5', '+Inf'].map(bucket)).toEqual([1, 1, 2, 2, 3]);
    expect(sample(text, 'frontdoor_http_request_duration_seconds_count', labels)).toBe(3);
    expect(sample(text, 'frontdoor_http_request_duration_seconds_sum', labels)).toBeCloseTo(9.033);
    expect(text).toContain('# TYPE frontdoor_http_request_duration_seconds histogram');
  });
});

describe('metrics settings', () => {
  const base = { APP_ENV: 'development', METRICS: 'on' };
  it('METRICS=on needs a METRICS_TOKEN, of at least 32 bytes in production', () => {
    expect(() => loadConfig(base)).toThrow(/METRICS_TOKEN is required with METRICS=on/);
    expect(loadConfig({ ...base, METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
    expect(loadConfig({ APP_ENV: 'development' }).metricsToken).toBeNull();
    const production = {
      APP_ENV: 'production',
      DATA_DIR: '/var/lib/frontdoor',
      SECRET: 'kL9#mQ2$vX7&nB4!pR8*tY3^wE6@zA1%',
      SMTP_URL: 'smtp://mail.test:587',
      PUBLIC_URL: 'https://login.example.org',
      METRICS: 'on',
    };
    expect(() => loadConfig({ ...production, METRICS_TOKEN: TOKEN })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, METRICS_TOKEN: TOKEN })).toThrow(/at least 32 bytes/);
    expect(loadConfig({ ...production, METRICS_TOKEN: 'x'.repeat(32) }).metricsToken).toBe('x'.repeat(32));
  });
});

describe.each(DIALECTS)('GET /metrics on $dialect', ({ dialect, skip }) => {
  describe.skipIf(skip)('off by default', () => {
    it('is not served without METRICS=on, whatever the token', async () => {
      const t = await createTestApp(dialect);
      const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('frontdoor_');
      await t.close();
    });
  });

  describe.skipIf(skip)('with METRICS=on', () => {
    let t: TestApp;
    const scrape = async () => {
      const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode).toBe(200);
      return res.body;
    };
    beforeAll(async () => {
      t = await createTestApp(dialect, {
        env: {
          METRICS: 'on',
          METRICS_TOKEN: TOKEN,
          RATE_LIMIT_MULTIPLIER: '1',
          LIMIT_FLOOD_PER_MINUTE: '40',
          PASSWORD_HASH_CONCURRENCY: '1',
          PASSWORD_HASH_QUEUE: '1',
        },
      });
      await seedServiceProvider(t, 'mathworld');
    });
    afterAll(async () => t.close());

    it('answers 401 without the bearer token or with another one, and never caches', async () => {
      for (const authorization of [undefined, `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`, 'Bearer ']) {
        const res = await t.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
        expect(res.statusCode, authorization).toBe(401);
        expect(res.headers['www-authenticate']).toBe('Bearer');
        // not signed in (unauthenticated), not forbidden: the right token would be let in
        expect(res.json()).toEqual({ status: 'error', msg: messages.notSignedIn, code: 'notSignedIn' });
      }
      // HTTP's schemes are case-insensitive: a scraper may send `bearer`
      for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
        const res = await t.app.inject({ url: '/metrics', headers: { authorization: `${scheme} ${TOKEN}` } });
        expect(res.statusCode, scheme).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.body).toContain('process_resident_memory_bytes');
      }
    });

    it('times requests by the matched route pattern, never the raw URL', async () => {
      const labels = {
        method: 'GET',
        route: '/api/accessCodes/login/:code/:sp_id',
        status: '404',
      };
      const before = sample(await scrape(), 'frontdoor_http_request_duration_seconds_count', labels);
      const res = await t.app.inject({ url: '/api/accessCodes/login/918273/mathworld', headers: csrf });
      expect(res.statusCode).toBe(404);
      const text = await scrape();
      expect(sample(text, 'frontdoor_http_request_duration_seconds_count', labels)).toBe(before + 1);
      expect(text).not.toContain('918273');
      const unmatched = { method: 'GET', route: '(unmatched)', status: '404' };
      const none = sample(text, 'frontdoor_http_request_duration_seconds_count', unmatched);
      await t.app.inject({ url: '/api/no/such/route/x1y2z3' });
      const after = await scrape();
      expect(sample(after, 'frontdoor_http_request_duration_seconds_count', unmatched)).toBe(none + 1);
      expect(after).not.toContain('x1y2z3');
    });

    it('counts sign-ins by method and outcome, where they are audited', async () => {
      const count = (text: string, method: string, outcome: string) =>
        sample(text, 'frontdoor_sign_ins_total', { method, outcome });
      const student = await seedUser(t, { email: 'counted@school.test' });
      const { code } = await createAccessCode(t.ctx, { spId: 'mathworld', userId: student.id });
      const before = await scrape();
      const login = (password: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/cognito/login',
          headers: csrf,
          payload: { email: 'counted@school.test', password },
        });
      expect((await login(TEST_PASSWORD)).statusCode).toBe(200);
      expect((await login('Wrong-Horse-9-Battery')).statusCode).toBe(401);
      expect((await login('Wrong-Horse-9-Battery')).statusCode).toBe(401);
      expect(
        (await t.app.inject({ url: `/api/accessCodes/login/${code}/mathworld`, headers: csrf })).statusCode,
      ).toBe(200);
      const after = await scrape();
      expect(count(after, 'password', 'success')).toBe(count(before, 'password', 'success') + 1);
      expect(count(after, 'password', 'failure')).toBe(count(before, 'password', 'failure') + 2);
      expect(count(after, 'access-code', 'success')).toBe(count(before, 'access-code', 'success') + 1);
      expect(after).not.toContain('counted@school.test');
    });

    it('shows the argon2 queue running and waiting, and counts what it refused', async () => {
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const running = t.ctx.limits.hashing.run(() => held);
      const waiting = t.ctx.limits.hashing.run(async () => {});
      const before = await scrape();
      expect(sample(before, 'frontdoor_password_hash_running')).toBe(1);
      expect(sample(before, 'frontdoor_password_hash_waiting')).toBe(1);
      await seedUser(t, { email: 'queued@school.test' });
      const busy = await t.app.inject({
        method: 'POST',
        url: '/api/cognito/login',
        headers: csrf,
        payload: { email: 'queued@school.test', password: TEST_PASSWORD },
      });
      expect(busy.statusCode).toBe(503);
      expect(busy.json()).toMatchObject({ code: 'serverBusy', msg: messages.serverBusy });
      release();
      await Promise.all([running, waiting]);
      const after = await scrape();
      expect(sample(after, 'frontdoor_password_hash_refused_total')).toBe(
        sample(before, 'frontdoor_password_hash_refused_total') + 1,
      );
      expect(sample(after, 'frontdoor_limit_refusals_total', { code: 'serverBusy' })).toBe(
        sample(before, 'frontdoor_limit_refusals_total', { code: 'serverBusy' }) + 1,
      );
      expect(sample(after, 'frontdoor_password_hash_running')).toBe(0);
    });

    it('reads the outbox at scrape time: pending, retrying, failed for good, the oldest pending age', async () => {
      const now = t.clock.now();
      const row = { user_id: null, payload: '{}', claimed_by: null, claimed_until: null, delivered_at: null };
      await t.db
        .insertInto('outbox')
        .values([
          {
            ...row,
            kind: 'mail',
            attempts: 0,
            next_attempt_at: now,
            created_at: now - 90_000,
            last_error: null,
            failed_at: null,
          },
          {
            ...row,
            kind: 'mail',
            attempts: 3,
            next_attempt_at: now + 60_000,
            created_at: now - 30_000,
            last_error: 'ECONNREFUSED',
            failed_at: null,
          },
          {
            ...row,
            kind: 'mail',
            attempts: 10,
            next_attempt_at: null,
            created_at: now - 5_000_000,
            last_error: 'ECONNREFUSED',
            failed_at: now,
          },
          {
            ...row,
            kind: 'crm',
            attempts: 1,
            next_attempt_at: null,
            created_at: now - 10_000,
            last_error: null,
            failed_at: null,
            payload: null,
            delivered_at: now,
          },
        ])
        .execute();
      const text = await scrape();
      expect(sample(text, 'frontdoor_outbox_pending', { kind: 'mail' })).toBe(2);
      expect(sample(text, 'frontdoor_outbox_retrying', { kind: 'mail' })).toBe(1);
      expect(sample(text, 'frontdoor_outbox_failed', { kind: 'mail' })).toBe(1);
      expect(sample(text, 'frontdoor_outbox_oldest_pending_seconds', { kind: 'mail' })).toBe(90);
      expect(sample(text, 'frontdoor_outbox_pending', { kind: 'crm' })).toBe(0);
      await t.db.deleteFrom('outbox').execute();
      expect(await scrape()).not.toMatch(/^frontdoor_outbox_pending\{/m);
    });

    it('still answers while the database is down: frontdoor_database_up 0, the outbox gauges absent, the rest there', async () => {
      const down = await createTestApp(dialect, { env: { METRICS: 'on', METRICS_TOKEN: TOKEN } });
      const scrapeDown = async () => {
        const res = await down.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
        expect(res.statusCode).toBe(200);
        return res.body;
      };
      const now = down.clock.now();
      await down.db
        .insertInto('outbox')
        .values({
          kind: 'mail',
          user_id: null,
          payload: '{}',
          attempts: 0,
          next_attempt_at: now,
          created_at: now,
          claimed_by: null,
          claimed_until: null,
          delivered_at: null,
          last_error: null,
          failed_at: null,
        })
        .execute();
      const up = await scrapeDown();
      expect(sample(up, 'frontdoor_database_up')).toBe(1);
      expect(sample(up, 'frontdoor_outbox_pending', { kind: 'mail' })).toBe(1);
      await down.db.destroy();
      const text = await scrapeDown();
      expect(text).toMatch(/^frontdoor_database_up 0$/m);
      expect(text).not.toMatch(/^frontdoor_outbox_pending\{/m);
      expect(text).toContain('process_resident_memory_bytes');
      expect(text).toMatch(/^frontdoor_http_request_duration_seconds_count\{/m);
      // the app, then its database (on PostgreSQL a database of its own, left behind by app.close alone)
      await down.close();
    });

    it('counts limit refusals by code: the flood guard', async () => {
      const before = sample(await scrape(), 'frontdoor_limit_refusals_total', { code: 'tooManyRequests' });
      const statuses: number[] = [];
      for (let i = 0; i < 45; i++)
        statuses.push(
          (await t.app.inject({ url: '/api/auth/sig', remoteAddress: '198.51.100.77' })).statusCode,
        );
      const refused = statuses.filter((s) => s === 429).length;
      expect(refused).toBeGreaterThan(0);
      expect(sample(await scrape(), 'frontdoor_limit_refusals_total', { code: 'tooManyRequests' })).toBe(
        before + refused,
      );
    });
  });
});

describe('a scrape while the database does not answer (packets dropped: a partition, a host switched off)', () => {
  it('says frontdoor_database_up 0 after SCRAPE_DATABASE_TIMEOUT_MS, well inside a scrape timeout, not after the pool gives up', async () => {
    // every connection is asked for and never given, as a pool waits on a server that drops packets
    const driver: Driver = {
      init: async () => undefined,
      acquireConnection: () => new Promise(() => undefined),
      beginTransaction: async () => undefined,
      commitTransaction: async () => undefined,
      rollbackTransaction: async () => undefined,
      releaseConnection: async () => undefined,
      destroy: async () => undefined,
    };
    const db = new Kysely<Database>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => driver,
        createIntrospector: (k) => new PostgresIntrospector(k),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
    });
    vi.useFakeTimers();
    try {
      const scraped = scrape({
        db,
        now: () => 0,
        logger: createLogger({ level: 'silent' }),
        limits: {
          hashing: { depth: { active: 0, waiting: 0 } },
          counters: { shared: () => false },
        } as unknown as Parameters<typeof scrape>[0]['limits'],
      });
      let done = false;
      void scraped.then(() => (done = true));
      await vi.advanceTimersByTimeAsync(SCRAPE_DATABASE_TIMEOUT_MS - 1);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(sample(await scraped, 'frontdoor_database_up')).toBe(0);
      expect(SCRAPE_DATABASE_TIMEOUT_MS).toBeLessThanOrEqual(2000);
    } finally {
      vi.useRealTimers();
    }
  });
});

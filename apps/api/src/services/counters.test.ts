import { randomUUID } from 'node:crypto';
import { createServer, Socket, type Server } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER } from '@frontdoor/contract';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { createLogger } from './logger.ts';
import { scrape } from './metrics.ts';
import {
  REDIS_COMMAND_TIMEOUT_MS,
  SHARED_RETRY_AFTER_MS,
  createCounters,
  memoryCounters,
  redisCounters,
  resilientCounters,
  type CounterStore,
} from './counters.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisProblem(): Promise<string | null> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0 });
  let refused = '';
  probe.on('error', (error: Error) => void (refused ||= error.message));
  try {
    await probe.connect();
    await probe.ping();
    return null;
  } catch (error) {
    return refused || (error instanceof Error ? error.message : String(error));
  } finally {
    probe.disconnect();
  }
}
const problem = await redisProblem();
if (problem)
  console.info(
    `[api tests] Redis at ${REDIS_URL} not reachable, the shared-limit tests are skipped: ${problem}`,
  );

const opened: { close: () => Promise<void> }[] = [];
afterAll(async () => {
  for (const o of opened.reverse()) await o.close();
});

const stores: [string, () => CounterStore, boolean][] = [
  ['memory', memoryCounters, false],
  [
    'redis',
    () => {
      const redis = new Redis(REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 1 });
      const store = redisCounters(redis, `test-${randomUUID()}:`);
      opened.push(store);
      return store;
    },
    problem !== null,
  ],
];

describe.each(stores)('%s counters', (_name, make, skip) => {
  it.skipIf(skip)('count within a window by the caller’s clock, slide when asked, clear', async () => {
    const store = make();
    expect(await store.hit('a', 1000, 100)).toEqual({ count: 1, expiresAt: 1100 });
    expect(await store.hit('a', 1050, 100)).toEqual({ count: 2, expiresAt: 1100 });
    expect(await store.peek('a', 1099)).toEqual({ count: 2, expiresAt: 1100 });
    expect(await store.peek('a', 1100)).toEqual({ count: 0, expiresAt: 0 });
    expect(await store.hit('a', 1100, 100)).toEqual({ count: 1, expiresAt: 1200 });
    expect(await store.hit('s', 0, 100, true)).toEqual({ count: 1, expiresAt: 100 });
    expect(await store.hit('s', 90, 100, true)).toEqual({ count: 2, expiresAt: 190 });
    await store.clear('s');
    expect((await store.peek('s', 100)).count).toBe(0);
  });

  it.skipIf(skip)('undo takes back from a live count only, never below 0, its expiry unchanged', async () => {
    const store = make();
    for (const now of [0, 10, 20]) await store.hit('u', now, 100);
    await store.undo('u', 30, 2);
    expect(await store.peek('u', 30)).toEqual({ count: 1, expiresAt: 100 });
    await store.undo('u', 40, 5);
    expect(await store.peek('u', 40)).toEqual({ count: 0, expiresAt: 100 });
    // an expired count is not revived, and a new window starts from 1
    await store.undo('u', 100, 1);
    expect(await store.hit('u', 100, 100)).toEqual({ count: 1, expiresAt: 200 });
  });
});

describe('counters under a flood of distinct keys', () => {
  it('memory never holds more than its cap: past it the oldest keys are forgotten, nothing throws', async () => {
    const store = memoryCounters(1_000);
    // every key live for the whole run: sweeping expired ones frees nothing
    for (let i = 0; i < 5_000; i++) await store.hit(`flood:${i}`, 0, 60_000);
    expect((await store.peek('flood:0', 1)).count).toBe(0);
    expect((await store.peek('flood:4999', 1)).count).toBe(1);
    let kept = 0;
    for (let i = 0; i < 5_000; i++) kept += (await store.peek(`flood:${i}`, 1)).count;
    expect(kept).toBeLessThanOrEqual(1_000);
    expect(kept).toBeGreaterThanOrEqual(900);
  });

  it("the cap forgets the longest untouched keys, never a guesser's count that keeps being hit", async () => {
    const store = memoryCounters(1_000);
    await store.hit('address-failures:guesser', 0, 60_000);
    for (let i = 0; i < 3_000; i++) {
      await store.hit(`flood:${i}`, 0, 60_000);
      if (i % 100 === 0) await store.hit('address-failures:guesser', 0, 60_000);
    }
    expect((await store.peek('address-failures:guesser', 1)).count).toBe(31);
  });

  it.skipIf(problem !== null)('Redis keeps a count a minute past its window, not a day', async () => {
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    const prefix = `test-${randomUUID()}:`;
    const store = redisCounters(redis, prefix);
    try {
      await store.hit('brief', Date.now(), 60_000);
      const left = await redis.pttl(`${prefix}brief`);
      expect(left).toBeGreaterThan(60_000);
      expect(left).toBeLessThanOrEqual(120_000);
    } finally {
      await store.close();
    }
  });
});

/**
 * A TCP relay in front of the CI Redis, so a test can take "Redis" away mid-run without touching
 * the server other suites use.
 */
async function redisRelay(): Promise<{
  url: string;
  cut: () => Promise<void>;
  hang: () => void;
  server: Server;
}> {
  const target = new URL(REDIS_URL);
  const sockets = new Set<Socket>();
  // hung: the connections stay open and no command reaches Redis, as across a partition
  let hung = false;
  const server = createServer((client) => {
    const upstream = new Socket();
    upstream.connect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => s.destroy());
      s.on('close', () => sockets.delete(s));
    }
    client.on('data', (chunk) => {
      if (!hung) upstream.write(chunk);
    });
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `redis://127.0.0.1:${port}`,
    server,
    hang: () => {
      hung = true;
    },
    cut: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}

const csrf = { cookie: `${CSRF_COOKIE}=t`, [CSRF_HEADER]: 't' };
/** A wrong password for an unknown account: one failure of the address. */
const failFrom = (t: TestApp, address: string) =>
  t.app
    .inject({
      method: 'POST',
      url: '/api/cognito/login',
      headers: csrf,
      payload: { email: `nobody-${randomUUID()}@school.test`, password: 'Wrong-Passw0rd!' },
      remoteAddress: address,
    })
    .then((res) => res.statusCode);

describe('limits shared by several instances', () => {
  const pair = async (env: Record<string, string>) => {
    const limits = { RATE_LIMIT_MULTIPLIER: '1', LIMIT_ADDRESS_FAILURES_PER_HOUR: '4', ...env };
    const a = await createTestApp('sqlite', { env: limits });
    const b = await createTestApp('sqlite', { env: limits });
    opened.push(a, b);
    return { a, b };
  };

  /** What /metrics says of where the limits are counted: 1 in Redis, 0 in this instance's memory. */
  const sharedGauge = async (t: TestApp) =>
    /^frontdoor_limit_counters_shared (\d)$/m.exec(await scrape(t.ctx))?.[1];

  it('without REDIS_URL each instance counts its own failures, as /metrics says', async () => {
    const { a, b } = await pair({});
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push(await failFrom(i % 2 ? b : a, '10.1.0.1'));
    expect(statuses).toEqual(Array(6).fill(401));
    expect(await sharedGauge(a)).toBe('0');
  });

  it.skipIf(problem !== null)(
    'with REDIS_URL they share one count; when Redis goes away each falls back to its own memory, never to no limit, and /metrics says so',
    async () => {
      const relay = await redisRelay();
      opened.push({ close: () => relay.cut() });
      const { a, b } = await pair({ REDIS_URL: relay.url, REDIS_PREFIX: `test-${randomUUID()}:` });
      const shared: number[] = [];
      for (let i = 0; i < 5; i++) shared.push(await failFrom(i % 2 ? b : a, '10.1.0.2'));
      expect(shared).toEqual([401, 401, 401, 401, 429]);
      expect(await sharedGauge(a)).toBe('1');

      await relay.cut();
      const degraded: number[] = [];
      for (let i = 0; i < 5; i++) degraded.push(await failFrom(a, '10.1.0.3'));
      expect(degraded).toEqual([401, 401, 401, 401, 429]);
      // b never saw these failures: per instance while degraded
      expect(await failFrom(b, '10.1.0.3')).toBe(401);
      expect(await sharedGauge(a)).toBe('0');
    },
  );
});

describe('a Redis that stops answering but keeps its connection open', () => {
  it.skipIf(problem !== null)(
    `no request waits on it: a command gives up after ${REDIS_COMMAND_TIMEOUT_MS} ms and counting goes on in memory, still limiting`,
    async () => {
      const relay = await redisRelay();
      opened.push({ close: () => relay.cut() });
      const lines: string[] = [];
      const logger = createLogger({ level: 'info', destination: { write: (line) => void lines.push(line) } });
      const t = await createTestApp('sqlite', {
        env: {
          RATE_LIMIT_MULTIPLIER: '1',
          LIMIT_ADDRESS_FAILURES_PER_HOUR: '4',
          REDIS_URL: relay.url,
          REDIS_PREFIX: `test-${randomUUID()}:`,
        },
        logger,
      });
      opened.push(t);
      expect(await failFrom(t, '10.1.0.4')).toBe(401);
      expect(t.ctx.limits.counters.shared()).toBe(true);

      // without a command timeout these requests never end (the test times out)
      relay.hang();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push(await failFrom(t, '10.1.0.4'));
      // the failure before the hang is Redis's: this instance starts again from 1, and still limits
      expect(statuses).toEqual([401, 401, 401, 401]);
      expect(await failFrom(t, '10.1.0.4')).toBe(429);
      expect(t.ctx.limits.counters.shared()).toBe(false);
      expect(lines.filter((line) => line.includes('shared counters unreachable'))).toEqual([
        expect.stringContaining(`Command timed out`),
      ]);
    },
  );
});

describe('resilient counters', () => {
  it('after a failure of the shared store count in memory, and ask it again only after SHARED_RETRY_AFTER_MS', async () => {
    let asked = 0;
    let answering = false;
    const shared: CounterStore = {
      ...memoryCounters(),
      shared: () => true,
      hit: async (...args) => {
        asked++;
        if (!answering) throw new Error('Command timed out');
        return memoryCounters().hit(...args);
      },
    };
    const counters = resilientCounters(shared, memoryCounters(), createLogger({ level: 'silent' }));
    expect(await counters.hit('k', 0, 60_000)).toEqual({ count: 1, expiresAt: 60_000 });
    expect(await counters.hit('k', SHARED_RETRY_AFTER_MS - 1, 60_000)).toMatchObject({ count: 2 });
    expect(asked).toBe(1);
    expect(counters.shared()).toBe(false);
    // the retry: still failing, then answering again
    expect(await counters.hit('k', SHARED_RETRY_AFTER_MS, 60_000)).toMatchObject({ count: 3 });
    expect(asked).toBe(2);
    answering = true;
    expect(await counters.hit('k', SHARED_RETRY_AFTER_MS + 1, 60_000)).toMatchObject({ count: 4 });
    expect(asked).toBe(2);
    await counters.hit('k', 2 * SHARED_RETRY_AFTER_MS, 60_000);
    expect(asked).toBe(3);
    expect(counters.shared()).toBe(true);
  });

  it('while degraded, one call at a time asks the shared store again, and a clear does not wait for it', async () => {
    let asked = 0;
    const hung: Promise<never> = new Promise(() => undefined);
    const shared: CounterStore = {
      ...memoryCounters(),
      shared: () => true,
      hit: async () => {
        asked++;
        if (asked === 1) throw new Error('Command timed out');
        return hung;
      },
      clear: () => hung,
    };
    const counters = resilientCounters(shared, memoryCounters(), createLogger({ level: 'silent' }));
    await counters.hit('k', 0, 60_000);
    // past the retry time: the first call asks (and hangs); those beside it count in memory
    void counters.hit('k', SHARED_RETRY_AFTER_MS, 60_000);
    expect(await counters.hit('k', SHARED_RETRY_AFTER_MS + 1, 60_000)).toMatchObject({ count: 2 });
    expect(asked).toBe(2);
    // a success's clear ends at once, the shared one sent on
    await counters.clear('k');
    expect((await counters.peek('k', SHARED_RETRY_AFTER_MS + 2)).count).toBe(0);
  });
  /**
   * A Redis that can stall: a command is written, times out here, and runs when Redis answers again
   * (`answer`), as a stalled Redis runs what was written to it.
   */
  function stallingRedis() {
    const redis = memoryCounters();
    const state = { stalled: false };
    const late: (() => Promise<unknown>)[] = [];
    const shared: CounterStore = {
      ...redis,
      shared: () => true,
      hit: async (...args) => {
        if (!state.stalled) return redis.hit(...args);
        late.push(() => redis.hit(...args));
        throw new Error('Command timed out');
      },
      undo: async (...args) => {
        if (!state.stalled) return redis.undo(...args);
        late.push(() => redis.undo(...args));
        throw new Error('Command timed out');
      },
    };
    const counters = resilientCounters(shared, memoryCounters(), createLogger({ level: 'silent' }));
    const answer = async () => {
      state.stalled = false;
      for (const run of late) await run();
    };
    return { redis, state, counters, answer };
  }

  it("a success's undo during a stall reaches the shared store too: a hit that timed out but landed there later is taken back", async () => {
    const { redis, state, counters, answer } = stallingRedis();
    state.stalled = true;
    // a pupil's right password during the stall: the guess is reserved, then released
    await counters.hit('address-failures:school', 0, 60_000);
    await counters.undo('address-failures:school', 1, 1);
    await answer();
    expect((await redis.peek('address-failures:school', 2)).count).toBe(0);
  });

  it('an undo of a hit counted only in memory during a stall never lowers the shared count', async () => {
    const { redis, state, counters, answer } = stallingRedis();
    // an attacker's 100 failures before the stall, in the shared store
    for (let i = 0; i < 100; i++) await counters.hit('address-failures:x', i, 3_600_000);
    state.stalled = true;
    // 100 guesses at accounts in their delay, each reserved then released, within the retry time:
    // only the first hit reached Redis, so only its undo may
    for (let now = 1000; now < 1100; now++) {
      await counters.hit('address-failures:x', now, 3_600_000);
      await counters.undo('address-failures:x', now, 1);
    }
    expect(1100 - 1000).toBeLessThan(SHARED_RETRY_AFTER_MS);
    await answer();
    expect((await redis.peek('address-failures:x', 2000)).count).toBe(100);
  });
});

describe('where the counts are kept, as the start line says', () => {
  const silent = createLogger({ level: 'silent' });
  it('in memory without REDIS_URL', async () => {
    expect((await createCounters({ redisUrl: undefined, redisPrefix: 'fd:' }, silent)).shared()).toBe(false);
  });

  it('in memory, not shared, while the REDIS_URL set does not answer', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const address = closed.address();
    await new Promise((resolve) => closed.close(resolve));
    const port = typeof address === 'object' && address ? address.port : 0;
    const counters = await createCounters(
      { redisUrl: `redis://127.0.0.1:${port}`, redisPrefix: 'fd:' },
      silent,
    );
    expect(counters.shared()).toBe(false);
    await counters.close();
  });

  it('a Redis that accepts and resets each connection is one warn line, not one per reconnect', async () => {
    const resetting = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => resetting.listen(0, '127.0.0.1', resolve));
    const address = resetting.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line) => void lines.push(line) } });
    const counters = await createCounters(
      { redisUrl: `redis://127.0.0.1:${port}`, redisPrefix: 'fd:' },
      logger,
    );
    const errors = () => lines.filter((line) => line.includes('"redis unreachable"')).length;
    // ioredis reconnects every few hundred ms here: wait until it has failed several times
    let resets = 0;
    resetting.on('connection', () => resets++);
    while (resets < 5) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(errors()).toBe(1);
    await counters.close();
    await new Promise((resolve) => resetting.close(resolve));
  });

  it.skipIf(problem !== null)('shared once Redis answers', async () => {
    const counters = await createCounters({ redisUrl: REDIS_URL, redisPrefix: 'fd-test:' }, silent);
    expect(counters.shared()).toBe(true);
    await counters.close();
  });
});

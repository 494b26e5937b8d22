import { once } from 'node:events';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * Counters with an expiry, the state of the abuse limits that is not kept in the database (per
 * address, per address and account, per client id). Expiry is computed from the caller's clock
 * (`ctx.now`), never the store's, so tests move time with a fake clock on every store alike.
 */
export interface CounterStore {
  /**
   * Adds 1 and returns the new count. A count that has expired starts again at 1 and lives
   * `ttlMs`; with `slide` every hit moves the expiry to now + ttlMs (a "consecutive" counter).
   */
  hit(
    key: string,
    now: number,
    ttlMs: number,
    slide?: boolean,
  ): Promise<{ count: number; expiresAt: number }>;
  /** The live count (0 when absent or expired) and when it expires. */
  peek(key: string, now: number): Promise<{ count: number; expiresAt: number }>;
  /**
   * Takes `by` back from a live count (never below 0), its expiry unchanged: a guess counted before
   * it was evaluated that turned out not to be a failure.
   */
  undo(key: string, now: number, by: number): Promise<void>;
  clear(key: string): Promise<void>;
  close(): Promise<void>;
  /** Whether the counts are shared by every instance right now (Redis reachable). */
  shared(): boolean;
}

const NONE = { count: 0, expiresAt: 0 };
/** Memory stays bounded under a flood of distinct keys: expired entries are swept past this size. */
const MEMORY_SWEEP_AT = 100_000;
/**
 * And never holds more than this (about 150 MB): a flood of live keys (addresses, accounts) past it
 * forgets the oldest tenth, where a Map would otherwise throw at 2^24 entries and take the process.
 */
const MEMORY_MAX_ENTRIES = 500_000;

export function memoryCounters(maxEntries = MEMORY_MAX_ENTRIES): CounterStore {
  const entries = new Map<string, { count: number; expiresAt: number }>();
  // the next sweep waits until the map has doubled past what a sweep left live, so a flood of live
  // keys costs one pass per doubling, not one per request
  let sweepAt = Math.min(MEMORY_SWEEP_AT, maxEntries);
  const sweep = (now: number) => {
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
    if (entries.size >= maxEntries) {
      // a Map iterates in insertion order, and a hit moves its key to the end: the first are the longest untouched
      let forget = Math.ceil(maxEntries / 10);
      for (const key of entries.keys()) {
        if (forget-- <= 0) break;
        entries.delete(key);
      }
    }
    sweepAt = Math.min(maxEntries, Math.max(MEMORY_SWEEP_AT, entries.size * 2));
  };
  return {
    shared: () => false,
    async hit(key, now, ttlMs, slide = false) {
      const live = entries.get(key);
      const entry =
        live && live.expiresAt > now
          ? { count: live.count + 1, expiresAt: slide ? now + ttlMs : live.expiresAt }
          : { count: 1, expiresAt: now + ttlMs };
      if (!live && entries.size >= sweepAt) sweep(now);
      // to the end of the Map's order, so the cap forgets the longest untouched first
      entries.delete(key);
      entries.set(key, entry);
      return entry;
    },
    async peek(key, now) {
      const live = entries.get(key);
      return live && live.expiresAt > now ? { ...live } : NONE;
    },
    async undo(key, now, by) {
      const live = entries.get(key);
      if (live && live.expiresAt > now) live.count = Math.max(0, live.count - by);
    },
    async clear(key) {
      entries.delete(key);
    },
    async close() {
      entries.clear();
    },
  };
}

// KEYS[1]; ARGV: now, ttlMs, slide (1/0). A hash {c: count, e: expiresAt}; Redis's own TTL only
// garbage-collects, a minute past the logical expiry (room for clocks that differ, never a day of keys).
const HIT = `
local e = tonumber(redis.call('HGET', KEYS[1], 'e') or '0')
local now = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
local c = 1
if e > now then
  c = tonumber(redis.call('HGET', KEYS[1], 'c')) + 1
  if ARGV[3] == '1' then e = now + ttl end
else
  e = now + ttl
end
redis.call('HSET', KEYS[1], 'c', c, 'e', e)
redis.call('PEXPIRE', KEYS[1], ttl + 60000)
return {c, e}
`;

// KEYS[1]; ARGV: now, by. Only a live count goes down, never below 0; its expiry stays.
const UNDO = `
local e = tonumber(redis.call('HGET', KEYS[1], 'e') or '0')
if e > tonumber(ARGV[1]) then
  local c = tonumber(redis.call('HGET', KEYS[1], 'c')) - tonumber(ARGV[2])
  redis.call('HSET', KEYS[1], 'c', math.max(0, c))
end
return 0
`;

export function redisCounters(redis: Redis, prefix: string): CounterStore {
  return {
    shared: () => redis.status === 'ready',
    async hit(key, now, ttlMs, slide = false) {
      const [count, expiresAt] = (await redis.eval(HIT, 1, prefix + key, now, ttlMs, slide ? 1 : 0)) as [
        number,
        number,
      ];
      return { count, expiresAt };
    },
    async peek(key, now) {
      const [count, expiresAt] = await redis.hmget(prefix + key, 'c', 'e');
      const e = Number(expiresAt ?? 0);
      return e > now ? { count: Number(count ?? 0), expiresAt: e } : NONE;
    },
    async undo(key, now, by) {
      await redis.eval(UNDO, 1, prefix + key, now, by);
    },
    async clear(key) {
      await redis.del(prefix + key);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/**
 * How long counting stays in memory after the shared store failed (refused, or did not answer within
 * REDIS_COMMAND_TIMEOUT_MS) before one call tries it again: a Redis that hangs costs the requests of
 * that moment the timeout once, not every request its wait.
 */
export const SHARED_RETRY_AFTER_MS = 5000;

/**
 * Shared counters that degrade instead of failing open: while the shared store is unreachable,
 * each instance counts in its own memory (limits per instance, logged once), never "no limits".
 * Times are the callers' (`now`, ctx.now), as the counts' own.
 */
export function resilientCounters(shared: CounterStore, local: CounterStore, logger: Logger): CounterStore {
  let degraded = false;
  let retryAt = 0;
  // per key, the shared hits that failed: one that timed out was written all the same and lands when
  // Redis answers again, so while degraded only these may be taken back there (see undo)
  const pending = new Map<string, number>();
  const attempt = async <T>(
    now: number,
    call: (store: CounterStore) => Promise<T>,
    hitKey?: string,
  ): Promise<T> => {
    if (degraded && now < retryAt) return call(local);
    // while degraded one call asks again; the others meanwhile count in memory, not wait with it
    if (degraded) retryAt = now + SHARED_RETRY_AFTER_MS;
    try {
      const result = await call(shared);
      if (degraded) logger.info('shared counters reachable again: limits shared by every instance');
      degraded = false;
      pending.clear();
      return result;
    } catch (err) {
      if (!degraded)
        logger.error(
          { err },
          'shared counters unreachable: limits are counted per instance until they are back',
        );
      degraded = true;
      retryAt = now + SHARED_RETRY_AFTER_MS;
      if (hitKey !== undefined) pending.set(hitKey, (pending.get(hitKey) ?? 0) + 1);
      return call(local);
    }
  };
  return {
    shared: () => !degraded && shared.shared(),
    hit: (key, now, ttlMs, slide) => attempt(now, (s) => s.hit(key, now, ttlMs, slide), key),
    peek: (key, now) => attempt(now, (s) => s.peek(key, now)),
    // while degraded an undo goes to memory, and on to the shared store (not waited for) only against
    // a shared hit of its key that failed: that hit was written all the same and lands when Redis
    // answers again, this undo after it on the same connection (else a school's sign-in in flight at a
    // stall leaves a failure there). The stall's other hits were counted in memory only: their undos
    // sent to Redis would take back failures counted before it, an attacker's hourly count among them.
    undo: async (key, now, by) => {
      if (degraded) {
        const failed = pending.get(key) ?? 0;
        const forward = Math.min(by, failed);
        if (forward > 0) {
          if (failed > forward) pending.set(key, failed - forward);
          else pending.delete(key);
          void shared.undo(key, now, forward).catch(() => undefined);
        }
        return local.undo(key, now, by);
      }
      return attempt(now, (s) => s.undo(key, now, by));
    },
    // a clear must reach both, or a success would leave the other's count standing; while degraded
    // the shared one is sent on without waiting for it (a Redis that hangs would hold the success)
    clear: async (key) => {
      pending.delete(key);
      const sharedClear = shared.clear(key).catch(() => undefined);
      await Promise.all([degraded ? undefined : sharedClear, local.clear(key)]);
    },
    close: async () => {
      await Promise.all([shared.close(), local.close()]);
    },
  };
}

const READY_WAIT_MS = 3000;

/**
 * The longest a command may take: a Redis that keeps its connection open and stops answering (a
 * partition, a host gone without closing, a long blocking command) would otherwise hold every API
 * call, each counted by the flood guard, for as long as the kernel keeps the connection.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

/** The connection to the Redis every instance shares; commands fail at once while it is down. */
async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: READY_WAIT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    // TCP keep-alive probes: a peer gone without closing ends the connection, and ioredis reconnects
    keepAlive: 10_000,
  });
  // one line per outage, not one per reconnect attempt: a peer that accepts and resets alternates
  // two errors (the socket's, the ready check's) about twice a second
  let down = false;
  redis.on('error', (err: Error) => {
    if (down) return;
    down = true;
    logger.warn({ err }, 'redis unreachable');
  });
  redis.on('ready', () => {
    if (down) logger.info('redis reachable again');
    down = false;
  });
  await once(redis, 'ready', { signal: AbortSignal.timeout(READY_WAIT_MS) }).catch(() => undefined);
  return redis;
}

/** REDIS_URL set: shared counters with a memory fallback; unset: this process's memory. */
export async function createCounters(
  config: { redisUrl: string | undefined; redisPrefix: string },
  logger: Logger,
): Promise<CounterStore> {
  if (!config.redisUrl) return memoryCounters();
  const redis = await connectRedis(config.redisUrl, logger);
  return resilientCounters(redisCounters(redis, `${config.redisPrefix}limits:`), memoryCounters(), logger);
}

import { once } from 'node:events';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

const READY_WAIT_MS = 3000;

/**
 * The connection to the Redis that holds what every instance must share (the rate-limit counters).
 * Commands fail at once while Redis is down instead of queueing, so an outage costs the limits
 * (the rate limiter skips on error), never a sign-in; the client keeps reconnecting meanwhile.
 */
export async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: READY_WAIT_MS,
  });
  let lastProblem = '';
  redis.on('error', (err: Error) => {
    // one line per kind of failure, not one per reconnect attempt
    if (err.message === lastProblem) return;
    lastProblem = err.message;
    logger.warn({ err }, 'redis unreachable: rate limits are not enforced until it is back');
  });
  redis.on('ready', () => {
    if (lastProblem) logger.info('redis reachable again: shared rate limits enforced');
    lastProblem = '';
  });
  const timer = AbortSignal.timeout(READY_WAIT_MS);
  await once(redis, 'ready', { signal: timer }).catch(() => undefined);
  return redis;
}

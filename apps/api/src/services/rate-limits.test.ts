import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER } from '@frontdoor/contract';
import { createTestApp, type TestApp } from '../testing/harness.ts';

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

const csrf = { cookie: `${CSRF_COOKIE}=t`, [CSRF_HEADER]: 't' };
/** One strict call (10 per minute per client at multiplier 1) from the given client address. */
const sendReset = (t: TestApp, remoteAddress: string) =>
  t.app
    .inject({
      method: 'POST',
      url: '/api/cognito/sendreset',
      headers: csrf,
      payload: { un: 'nobody@school.test' },
      remoteAddress,
    })
    .then((res) => res.statusCode);

/** Two instances of the portal, as behind a load balancer; the client's calls alternate between them. */
async function twoInstances(env: Record<string, string>) {
  const a = await createTestApp('sqlite', { env: { RATE_LIMIT_MULTIPLIER: '1', ...env } });
  const b = await createTestApp('sqlite', { env: { RATE_LIMIT_MULTIPLIER: '1', ...env } });
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) statuses.push(await sendReset(i % 2 ? b : a, '10.1.0.1'));
  return { a, b, statuses };
}

const opened: TestApp[] = [];
afterAll(async () => {
  await Promise.all(opened.map((t) => t.close()));
});

describe('rate limits across instances', () => {
  it('without REDIS_URL each instance counts its own calls', async () => {
    const { a, b, statuses } = await twoInstances({});
    opened.push(a, b);
    expect(statuses.every((s) => s === 200)).toBe(true);
  });

  it.skipIf(problem !== null)(
    'with REDIS_URL the instances share one count: the 11th call is refused',
    async () => {
      const { a, b, statuses } = await twoInstances({ REDIS_URL, REDIS_PREFIX: `test-${randomUUID()}:` });
      opened.push(a, b);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
      expect(statuses.slice(10)).toEqual([429, 429]);
      // another client has its own count
      expect(await sendReset(a, '10.1.0.2')).toBe(200);
    },
  );

  it('an unreachable Redis costs the limits, never the answer', async () => {
    const t = await createTestApp('sqlite', {
      env: { RATE_LIMIT_MULTIPLIER: '1', REDIS_URL: 'redis://127.0.0.1:1' },
    });
    opened.push(t);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push(await sendReset(t, '10.1.0.3'));
    expect(statuses).toEqual(Array(11).fill(200));
  });
});

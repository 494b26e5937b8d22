import { describe, expect, it } from 'vitest';
import { ApiError } from './http.ts';
import { OneAtATime } from './hash-queue.ts';

describe('OneAtATime', () => {
  it('runs the work of one key in arrival order, other keys beside it, and goes on after a failure', async () => {
    const gate = new OneAtATime(10);
    const events: string[] = [];
    const step =
      (name: string, fail = false) =>
      async () => {
        events.push(`${name} start`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        events.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      gate.run('a', step('a1', true)),
      gate.run('a', step('a2')),
      gate.run('b', step('b1')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(events.indexOf('a2 start')).toBeGreaterThan(events.indexOf('a1 end'));
    expect(events.indexOf('b1 start')).toBeLessThan(events.indexOf('a1 end'));
  });

  it('past maxWaiting waiters of one key answers 503 serverBusy with Retry-After', async () => {
    const gate = new OneAtATime(1);
    let release = () => {};
    const held = gate.run('a', () => new Promise<void>((resolve) => (release = resolve)));
    const queued = gate.run('a', async () => 'queued');
    const refused = await gate.run('a', async () => 'refused').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ statusCode: 503, code: 'serverBusy', retryAfterMs: 2000 });
    release();
    await held;
    expect(await queued).toBe('queued');
    // the key is free again
    expect(await gate.run('a', async () => 'again')).toBe('again');
  });
});

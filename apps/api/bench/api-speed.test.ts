import { describe, expect, it } from 'vitest';
import { apiSpeedTable, apiSpeedVerdicts, type ApiSpeed, type CallSpeed } from './api-speed.ts';

const figures = { requestsPerSecond: 100, p50Ms: 2, p99Ms: 10, errors: 0 };
const call = (name: string, ratio: number, gauge?: boolean): CallSpeed => ({
  call: name,
  ...(gauge ? { gauge } : {}),
  ...figures,
  requestsPerSecond: 100 * ratio,
  bare: figures,
  ratio,
});
const result = (calls: CallSpeed[]): ApiSpeed => ({
  connections: 50,
  durationSeconds: 10,
  node: 'v24',
  calls,
  startRssMb: 150,
  peakRssMb: 200,
});

describe("the API benchmark's verdicts", () => {
  it('judges each call with a goal on its ratio, p99 and errors, and the peak RSS', () => {
    const verdicts = apiSpeedVerdicts(
      result([call('GET auth/sig', 0.4), call('POST auth/validateEmail', 0.6)]),
    );
    expect(verdicts.map((v) => [v.goal, v.pass])).toEqual([
      ['GET auth/sig: ≥ 0.5× bare req/s', false],
      ['GET auth/sig: p99 < 25 ms', true],
      ['GET auth/sig: 0 errors', true],
      ['POST auth/validateEmail: ≥ 0.5× bare req/s', true],
      ['POST auth/validateEmail: p99 < 25 ms', true],
      ['POST auth/validateEmail: 0 errors', true],
      ['peak RSS < 250 MB', true],
    ]);
  });

  it('shows the gauge (the request path alone) in the table, marked, and judges nothing on it', () => {
    const speed = result([call('GET auth/sig (signed out)', 0.3, true)]);
    expect(apiSpeedVerdicts(speed).map((v) => v.goal)).toEqual(['peak RSS < 250 MB']);
    expect(apiSpeedTable(speed)).toContain('| GET auth/sig (signed out) (no goal) | 30 |');
  });
});

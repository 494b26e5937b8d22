import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  apiSpeedTable,
  apiSpeedVerdicts,
  cpuBudgetUs,
  cpuSecondsOfStat,
  signatureBudget,
  signatureMicroseconds,
  type ApiSpeed,
  type CallSpeed,
} from './api-speed.ts';

const figures = { requestsPerSecond: 100, p50Ms: 2, p99Ms: 10, errors: 0, cpuUsPerCall: 12.4 };
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
  signatureUs: 31.4,
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

  it("shows each side's CPU time per call beside its rate", () => {
    const table = apiSpeedTable(result([{ ...call('GET auth/sig', 0.5), cpuUsPerCall: 281.6 }]));
    expect(table).toContain('| GET auth/sig | 50 | 2 | 10 | 0 | 282 | 100 | 10 | 12 | 0.50× |');
  });

  it("reads a process's user and system CPU time from /proc/<pid>/stat, whatever its command name", () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
    const stat = '4242 (node main (1)) R 1 4242 4242 0 -1 4194304 9000 0 0 0 1234 56 0 0 20 0 11 0';
    expect(cpuSecondsOfStat(stat)).toBeCloseTo(12.9);
    expect(cpuSecondsOfStat(readFileSync('/proc/self/stat', 'utf8'))).toBeGreaterThan(0);
  });

  it('gives the CPU per call that a ratio of the bare rate leaves one core', () => {
    expect(cpuBudgetUs(80_000, 0.5)).toBeCloseTo(25);
    expect(cpuBudgetUs(20_000, 0.5)).toBeCloseTo(100);
  });

  it("sets auth/sig's signature beside what the ratio goal leaves it", () => {
    const signedIn = {
      ...call('GET auth/sig (signed in)', 0.05),
      bare: { ...figures, requestsPerSecond: 80_000 },
    };
    const text = signatureBudget(result([signedIn, call('GET auth/sig (signed out)', 0.2, true)]));
    expect(text).toContain('31 µs of CPU for the signature alone');
    expect(text).toContain("0.5× of its bare route's 80,000 req/s leaves 25 µs per call");
    expect(signatureBudget(result([call('POST auth/validateEmail', 0.2)]))).toBe('');
  });

  it("times the portal's own signer", async () => {
    const us = await signatureMicroseconds(200);
    expect(us).toBeGreaterThan(0);
    expect(us).toBeLessThan(100_000);
  });
});

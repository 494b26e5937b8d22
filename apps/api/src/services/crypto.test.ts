import { describe, expect, it } from 'vitest';
import { randomDigits } from './crypto.ts';

describe('randomDigits', () => {
  it('draws each of the ten digits evenly: a six-digit access code is one of 10^6 and an eight-digit mailed code one of 10^8, as the access-code budget and docs/SECURITY.md assume', () => {
    const digits = randomDigits(20_000);
    expect(digits).toMatch(/^\d{20000}$/);
    for (let d = 0; d <= 9; d++) {
      // 2,000 expected, standard deviation √(20,000 · 0.1 · 0.9) ≈ 42: the bounds lie 11 σ away, so a fair
      // source fails this less than once in 10^30 runs (it cannot flake); a digit never drawn fails it always
      const n = digits.split(String(d)).length - 1;
      expect(n, `digit ${d}`).toBeGreaterThan(1_500);
      expect(n, `digit ${d}`).toBeLessThan(2_500);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import {
  chainSteps,
  inlineStyleBytes,
  medianFigures,
  pageTable,
  languageBytes,
  pageVerdicts,
  type PageFigures,
} from './web-figures.ts';

type NetworkRecord = Parameters<typeof chainSteps>[0];

/** A finished request as Lighthouse records it: what chainSteps reads. */
function request(
  url: string,
  resourceType: string,
  [start, end]: [number, number],
  initiator?: NetworkRecord,
): NetworkRecord {
  return {
    url,
    resourceType,
    rendererStartTime: start,
    networkEndTime: end,
    finished: true,
    initiator: { type: !initiator ? 'other' : initiator.resourceType === 'Document' ? 'parser' : 'script' },
    initiatorRequest: initiator,
  } as unknown as NetworkRecord;
}

describe('chainSteps', () => {
  const page = request('/log-in', 'Document', [0, 20]);
  const script = request('/static/index.js', 'Script', [30, 100], page);

  it('counts the page, then one step per initiator', () => {
    const style = request('/static/index.css', 'Stylesheet', [30, 60], page);
    const records = [page, script, style];
    expect(chainSteps(page, records)).toBe(1);
    expect(chainSteps(style, records)).toBe(2);
    expect(chainSteps(script, records)).toBe(2);
  });

  it("counts the data fetch a script waited for before asking for a route's chunk", () => {
    const config = request('/assets/cfg/config.json', 'Fetch', [110, 150], script);
    const chunk = request('/static/LoginPage.js', 'Script', [160, 200], script);
    expect(chainSteps(chunk, [page, script, config, chunk])).toBe(4);
  });

  it('a fetch the page preloads beside the scripts adds no step', () => {
    const config = request('/assets/cfg/config.json', 'Fetch', [30, 50], page);
    const chunk = request('/static/LoginPage.js', 'Script', [110, 150], script);
    expect(chainSteps(chunk, [page, script, config, chunk])).toBe(3);
  });

  it('a fetch still under way when the script asked for the chunk is not waited for', () => {
    const config = request('/assets/cfg/config.json', 'Fetch', [110, 300], script);
    const chunk = request('/static/LoginPage.js', 'Script', [160, 200], script);
    expect(chainSteps(chunk, [page, script, config, chunk])).toBe(3);
  });
});

const figures = (over: Partial<PageFigures> = {}): PageFigures => ({
  performance: 100,
  accessibility: 100,
  lcp: 1300,
  cls: 0,
  tbt: 40,
  bytes: 86_000,
  requests: 3,
  initialJsCss: 85_000,
  chain: 2,
  ...over,
});

describe('inlineStyleBytes', () => {
  it("counts the page's inline stylesheets as the page carries them, not the linked ones", () => {
    const css = '.page{display:grid;gap:1rem}'.repeat(50);
    const sheet = (isInline: boolean) => ({ header: { isInline }, content: css }) as never;
    const one = brotliCompressSync(css, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }).length;
    expect(inlineStyleBytes([sheet(true), sheet(false), sheet(true)])).toBe(2 * one);
    expect(inlineStyleBytes([])).toBe(0);
  });
});

describe('medianFigures', () => {
  it('takes each figure’s median on its own, the middle two averaged for an even count', () => {
    const runs = [figures({ lcp: 1500, performance: 90 }), figures({ lcp: 1200 }), figures({ lcp: 1300 })];
    expect(medianFigures(runs)).toMatchObject({ lcp: 1300, performance: 100 });
    expect(medianFigures(runs.slice(0, 2))).toMatchObject({ lcp: 1350, performance: 95 });
    expect(medianFigures([])).toBeUndefined();
  });
});

describe('pageVerdicts and pageTable', () => {
  const reference = figures();

  it('passes a page that meets every goal', () => {
    const verdicts = pageVerdicts(
      '/log-in',
      figures({ lcp: 1430, cls: 0.0004, initialJsCss: 105_000 }),
      reference,
    );
    expect(verdicts).toHaveLength(6);
    expect(verdicts.every((line) => line.startsWith('- PASS: /log-in '))).toBe(true);
  });

  it('fails each goal the page misses, with the figure', () => {
    const verdicts = pageVerdicts(
      '/email',
      figures({ performance: 94, accessibility: 98, lcp: 1431, cls: 0.001, initialJsCss: 105_001, chain: 3 }),
      reference,
    );
    expect(verdicts).toEqual([
      '- FAIL: /email Performance ≥ 95 (94)',
      '- FAIL: /email Accessibility 100 (98)',
      '- FAIL: /email LCP ≤ 1.1× reference (1.43 s)',
      '- FAIL: /email CLS 0 (0.001)',
      '- FAIL: /email initial JS+CSS (as transferred) ≤ 105.0 kB (105.0 kB)',
      '- FAIL: /email request chain before first paint ≤ 2 steps (3 steps)',
    ]);
  });

  it('fails every goal of a page with no successful run, and the LCP goal without a reference', () => {
    expect(pageVerdicts('/log-in', undefined, reference).every((line) => line.startsWith('- FAIL'))).toBe(
      true,
    );
    expect(pageVerdicts('/log-in', figures(), undefined)).toContain(
      '- FAIL: /log-in LCP ≤ 1.1× reference (1.30 s)',
    );
  });

  it('shows each figure beside the reference with its ratio', () => {
    const table = pageTable(figures({ bytes: 172_000, lcp: 2600 }), reference);
    expect(table).toContain('| bytes transferred | 86.0 kB | 172.0 kB | 2.00× | — |  |');
    expect(table).toContain('| LCP | 1.30 s | 2.60 s | 2.00× | ≤ 1.1× reference | FAIL |');
    expect(pageTable(figures({ tbt: 120.4 }), reference)).toContain(
      '| total blocking time | 40 ms | 120 ms | 3.01× | — |  |',
    );
    expect(table).toContain('| CLS | 0.000 | 0.000 | — | 0 | PASS |');
  });
});

describe('languageBytes', () => {
  it("judges each language's initial JS+CSS against the same goal, a failed run as FAIL", () => {
    const { table, verdicts } = languageBytes('/log-in', [
      { language: 'fr', figures: figures({ initialJsCss: 105_000 }) },
      { language: 'de', figures: figures({ initialJsCss: 105_030 }) },
      { language: 'ar', figures: undefined },
    ]);
    expect(table).toContain('| fr | 105.0 kB | ≤ 105.0 kB | PASS |');
    expect(table).toContain('| de | 105.0 kB | ≤ 105.0 kB | FAIL |');
    expect(verdicts).toEqual([
      '- PASS: /log-in?locale=fr initial JS+CSS (as transferred) ≤ 105.0 kB (105.0 kB)',
      '- FAIL: /log-in?locale=de initial JS+CSS (as transferred) ≤ 105.0 kB (105.0 kB)',
      '- FAIL: /log-in?locale=ar initial JS+CSS (as transferred) ≤ 105.0 kB (no run succeeded)',
    ]);
  });
});

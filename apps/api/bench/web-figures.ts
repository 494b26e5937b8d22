/**
 * The figures of web-speed.ts: what one Lighthouse run measured, the median of several, and each
 * figure against the reference page and issue 10's goals.
 */
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { NetworkRecords, type Artifacts, type Result } from 'lighthouse';

/** The goals of issue 10 for each sign-in page. */
export const WEB_GOALS = {
  performance: 95,
  accessibility: 100,
  lcpRatio: 1.1,
  initialJsCssBytes: 105_000,
  chainSteps: 2,
};

/** What one Lighthouse run measured. Times in ms, sizes in bytes as transferred (compressed if served so). */
export interface PageFigures {
  performance: number;
  accessibility: number;
  lcp: number;
  cls: number;
  /** Total blocking time (ms, simulated): what a page's Performance score loses most of on a slow machine. */
  tbt: number;
  bytes: number;
  requests: number;
  initialJsCss: number;
  chain: number;
}

type NetworkRecord = Artifacts.NetworkRequest;

const audit = (lhr: Result, id: string) => {
  const found = lhr.audits[id];
  if (!found) throw new Error(`Lighthouse result has no "${id}" audit`);
  return found;
};
const numeric = (lhr: Result, id: string): number => {
  const value = audit(lhr, id).numericValue;
  if (value === undefined)
    throw new Error(`"${id}" has no value: ${audit(lhr, id).errorMessage ?? 'no reason given'}`);
  return value;
};
const score = (lhr: Result, category: string): number => {
  const value = lhr.categories[category]?.score;
  if (value === null || value === undefined) throw new Error(`no ${category} score`);
  return Math.round(value * 100);
};

/**
 * How many requests, one after the other, the browser waited for before `record` could come back:
 * the page is 1; a request found by the parser or a script is one more than its initiator (as
 * Lighthouse links them). A request a script made only after a fetch of data had come back (the
 * portal's config.json) also counts as waiting for that fetch, which no initiator shows.
 */
export function chainSteps(
  record: NetworkRecord,
  records: NetworkRecord[],
  memo = new Map<NetworkRecord, number>(),
): number {
  const known = memo.get(record);
  if (known !== undefined) return known;
  const waitedFor = [record.initiatorRequest];
  if (record.initiator.type === 'script')
    waitedFor.push(
      ...records.filter(
        (other) =>
          (other.resourceType === 'Fetch' || other.resourceType === 'XHR') &&
          other.finished &&
          other.rendererStartTime < record.rendererStartTime &&
          other.networkEndTime <= record.rendererStartTime,
      ),
    );
  const steps =
    1 + Math.max(0, ...waitedFor.flatMap((other) => (other ? [chainSteps(other, records, memo)] : [])));
  memo.set(record, steps);
  return steps;
}

/**
 * The figures of one run. Initial JS+CSS: every script and stylesheet the page loads with no one
 * touching it (Lighthouse waits for the network to go quiet), whenever it was asked for: a SPA's
 * route chunks come after the load event, a prerendered page's hydration after its first paint, and
 * both are what the page needs to work; plus the page's inline stylesheets as the page carries them
 * (brotli, as the server compresses pages). Chain: the longest chain
 * of requests (chainSteps) among those that had come back before the first contentful paint, i.e.
 * what the student waits for before anything shows.
 */
export async function figuresOf(
  lhr: Result,
  devtoolsLog: Artifacts['DevtoolsLog'],
  stylesheets: Artifacts['Stylesheets'] = [],
): Promise<PageFigures> {
  if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  const observed = (
    audit(lhr, 'metrics').details as { items?: Array<Record<string, number | undefined>> } | undefined
  )?.items?.[0];
  const { observedFirstContentfulPaintTs } = observed ?? {};
  if (observedFirstContentfulPaintTs === undefined) throw new Error('no observed first contentful paint');
  // records are in ms, the observed metrics in µs, on the same clock
  const records = (await NetworkRecords.request(devtoolsLog, { computedCache: new Map() })).filter(
    (record) => !record.url.startsWith('data:'),
  );
  const initialJsCss =
    records
      .filter((record) => record.resourceType === 'Script' || record.resourceType === 'Stylesheet')
      .reduce((sum, record) => sum + record.transferSize, 0) + inlineStyleBytes(stylesheets);
  const memo = new Map<NetworkRecord, number>();
  const chain = Math.max(
    0,
    ...records
      .filter((record) => record.finished && record.networkEndTime < observedFirstContentfulPaintTs / 1000)
      .map((record) => chainSteps(record, records, memo)),
  );

  return {
    performance: score(lhr, 'performance'),
    accessibility: score(lhr, 'accessibility'),
    lcp: numeric(lhr, 'largest-contentful-paint'),
    cls: numeric(lhr, 'cumulative-layout-shift'),
    tbt: numeric(lhr, 'total-blocking-time'),
    bytes: numeric(lhr, 'total-byte-weight'),
    requests: records.length,
    initialJsCss,
    chain,
  };
}

/** What a page's inline <style> elements weigh in the page as sent (brotli quality 5, as the server's). */
export function inlineStyleBytes(stylesheets: Artifacts['Stylesheets']): number {
  return stylesheets
    .filter((sheet) => sheet.header.isInline)
    .reduce(
      (sum, sheet) =>
        sum + brotliCompressSync(sheet.content, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }).length,
      0,
    );
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The per-figure median of the runs that succeeded, or undefined when none did. */
export function medianFigures(runs: PageFigures[]): PageFigures | undefined {
  if (!runs.length) return undefined;
  const of = (key: keyof PageFigures) => median(runs.map((run) => run[key]));
  return {
    performance: of('performance'),
    accessibility: of('accessibility'),
    lcp: of('lcp'),
    cls: of('cls'),
    tbt: of('tbt'),
    bytes: of('bytes'),
    requests: of('requests'),
    initialJsCss: of('initialJsCss'),
    chain: of('chain'),
  };
}

interface Goal {
  text: string;
  met: (page: PageFigures, reference: PageFigures | undefined) => boolean;
}

interface Row {
  label: string;
  format: (figures: PageFigures) => string;
  value: (figures: PageFigures) => number;
  goal?: Goal;
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const INITIAL_JS_CSS = {
  label: 'initial JS+CSS (as transferred)',
  value: (f) => f.initialJsCss,
  format: (f) => kB(f.initialJsCss),
  goal: {
    text: `≤ ${kB(WEB_GOALS.initialJsCssBytes)}`,
    met: (f) => f.initialJsCss <= WEB_GOALS.initialJsCssBytes,
  },
} satisfies Row;
const ROWS: Row[] = [
  {
    label: 'Performance',
    value: (f) => f.performance,
    format: (f) => String(f.performance),
    goal: { text: `≥ ${WEB_GOALS.performance}`, met: (f) => f.performance >= WEB_GOALS.performance },
  },
  {
    label: 'Accessibility',
    value: (f) => f.accessibility,
    format: (f) => String(f.accessibility),
    goal: { text: `${WEB_GOALS.accessibility}`, met: (f) => f.accessibility >= WEB_GOALS.accessibility },
  },
  {
    label: 'LCP',
    value: (f) => f.lcp,
    format: (f) => `${(f.lcp / 1000).toFixed(2)} s`,
    goal: {
      text: `≤ ${WEB_GOALS.lcpRatio}× reference`,
      met: (f, ref) => ref !== undefined && f.lcp <= ref.lcp * WEB_GOALS.lcpRatio,
    },
  },
  {
    label: 'CLS',
    value: (f) => f.cls,
    format: (f) => f.cls.toFixed(3),
    // as Lighthouse shows it: three decimals
    goal: { text: '0', met: (f) => f.cls < 0.0005 },
  },
  { label: 'total blocking time', value: (f) => f.tbt, format: (f) => `${Math.round(f.tbt)} ms` },
  { label: 'bytes transferred', value: (f) => f.bytes, format: (f) => kB(f.bytes) },
  { label: 'requests', value: (f) => f.requests, format: (f) => String(f.requests) },
  INITIAL_JS_CSS,
  {
    label: 'request chain before first paint',
    value: (f) => f.chain,
    format: (f) => `${f.chain} steps`,
    goal: { text: `≤ ${WEB_GOALS.chainSteps} steps`, met: (f) => f.chain <= WEB_GOALS.chainSteps },
  },
];

const passFail = (met: Goal['met'], page: PageFigures | undefined, reference: PageFigures | undefined) =>
  page && met(page, reference) ? 'PASS' : 'FAIL';

/** One line per goal: `- PASS: /log-in Performance ≥ 95 (97)`. */
export function pageVerdicts(
  name: string,
  page: PageFigures | undefined,
  reference: PageFigures | undefined,
): string[] {
  return ROWS.flatMap(({ label, format, goal }) =>
    goal
      ? [
          `- ${passFail(goal.met, page, reference)}: ${name} ${label} ${goal.text} (${page ? format(page) : 'no run succeeded'})`,
        ]
      : [],
  );
}

/** One page's table: the reference's figure, the page's, their ratio, the goal and PASS/FAIL. */
export function pageTable(page: PageFigures | undefined, reference: PageFigures | undefined): string {
  const lines = ROWS.map((row) => {
    const ref = reference ? row.format(reference) : 'n/a';
    const own = page ? row.format(page) : 'n/a';
    const denominator = reference ? row.value(reference) : 0;
    const ratio = page && denominator ? `${(row.value(page) / denominator).toFixed(2)}×` : '—';
    const verdict = row.goal ? passFail(row.goal.met, page, reference) : '';
    return `| ${row.label} | ${ref} | ${own} | ${ratio} | ${row.goal?.text ?? '—'} | ${verdict} |`;
  });
  return [
    '| figure | reference | portal | ratio | goal | result |',
    '|---|---:|---:|---:|---|---|',
    ...lines,
  ].join('\n');
}

/**
 * The first page's initial JS+CSS in each other language (one run each: the bytes do not vary between
 * runs): each language downloads its own catalogs, so the weight goal must hold in every one of them.
 */
export function languageBytes(
  page: string,
  byLanguage: { language: string; figures: PageFigures | undefined }[],
): { table: string; verdicts: string[] } {
  const { label, format, goal } = INITIAL_JS_CSS;
  const rows = byLanguage.map(({ language, figures }) => ({
    language,
    figure: figures ? format(figures) : 'no run succeeded',
    result: passFail(goal.met, figures, undefined),
  }));
  return {
    table: [
      `${label} of ${page} in each other language:`,
      '',
      `| language | ${label} | goal | result |`,
      '|---|---:|---|---|',
      ...rows.map((r) => `| ${r.language} | ${r.figure} | ${goal.text} | ${r.result} |`),
    ].join('\n'),
    verdicts: rows.map(
      (r) => `- ${r.result}: ${page}?locale=${r.language} ${label} ${goal.text} (${r.figure})`,
    ),
  };
}

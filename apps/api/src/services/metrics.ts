import { Counter, Gauge, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import { sql } from 'kysely';
import { assertWritable, databaseFileProblem } from '../db/index.ts';
import type { AppContext } from '../context.ts';
import { diskFullLately } from './disk-full.ts';
import type { AuditEvent } from './audit.ts';

/**
 * Prometheus metrics, scraped at GET /metrics (routes/metrics.ts; docs/DEPLOYMENT.md#metrics).
 * Events are counted as they happen, once per process (a process is one portal instance); the
 * state of the outbox and of the argon2 queue is read when a scrape asks for it.
 */
export const registry = new Registry();

const signIns = new Counter({
  name: 'frontdoor_sign_ins_total',
  help: 'Sign-ins and failed guesses (password, access code, mailed verify/reset code), by method and outcome',
  labelNames: ['method', 'outcome'] as const,
  registers: [registry],
});

const limitRefusals = new Counter({
  name: 'frontdoor_limit_refusals_total',
  help: 'Requests refused by an abuse or capacity limit (answered 429 or 503), by error code',
  labelNames: ['code'] as const,
  registers: [registry],
});

const hashRefused = new Counter({
  name: 'frontdoor_password_hash_refused_total',
  help: 'Password checks refused (503 serverBusy) because the argon2 queue was full',
  registers: [registry],
});

const hashRunning = new Gauge({
  name: 'frontdoor_password_hash_running',
  help: 'argon2 hashes running now (at most PASSWORD_HASH_CONCURRENCY)',
  registers: [registry],
});

const hashWaiting = new Gauge({
  name: 'frontdoor_password_hash_waiting',
  help: 'argon2 hashes waiting for a slot (at most PASSWORD_HASH_QUEUE)',
  registers: [registry],
});

const outboxPending = new Gauge({
  name: 'frontdoor_outbox_pending',
  help: 'Outbox rows (mail, CRM calls) not yet delivered, by kind',
  labelNames: ['kind'] as const,
  registers: [registry],
});

const outboxRetrying = new Gauge({
  name: 'frontdoor_outbox_retrying',
  help: 'Pending outbox rows whose last attempt failed (SMTP or the CRM down), by kind',
  labelNames: ['kind'] as const,
  registers: [registry],
});

const outboxOldest = new Gauge({
  name: 'frontdoor_outbox_oldest_pending_seconds',
  help: 'Age of the oldest pending outbox row, by kind',
  labelNames: ['kind'] as const,
  registers: [registry],
});

const outboxFailed = new Gauge({
  name: 'frontdoor_outbox_failed',
  help: 'Outbox rows given up at the attempt limit and kept for an operator (pruned after 30 days), by kind',
  labelNames: ['kind'] as const,
  registers: [registry],
});

const outboxRejected = new Gauge({
  name: 'frontdoor_outbox_rejected',
  help: 'Mails the mail server refused for good (a mistyped or closed address; not retried) in the last 7 days, by kind',
  labelNames: ['kind'] as const,
  registers: [registry],
});

const databaseUp = new Gauge({
  name: 'frontdoor_database_up',
  help: 'Whether the last scrape found the database taking writes and read the outbox within 2 s (1) or not (0: the outbox gauges are then absent)',
  registers: [registry],
});

const limitCountersShared = new Gauge({
  name: 'frontdoor_limit_counters_shared',
  help: "Whether the abuse limits are counted in Redis, shared by every instance (1), or in this instance's memory (0: no REDIS_URL, or Redis unreachable)",
  registers: [registry],
});

/**
 * How long a scrape waits for the database: a database that drops packets would otherwise hold it
 * for the pool's 10 s, as long as Prometheus's default scrape timeout, and the scrape saying the
 * database is down would never arrive.
 */
export const SCRAPE_DATABASE_TIMEOUT_MS = 2000;

let processMetrics = false;
/** Node's own metrics (memory, event-loop delay, GC): started once, by the first app that serves /metrics. */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry });
}

/** Upper bounds (seconds): a page or API read takes milliseconds, a password sign-in's argon2 ~100 ms. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const DURATION = 'frontdoor_http_request_duration_seconds';

interface Timing {
  labels: { method: string; route: string; status: string };
  /** Observations per bucket (not cumulative), the last one above every bound. */
  buckets: Float64Array;
  sum: number;
  count: number;
}
const timings = new Map<string, Timing>();

/**
 * Times one answer. Counted here rather than by prom-client's Histogram, whose observe validates and
 * hashes the labels each time: this is a map lookup and an increment, on every request.
 */
export function observeRequest(method: string, route: string | undefined, status: number, ms: number): void {
  const key = `${method} ${status} ${route}`;
  let timing = timings.get(key);
  if (!timing) {
    timing = {
      labels: { method, route: route ?? '(unmatched)', status: String(status) },
      buckets: new Float64Array(DURATION_BUCKETS.length + 1),
      sum: 0,
      count: 0,
    };
    timings.set(key, timing);
  }
  const seconds = ms / 1000;
  let bucket = 0;
  while (bucket < DURATION_BUCKETS.length && seconds > (DURATION_BUCKETS[bucket] ?? Infinity)) bucket++;
  timing.buckets[bucket] = (timing.buckets[bucket] ?? 0) + 1;
  timing.sum += seconds;
  timing.count += 1;
}

/** The timings in a histogram's exposition form, for the registry: cumulative buckets, sum and count. */
const requestDuration = {
  name: DURATION,
  help: 'Time to answer a request, by method, matched route pattern ("(unmatched)" for none) and status',
  type: 'histogram',
  get: async () => ({
    name: DURATION,
    help: requestDuration.help,
    type: 'histogram',
    aggregator: 'sum',
    values: [...timings.values()].flatMap(({ labels, buckets, sum, count }) => {
      let cumulative = 0;
      return [
        ...[...DURATION_BUCKETS, '+Inf'].map((le, i) => {
          cumulative += buckets[i] ?? 0;
          return { metricName: `${DURATION}_bucket`, labels: { ...labels, le }, value: cumulative };
        }),
        { metricName: `${DURATION}_sum`, labels, value: sum },
        { metricName: `${DURATION}_count`, labels, value: count },
      ];
    }),
  }),
};
// the registry reads a metric through name, type and get() only
registry.registerMetric(requestDuration as unknown as Metric);

const SIGN_IN_METHODS = new Set(['password', 'federated', 'access-code']);
const CODE_PURPOSES = new Set(['verify', 'reset']);

/** Counts a sign-in outcome; only known methods become a label value, so labels stay few. */
export function countSignIn(method: string, outcome: 'success' | 'failure'): void {
  signIns.inc({ method: SIGN_IN_METHODS.has(method) ? method : 'other', outcome });
}

/** Called by audit() for every entry: sign-ins and failed guesses are counted where they are audited. */
export function countAudited(entry: Pick<AuditEvent, 'event' | 'detail'>): void {
  const detail = entry.detail ?? {};
  if (entry.event === 'sign-in' || entry.event === 'sign-in.failed')
    countSignIn(String(detail.method), entry.event === 'sign-in' ? 'success' : 'failure');
  else if (entry.event === 'code.failed') {
    const purpose = String(detail.purpose);
    signIns.inc({ method: CODE_PURPOSES.has(purpose) ? `${purpose}-code` : 'other', outcome: 'failure' });
  }
}

export function countLimitRefusal(code: string): void {
  limitRefusals.inc({ code });
}

export function countHashRefused(): void {
  hashRefused.inc();
}

type ScrapeContext = Pick<AppContext, 'db' | 'now' | 'limits' | 'logger'>;

/** Reads the outbox table (one query) into its gauges. */
async function readOutbox(ctx: ScrapeContext): Promise<void> {
  const rows = await ctx.db
    .selectFrom('outbox')
    .select((eb) => [
      'kind',
      sql<number>`sum(case when ${eb.ref('next_attempt_at')} is not null then 1 else 0 end)`.as('pending'),
      sql<number>`sum(case when ${eb.ref('next_attempt_at')} is not null and ${eb.ref('attempts')} > 0 then 1 else 0 end)`.as(
        'retrying',
      ),
      sql<number>`sum(case when ${eb.ref('failed_at')} is not null then 1 else 0 end)`.as('failed'),
      sql<number>`sum(case when ${eb.ref('rejected_at')} is not null then 1 else 0 end)`.as('rejected'),
      sql<
        number | null
      >`min(case when ${eb.ref('next_attempt_at')} is not null then ${eb.ref('created_at')} end)`.as(
        'oldest',
      ),
    ])
    .groupBy('kind')
    .execute();
  resetOutboxGauges();
  const now = ctx.now();
  for (const row of rows) {
    const kind = { kind: row.kind };
    outboxPending.set(kind, Number(row.pending));
    outboxRetrying.set(kind, Number(row.retrying));
    outboxFailed.set(kind, Number(row.failed));
    outboxRejected.set(kind, Number(row.rejected));
    outboxOldest.set(kind, row.oldest === null ? 0 : Math.max(0, now - Number(row.oldest)) / 1000);
  }
}

/** `work`'s result, or a refusal once `ms` have passed without one (the work itself goes on). */
async function withinTime(ms: number, work: () => Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    await Promise.race([work(), late]);
  } finally {
    clearTimeout(timer);
  }
}

function resetOutboxGauges(): void {
  for (const gauge of [outboxPending, outboxRetrying, outboxOldest, outboxFailed, outboxRejected])
    gauge.reset();
}

/**
 * The exposition text of every metric, with the state of this app read now. A database that does not
 * answer is reported, not raised: the scrape is what an operator watches while it is down.
 */
export async function scrape(ctx: ScrapeContext): Promise<string> {
  const { active, waiting } = ctx.limits.hashing.depth;
  hashRunning.set(active);
  hashWaiting.set(waiting);
  limitCountersShared.set(ctx.limits.counters.shared() ? 1 : 0);
  try {
    await withinTime(SCRAPE_DATABASE_TIMEOUT_MS, async () => {
      // what /readyz asks (app.ts): a read-only replica or a replaced file fails every sign-in too
      await assertWritable(ctx.db);
      if (databaseFileProblem(ctx.db))
        throw new Error('the database file is not the one the server writes to');
      if (diskFullLately(ctx.db, ctx.now()))
        throw new Error('the database refused a write for want of space within the last minute');
      await readOutbox(ctx);
    });
    databaseUp.set(1);
  } catch (err) {
    ctx.logger.warn({ err }, 'metrics: the database did not answer');
    resetOutboxGauges();
    databaseUp.set(0);
  }
  return registry.metrics();
}

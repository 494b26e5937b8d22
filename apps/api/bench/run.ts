/**
 * `npm run bench` (after `npm run build`): in-process latency/throughput of a few API calls
 * (fastify.inject, SQLite in a temp dir), then the API over HTTP beside bare Fastify (api-speed.ts)
 * and the sign-in pages beside a bare React page under Lighthouse (web-speed.ts). Writes each
 * part's section of bench/results.md at the repository root. 6 to 9 minutes on 2 cores.
 */
import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { RESULTS_FILE, benchApp, writeResultsSection } from './app.ts';
import { apiSpeed, apiSpeedTable, apiSpeedVerdicts, signatureBudget } from './api-speed.ts';
import { webSpeed } from './web-speed.ts';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from '@frontdoor/contract';
import { hashPassword, newUserRow } from '../src/services/users.ts';
import { createSession } from '../src/services/sessions.ts';

// measures the cost of each call, not the limits: 400 sign-ups from one address would meet the
// per-address mail limit (npm run loadtest measures the limits)
const { app, ctx, db, close } = await benchApp({
  RATE_LIMIT_MULTIPLIER: '1000000',
  LIMIT_MAIL_PER_ADDRESS_PER_HOUR: '1000000',
});
const now = ctx.now;
await app.ready();

const user = newUserRow(
  {
    email: 'bench@school.test',
    first: 'B',
    last: 'M',
    passwordHash: await hashPassword('Bench-Passw0rd!'),
    confirmed: true,
  },
  now(),
);
await db.insertInto('users').values(user).execute();
const session = await createSession(db, user.id, { now: now() });
const csrf = 'bench-csrf';
const cookies = `${CSRF_COOKIE}=${csrf}; ${SESSION_COOKIE}=${session}`;

interface Row {
  name: string;
  n: number;
  concurrency: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  throughput: number;
}

async function measure(
  name: string,
  budgetMs: number,
  maxN: number,
  concurrency: number,
  call: (i: number) => Promise<number>,
): Promise<Row> {
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  const worker = async () => {
    while (next < maxN && performance.now() - start < budgetMs) {
      const i = next++;
      const t0 = performance.now();
      const status = await call(i);
      latencies.push(performance.now() - t0);
      if (status >= 400) throw new Error(`${name}: HTTP ${status}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = performance.now() - start;
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return {
    name,
    n: latencies.length,
    concurrency,
    mean: latencies.reduce((a, b) => a + b, 0) / latencies.length,
    p50: q(0.5),
    p95: q(0.95),
    p99: q(0.99),
    throughput: (latencies.length / elapsed) * 1000,
  };
}

const post = (url: string, payload: object) =>
  app
    .inject({ method: 'POST', url, payload, headers: { cookie: cookies, [CSRF_HEADER]: csrf } })
    .then((r) => r.statusCode);

const rows: Row[] = [];
for (const concurrency of [1, 8]) {
  rows.push(
    await measure('POST auth/validateEmail', 5000, 20000, concurrency, () =>
      post('/api/auth/validateEmail', { email: 'bench@school.test' }),
    ),
  );
  rows.push(
    await measure('GET auth/sig (signed in)', 5000, 20000, concurrency, () =>
      app.inject({ url: '/api/auth/sig', headers: { cookie: cookies } }).then((r) => r.statusCode),
    ),
  );
  rows.push(
    await measure('POST cognito/signup (argon2id)', 8000, 400, concurrency, (i) =>
      post('/api/cognito/signup', {
        first: 'S',
        last: 'U',
        email: `signup-${concurrency}-${i}@school.test`,
        pw: 'Bench-Passw0rd!',
        description: 'other',
      }),
    ),
  );
}
await close();

const ms = (v: number) => v.toFixed(2);
const table = [
  '| call | concurrency | requests | mean ms | p50 ms | p95 ms | p99 ms | req/s |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.concurrency} | ${r.n} | ${ms(r.mean)} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${r.throughput.toFixed(0)} |`,
  ),
].join('\n');
writeResultsSection(
  '# API benchmark',
  `# API benchmark

\`npm run bench\` (apps/api/bench/run.ts): in-process \`fastify.inject\` against SQLite in a temporary directory,
the full request path (helmet, cookies, flood guard, CSRF, validation, database). No network. Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'},
Node ${process.version}, ${new Date().toISOString().slice(0, 10)}. Sign-up includes argon2id (m=19456 KiB, t=2, p=1), two inserts and the mailbox write.

${table}
`,
);
console.info(table);

// ---------- beside bare references: each part reports its own failure, the other still runs ----------

const SPEED_SECTION = '## Speed beside bare references (issue 10)';
const failure = (err: unknown) => `**Failed:** ${err instanceof Error ? err.message : String(err)}`;
const verdicts: string[] = [];

console.info('\nAPI over HTTP beside bare Fastify (autocannon, 50 connections)…');
let apiPart: string;
try {
  const api = await apiSpeed({ connections: 50, durationSeconds: 10 });
  verdicts.push(
    ...apiSpeedVerdicts(api).map((v) => `- ${v.pass ? 'PASS' : 'FAIL'}: ${v.goal} (${v.figure})`),
  );
  apiPart = `${apiSpeedTable(api)}

${signatureBudget(api)}

Portal resident memory: ${api.startRssMb.toFixed(0)} MB once listening, ${api.peakRssMb.toFixed(0)} MB at its peak.`;
} catch (err) {
  apiPart = failure(err);
  verdicts.push('- FAIL: API speed did not complete');
}
console.info(apiPart);

console.info('\nSign-in pages beside a bare React page (Lighthouse, mobile)…');
let webPart: string;
let versions = 'Chromium and Lighthouse: not run';
try {
  const web = await webSpeed({ runs: 3 });
  versions = `Chromium ${web.chromium}, Lighthouse ${web.lighthouseVersion}`;
  verdicts.push(...web.verdicts);
  webPart = web.markdown;
} catch (err) {
  webPart = failure(err);
  verdicts.push('- FAIL: web speed did not complete');
}
console.info(webPart);

const cpu = cpus();
writeResultsSection(
  SPEED_SECTION,
  `${SPEED_SECTION}

\`npm run bench\` (apps/api/bench/api-speed.ts and web-speed.ts; how and what: [bench/README.md](README.md)), ${new Date().toISOString()}.
Machine: ${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM; Node ${process.version}; ${versions}.

### Goals

${verdicts.join('\n')}

### API: the portal beside a bare Fastify route (autocannon, 50 connections, loopback)

${apiPart}

### Web: the portal's sign-in pages beside a bare React page (Lighthouse mobile: simulated slow 4G, 4× CPU; median of 3)

${webPart}
`,
);
console.info(`\n${verdicts.join('\n')}\nwritten to ${RESULTS_FILE}`);

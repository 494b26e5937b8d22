/**
 * The API over real HTTP beside bare Fastify: autocannon against the portal as `npm run serve` starts
 * it (its own process, SQLite in a temporary directory, logging at info to a file) and against
 * bare-server.ts, started by the same Node with the same flags. Each call is measured right after the
 * bare route of the same method, so both see the same moment of a shared machine; every figure is
 * given with its ratio to that bare route, and each side with its CPU time per call. The portal's
 * peak RSS is its VmHWM (Linux). Beside the two calls with goals, auth/sig signed out gauges the
 * request path alone, every call's floor.
 *
 *   node apps/api/bench/api-speed.ts [--connections 50] [--duration 10]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { exportJWK, generateKeyPair } from 'jose';
import {
  API_PREFIX,
  CSRF_COOKIE,
  CSRF_HEADER,
  PRODUCT_TOKEN_AUDIENCE,
  SESSION_COOKIE,
  apiPaths,
} from '@frontdoor/contract';
import { createDb } from '../src/db/index.ts';
import { signerOf } from '../src/services/product-keys.ts';
import { createSession } from '../src/services/sessions.ts';
import { newUserRow } from '../src/services/users.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '../../..');
const PORTAL_MAIN = path.resolve(here, '../src/main.ts');
const BARE_SERVER = path.resolve(here, 'bare-server.ts');
/** Each target runs this long before it is measured, so both are measured warm (JIT, key creation). */
const WARMUP_SECONDS = 2;
const MB = 1024 * 1024;

/** Issue 10's goals for the API. */
export const API_SPEED_GOALS = { minRatio: 0.5, maxP99Ms: 25, maxErrors: 0, maxPeakRssMb: 250 };

export interface Figures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors, timeouts and answers other than 2xx. */
  errors: number;
  /**
   * The server process's CPU time (user and system) per call over the measured run: unlike req/s it
   * does not depend on which side, the server or autocannon, is the bottleneck.
   */
  cpuUsPerCall: number;
}

export interface CallSpeed extends Figures {
  call: string;
  /** Measured to explain the others (what every call costs before its own work), with no goal of its own. */
  gauge?: boolean;
  bare: Figures;
  /** requestsPerSecond / bare.requestsPerSecond */
  ratio: number;
}

export interface ApiSpeed {
  connections: number;
  durationSeconds: number;
  node: string;
  calls: CallSpeed[];
  /** The portal's resident memory once listening, and its peak over the whole run. */
  startRssMb: number;
  peakRssMb: number;
  /** CPU µs of the ES256 signature auth/sig makes per call, timed alone (signatureMicroseconds). */
  signatureUs: number;
}

/**
 * The µs per call of the portal's own product-token signer (node:crypto, ES256) over claims shaped
 * like auth/sig's, in a loop in this process: the least CPU a signed-in auth/sig can cost.
 */
export async function signatureMicroseconds(calls = 20_000): Promise<number> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const sign = signerOf({ ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'ES256' });
  const now = Math.floor(Date.now() / 1000);
  const claims = () => ({
    iss: 'http://localhost:8080',
    aud: PRODUCT_TOKEN_AUDIENCE,
    sub: randomUUID(),
    iat: now,
    exp: now + 600,
    jti: randomUUID(),
    sid: randomBytes(32).toString('base64url'),
    identities: [],
  });
  for (let i = 0; i < calls / 10; i++) sign(claims());
  const started = process.cpuUsage();
  for (let i = 0; i < calls; i++) sign(claims());
  const { user, system } = process.cpuUsage(started);
  return (user + system) / calls;
}

/**
 * The CPU µs per call a server may spend, on one core, and still answer `ratio` × `bareRequestsPerSecond`.
 * Node answers HTTP on one thread, so a call whose own work (say its signature) costs more than this
 * cannot reach the ratio, whatever the rest costs.
 */
export function cpuBudgetUs(bareRequestsPerSecond: number, ratio: number): number {
  return 1e6 / (ratio * bareRequestsPerSecond);
}

interface Server {
  address: string;
  child: ChildProcess;
}

/** The Node flags of the production start (`npm run serve`), given to both servers alike. */
function serveFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return (scripts.serve ?? '').split(/\s+/).filter((word) => word.startsWith('--'));
}

/**
 * Starts `file` with this Node and the production start's flags, its log going to `logFile` (a file
 * takes every line at once; a pipe read by this busy process would hold lines back in the server's
 * memory); resolves with the address its start line names.
 */
async function startServer(file: string, env: NodeJS.ProcessEnv, logFile: string): Promise<Server> {
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, [...serveFlags(), file], { env, stdio: ['ignore', log, 'pipe'] });
  closeSync(log);
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  for (;;) {
    const address = /"address":"([^"]+)"/.exec(readFileSync(logFile, 'utf8'))?.[1];
    if (address) return { address, child };
    if (child.exitCode !== null)
      throw new Error(
        `${file} exited (${child.exitCode}) before listening:\n${readFileSync(logFile, 'utf8')}${errors}`,
      );
    await setTimeout(100);
  }
}

async function stopServer({ child }: Server): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Linux reports a process's CPU time in /proc in ticks of 1/100 s (USER_HZ, fixed for user space). */
const TICKS_PER_SECOND = 100;

/**
 * The user and system CPU seconds of a process, from the text of its /proc/<pid>/stat: fields 14 and
 * 15, counted after the command name, which is in parentheses and may hold spaces.
 */
export function cpuSecondsOfStat(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (the state)
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

const cpuSecondsOf = (pid: number) => cpuSecondsOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));

/** A process's resident memory now and at its peak, from /proc (Linux). */
function rssOf(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { now: (kb('VmRSS') * 1024) / MB, peak: (kb('VmHWM') * 1024) / MB };
}

type Load = Pick<autocannon.Options, 'url' | 'method' | 'headers' | 'body'>;

async function measure(
  server: Server,
  load: Load,
  connections: number,
  durationSeconds: number,
): Promise<Figures> {
  await autocannon({ ...load, connections, duration: WARMUP_SECONDS });
  const pid = server.child.pid ?? 0;
  const cpuBefore = cpuSecondsOf(pid);
  const result = await autocannon({ ...load, connections, duration: durationSeconds });
  const cpuSeconds = cpuSecondsOf(pid) - cpuBefore;
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
    cpuUsPerCall: result.requests.total ? (cpuSeconds * 1e6) / result.requests.total : 0,
  };
}

/** A confirmed account with a live session in the portal's database, as the signed-in calls need. */
async function seedSignedIn(dataDir: string): Promise<{ email: string; session: string }> {
  const db = createDb({ dataDir, databaseUrl: undefined });
  try {
    const now = Date.now();
    const user = newUserRow(
      { email: 'bench@school.test', first: 'Bench', last: 'Mark', passwordHash: null, confirmed: true },
      now,
    );
    await db.insertInto('users').values(user).execute();
    return { email: user.email, session: await createSession(db, user.id, { now }) };
  } finally {
    await db.destroy();
  }
}

export async function apiSpeed({
  connections = 50,
  durationSeconds = 10,
}: { connections?: number; durationSeconds?: number } = {}): Promise<ApiSpeed> {
  const json = { 'content-type': 'application/json' };
  const emailBody = JSON.stringify({ email: 'bench@school.test' });

  // before any server starts, so the loop has a core to itself
  const signatureUs = await signatureMicroseconds();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fd-api-speed-'));
  const started: Server[] = [];
  const start = async (file: string, env: NodeJS.ProcessEnv) => {
    const server = await startServer(file, env, path.join(dataDir, `${path.basename(file, '.ts')}.log`));
    started.push(server);
    return server;
  };
  try {
    const bare = await start(BARE_SERVER, process.env);
    const portal = await start(PORTAL_MAIN, {
      ...process.env,
      APP_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'info',
      SECRET: randomBytes(32).toString('base64'),
      // never used by these calls; production refuses to start without a mail server
      SMTP_URL: 'smtp://127.0.0.1:25',
      // nor are links; production refuses to start without a PUBLIC_URL
      PUBLIC_URL: 'http://127.0.0.1',
      // nor is a sender, which production asks for when PUBLIC_URL's host is an IP
      MAIL_FROM: 'Frontdoor <no-reply@portal.test>',
      // the flood guard still counts every request; it must not refuse the benchmark's one address
      RATE_LIMIT_MULTIPLIER: '1000000',
      // no load balancer to drain for: stopped, it stops
      SHUTDOWN_DRAIN_SECONDS: '0',
    });
    const pid = portal.child.pid ?? 0;
    const startRssMb = rssOf(pid).now;
    const { session } = await seedSignedIn(dataDir);
    const csrf = randomBytes(18).toString('base64url');
    const cookie = `${CSRF_COOKIE}=${csrf}; ${SESSION_COOKIE}=${session}`;
    const api = `${portal.address}${API_PREFIX}`;
    const beside = async (
      name: string,
      load: Load,
      method: 'GET' | 'POST',
      gauge = false,
    ): Promise<CallSpeed> => {
      const reference = await measure(
        bare,
        method === 'GET'
          ? { url: `${bare.address}/bare` }
          : { url: `${bare.address}/bare`, method, headers: json, body: emailBody },
        connections,
        durationSeconds,
      );
      const figures = await measure(portal, load, connections, durationSeconds);
      return {
        call: `${method} ${name}`,
        ...(gauge ? { gauge } : {}),
        ...figures,
        bare: reference,
        ratio: figures.requestsPerSecond / reference.requestsPerSecond,
      };
    };
    const calls = [
      await beside(
        `${apiPaths.sig} (signed in)`,
        { url: `${api}${apiPaths.sig}`, headers: { cookie } },
        'GET',
      ),
      // no session, so no database read and no signature: what the request path costs every call
      // (security headers, cookies, CSRF, the flood guard, the request id and the access-log line)
      await beside(
        `${apiPaths.sig} (signed out)`,
        { url: `${api}${apiPaths.sig}`, headers: { cookie: `${CSRF_COOKIE}=${csrf}` } },
        'GET',
        true,
      ),
      await beside(
        apiPaths.validateEmail,
        {
          url: `${api}${apiPaths.validateEmail}`,
          method: 'POST',
          headers: { ...json, cookie, [CSRF_HEADER]: csrf },
          body: emailBody,
        },
        'POST',
      ),
    ];
    return {
      connections,
      durationSeconds,
      node: process.version,
      calls,
      startRssMb,
      peakRssMb: rssOf(pid).peak,
      signatureUs,
    };
  } finally {
    await Promise.all(started.map(stopServer));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Each goal with the figure it was judged on. */
export function apiSpeedVerdicts(result: ApiSpeed): { goal: string; figure: string; pass: boolean }[] {
  const g = API_SPEED_GOALS;
  return [
    ...result.calls
      .filter((c) => !c.gauge)
      .flatMap((c) => [
        {
          goal: `${c.call}: ≥ ${g.minRatio}× bare req/s`,
          figure: `${c.ratio.toFixed(2)}×`,
          pass: c.ratio >= g.minRatio,
        },
        { goal: `${c.call}: p99 < ${g.maxP99Ms} ms`, figure: `${c.p99Ms} ms`, pass: c.p99Ms < g.maxP99Ms },
        { goal: `${c.call}: ${g.maxErrors} errors`, figure: String(c.errors), pass: c.errors <= g.maxErrors },
      ]),
    {
      goal: `peak RSS < ${g.maxPeakRssMb} MB`,
      figure: `${result.peakRssMb.toFixed(0)} MB`,
      pass: result.peakRssMb < g.maxPeakRssMb,
    },
  ];
}

/** The figures as a markdown table. */
export function apiSpeedTable(result: ApiSpeed): string {
  const rate = (n: number) => n.toFixed(0);
  return [
    '| call | req/s | p50 ms | p99 ms | errors | CPU µs/call | bare req/s | bare p99 ms | bare CPU µs/call | ratio |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...result.calls.map(
      (c) =>
        `| ${c.call}${c.gauge ? ' (no goal)' : ''} | ${rate(c.requestsPerSecond)} | ${c.p50Ms} | ${c.p99Ms} | ${c.errors} | ${rate(c.cpuUsPerCall)} | ${rate(c.bare.requestsPerSecond)} | ${c.bare.p99Ms} | ${rate(c.bare.cpuUsPerCall)} | ${c.ratio.toFixed(2)}× |`,
    ),
  ].join('\n');
}

/**
 * What the ratio goal leaves auth/sig (signed in) beside the CPU its signature takes alone: where the
 * budget is below the signature, no request path can reach the goal on one core.
 */
export function signatureBudget(result: ApiSpeed): string {
  const signedIn = result.calls.find((c) => !c.gauge && c.call.startsWith(`GET ${apiPaths.sig}`));
  if (!signedIn) return '';
  const ratio = API_SPEED_GOALS.minRatio;
  const budget = cpuBudgetUs(signedIn.bare.requestsPerSecond, ratio);
  const rate = Math.round(signedIn.bare.requestsPerSecond).toLocaleString('en');
  return `${signedIn.call} signs an ES256 product token per call: ${result.signatureUs.toFixed(0)} µs of CPU for the signature alone (the portal's signer in a loop). ${ratio}× of its bare route's ${rate} req/s leaves ${budget.toFixed(0)} µs per call on one core for everything, the signature included.`;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { connections: { type: 'string', default: '50' }, duration: { type: 'string', default: '10' } },
  });
  const result = await apiSpeed({
    connections: Number(values.connections),
    durationSeconds: Number(values.duration),
  });
  console.info(
    `${result.connections} connections, ${result.durationSeconds} s per call, Node ${result.node}, loopback\n`,
  );
  console.info(apiSpeedTable(result));
  console.info(`\n${signatureBudget(result)}`);
  console.info(
    `\nportal RSS: ${result.startRssMb.toFixed(0)} MB listening, ${result.peakRssMb.toFixed(0)} MB peak\n`,
  );
  for (const v of apiSpeedVerdicts(result))
    console.info(`${v.pass ? 'PASS' : 'FAIL'}: ${v.goal} (${v.figure})`);
}

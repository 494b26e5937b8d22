/**
 * Load script (a report, not a test): a whole school signs in (and a new class signs up) from ONE address while two attackers
 * guess from that same address, over real HTTP on 127.0.0.1 with the real abuse limits
 * (RATE_LIMIT_MULTIPLIER 1). `npm run loadtest` prints the figures and writes them into
 * bench/results.md as the section "## Load test: a school behind one address" (the rest of the file
 * is left as it is). Bounded: the traffic phase ends when the students are done, at most after 120 s.
 * Exits 0 unless the script itself crashes; goals that do not hold are printed as FAIL lines.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { RESULTS_FILE, benchApp, writeResultsSection } from './app.ts';
import { CSRF_COOKIE, CSRF_HEADER, EMAIL_CODE_LENGTH } from '@frontdoor/contract';
import { freePort } from '../test/fake-http.ts';
import { accessCodeBudgetOf, createAccessCode } from '../src/services/access-codes.ts';
import { createServiceProvider } from '../src/services/service-providers.ts';
import { hashPassword, newUserRow } from '../src/services/users.ts';

const PASSWORD_STUDENTS = 400;
const CODE_STUDENTS = 100;
/** A new class creating its accounts meanwhile: sign-up, the mailed code, then a password sign-in. */
const SIGNUP_STUDENTS = 30;
/** What the new class chooses: not STUDENT_PASSWORD, which holds its domain's word ('school'). */
const SIGNUP_PASSWORD = 'Granite-Falcon-5519!';
const READING_CODES = 300;
/** Every TYPO_EVERY-th student gets it wrong once first (a wrong password, a wrong code), then right. */
const TYPO_EVERY = 5;
const CONCURRENCY = 30;
const PHASE_MS = 120_000;
const STUDENT_PASSWORD = 'School-Passw0rd-2026!';
const SECTION = '## Load test: a school behind one address';

// ---------- the portal, in this process, listening on loopback ----------

/** Server log lines at warn and above, so surprises on the server side show in the report. */
const serverLog = new Map<string, number>();
const logger = pino(
  { level: 'warn' },
  {
    write(line: string) {
      let msg = line.trim();
      try {
        const parsed = JSON.parse(line) as { msg?: string; level?: number };
        msg = `[${parsed.level ?? '?'}] ${parsed.msg ?? msg}`;
      } catch {
        // not JSON: keep the raw line
      }
      serverLog.set(msg, (serverLog.get(msg) ?? 0) + 1);
    },
  },
);

const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const { app, ctx, db, close } = await benchApp(
  { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: baseUrl, RATE_LIMIT_MULTIPLIER: '1' },
  logger,
);
const now = ctx.now;

// ---------- seed: 500 students, a victim, two providers of the school ----------

const seedStart = performance.now();
const passwordHash = await hashPassword(STUDENT_PASSWORD);
const studentRows = Array.from({ length: PASSWORD_STUDENTS + CODE_STUDENTS }, (_, i) =>
  newUserRow(
    {
      email: `student${String(i).padStart(3, '0')}@school.test`,
      first: 'Student',
      last: String(i),
      passwordHash,
      confirmed: true,
    },
    now(),
  ),
);
const victim = newUserRow(
  { email: 'victim@school.test', first: 'Vic', last: 'Tim', passwordHash, confirmed: true },
  now(),
);
for (let i = 0; i < studentRows.length; i += 100)
  await db
    .insertInto('users')
    .values(studentRows.slice(i, i + 100))
    .execute();
await db.insertInto('users').values(victim).execute();
await createServiceProvider(
  db,
  { spId: 'math', name: 'Math Class', origins: ['https://math.school.test'] },
  now(),
);
await createServiceProvider(
  db,
  { spId: 'reading', name: 'Reading Corner', origins: ['https://reading.school.test'] },
  now(),
);

interface Student {
  email: string;
  kind: 'password' | 'code' | 'signup';
  code?: string;
  typo: boolean;
}
const passwordStudents: Student[] = studentRows
  .slice(0, PASSWORD_STUDENTS)
  .map((u, i) => ({ email: u.email, kind: 'password', typo: i % TYPO_EVERY === 0 }));
const codeStudents: Student[] = [];
for (const u of studentRows.slice(PASSWORD_STUDENTS)) {
  const { code } = await createAccessCode(ctx, { spId: 'math', userId: u.id });
  codeStudents.push({ email: u.email, kind: 'code', code, typo: codeStudents.length % TYPO_EVERY === 0 });
}
// other students of the school have codes for the reading app: its k = 300 live codes
for (const u of studentRows.slice(0, READING_CODES))
  await createAccessCode(ctx, { spId: 'reading', userId: u.id });
const readingBefore = await accessCodeBudgetOf(ctx, 'reading');
const mathBefore = await accessCodeBudgetOf(ctx, 'math');
const seedMs = performance.now() - seedStart;

await app.listen({ port, host: '127.0.0.1' });

// a class at a time: four password students, then one with a code, and so on; the new class first
const students: Student[] = Array.from({ length: SIGNUP_STUDENTS }, (_, i) => ({
  email: `new${String(i).padStart(2, '0')}@school.test`,
  kind: 'signup' as const,
  typo: false,
}));
for (let i = 0; i < PASSWORD_STUDENTS; i++) {
  const s = passwordStudents[i];
  if (s) students.push(s);
  const c = codeStudents[Math.floor(i / 4)];
  if (i % 4 === 3 && c) students.push(c);
}

// ---------- an HTTP client with its own cookie jar ----------

interface Answer {
  status: number;
  code: string | undefined;
  msg: string | undefined;
  retryAfter: number | undefined;
  payload: Record<string, unknown> | undefined;
}

class Browser {
  readonly jar = new Map<string, string>();
  constructor() {
    // each browser its own double-submit token
    this.jar.set(CSRF_COOKIE, randomBytes(18).toString('base64url'));
  }

  async call(method: 'GET' | 'POST', url: string, body?: object, signal?: AbortSignal): Promise<Answer> {
    const headers: Record<string, string> = {
      cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '),
    };
    if (method === 'POST') {
      headers['content-type'] = 'application/json';
      headers[CSRF_HEADER] = this.jar.get(CSRF_COOKIE) ?? '';
    }
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers,
      redirect: 'manual',
      ...(body ? { body: JSON.stringify(body) } : {}),
      ...(signal ? { signal } : {}),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) this.jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    const text = await res.text();
    let json: { code?: string; msg?: string; payload?: Record<string, unknown> } = {};
    try {
      json = JSON.parse(text) as typeof json;
    } catch {
      // not JSON
    }
    const ra = res.headers.get('retry-after');
    return {
      status: res.status,
      code: json.code,
      msg: json.msg,
      retryAfter: ra !== null && ra !== '' && Number.isFinite(Number(ra)) ? Number(ra) : undefined,
      payload: json.payload,
    };
  }
}

const label = (a: Answer) => `${a.status}${a.code ? ` ${a.code}` : ''}`;
const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

// ---------- the traffic ----------

const studentAnswers = new Map<string, number>();
const retries = new Map<string, number>();
const failures = new Map<string, number>();
const failedDetail: string[] = [];
interface Outcome {
  kind: Student['kind'];
  ok: boolean;
  ms: number;
  retries: number;
}
const outcomes: Outcome[] = [];

let students429 = 0;
let phaseStart = 0;
let studentsDone = false;
const phaseDeadline = () => phaseStart + PHASE_MS;
/** A wrong code one digit away from the right one, as a hurried finger types it. */
const typoOf = (code: string) => `${code.slice(0, 5)}${(Number(code[5]) + 1) % 10}`;

class Refused extends Error {}

/** The code of the verification mail the outbox delivered to `email` (the dev mailbox), waited for. */
async function mailedCode(email: string): Promise<string> {
  for (;;) {
    const mail = await db
      .selectFrom('mailbox')
      .select('text')
      .where('to_address', '=', email)
      .executeTakeFirst();
    const code = mail && new RegExp(`\\b(\\d{${EMAIL_CODE_LENGTH}})\\b`).exec(mail.text)?.[1];
    if (code) return code;
    if (performance.now() > phaseDeadline()) throw new Refused('no verification mail arrived');
    await sleep(50);
  }
}

async function signIn(s: Student): Promise<Outcome> {
  const browser = new Browser();
  const t0 = performance.now();
  let tries = 0;
  let last: Answer | undefined;
  /** One call, retried after Retry-After on 429/503 while the 120 s allow it. */
  const call = async (method: 'GET' | 'POST', url: string, body?: object): Promise<Answer> => {
    for (;;) {
      const left = phaseDeadline() - performance.now();
      if (left <= 0)
        throw new Refused(
          `not signed in within ${PHASE_MS / 1000} s (last answer ${last ? label(last) : 'none'})`,
        );
      let a: Answer;
      try {
        a = await browser.call(method, url, body, AbortSignal.timeout(Math.ceil(left)));
      } catch (err) {
        throw new Refused(`no answer: ${(err as Error).name} ${(err as Error).message}`);
      }
      last = a;
      bump(studentAnswers, `${method} ${url.replace(/\/\d{6}\//, '/<code>/')} → ${label(a)}`);
      if (a.status === 429) students429++;
      if (a.status !== 429 && a.status !== 503) return a;
      bump(retries, `${label(a)} (Retry-After ${a.retryAfter ?? 'none'})`);
      const waitMs = (a.retryAfter ?? 1) * 1000;
      // a wait past the 120 s cannot end in time: the student has failed (no point sleeping it out)
      if (performance.now() + waitMs > phaseDeadline()) {
        throw new Refused(
          `not signed in within ${PHASE_MS / 1000} s: ${label(a)} "${a.msg ?? ''}" asked to wait ${a.retryAfter ?? '?'} s`,
        );
      }
      tries++;
      await sleep(waitMs);
    }
  };
  try {
    if (s.kind === 'password') {
      const v = await call('POST', '/api/auth/validateEmail', { email: s.email });
      if (v.status !== 200) throw new Refused(`validateEmail ${label(v)} "${v.msg ?? ''}"`);
      if (s.typo) {
        const wrong = await call('POST', '/api/cognito/login', {
          email: s.email,
          password: 'School-Passw0rd-2025!',
        });
        if (wrong.status !== 401)
          throw new Refused(`a typo: cognito/login ${label(wrong)} "${wrong.msg ?? ''}"`);
      }
      const l = await call('POST', '/api/cognito/login', { email: s.email, password: STUDENT_PASSWORD });
      if (l.status !== 200 || l.payload?.redirect !== '/post-login')
        throw new Refused(`cognito/login ${label(l)} "${l.msg ?? ''}"`);
    } else if (s.kind === 'signup') {
      const up = await call('POST', '/api/cognito/signup', {
        first: 'New',
        last: 'Student',
        email: s.email,
        pw: SIGNUP_PASSWORD,
        description: 'student',
      });
      if (up.status !== 200) throw new Refused(`cognito/signup ${label(up)} "${up.msg ?? ''}"`);
      const c = await call('POST', '/api/cognito/confirm', { un: s.email, code: await mailedCode(s.email) });
      if (c.status !== 200) throw new Refused(`cognito/confirm ${label(c)} "${c.msg ?? ''}"`);
      // the browser that chose the password confirmed it: the password signs in
      const l = await call('POST', '/api/cognito/login', { email: s.email, password: SIGNUP_PASSWORD });
      if (l.status !== 200 || l.payload?.redirect !== '/post-login')
        throw new Refused(`cognito/login after sign-up ${label(l)} "${l.msg ?? ''}"`);
    } else {
      if (s.typo) {
        const wrong = await call('GET', `/api/accessCodes/login/${typoOf(s.code ?? '')}/math`);
        // 400: the typo happened to be another provider's code ('not for …'), a failure all the same
        if (wrong.status !== 404 && wrong.status !== 400)
          throw new Refused(`a typo: accessCodes/login ${label(wrong)} "${wrong.msg ?? ''}"`);
      }
      const a = await call('GET', `/api/accessCodes/login/${s.code}/math`);
      if (a.status !== 200 || typeof a.payload?.cookie_hash !== 'string')
        throw new Refused(`accessCodes/login ${label(a)} "${a.msg ?? ''}"`);
    }
    return { kind: s.kind, ok: true, ms: performance.now() - t0, retries: tries };
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    bump(
      failures,
      `${s.kind}: ${err.message.replace(/Retry-After \d+|wait \d+ s/g, (m) => m.replace(/\d+/, 'N'))}`,
    );
    if (failedDetail.length < 5) failedDetail.push(`${s.email} (${s.kind}): ${err.message}`);
    return { kind: s.kind, ok: false, ms: performance.now() - t0, retries: tries };
  }
}

async function runStudents(): Promise<number> {
  let next = 0;
  const worker = async () => {
    for (;;) {
      const s = students[next++];
      if (!s) return;
      if (performance.now() >= phaseDeadline()) {
        bump(failures, `${s.kind}: not started within ${PHASE_MS / 1000} s (queue behind stuck students)`);
        outcomes.push({ kind: s.kind, ok: false, ms: 0, retries: 0 });
        continue;
      }
      outcomes.push(await signIn(s));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  studentsDone = true;
  return performance.now() - phaseStart;
}

interface AttackerReport {
  name: string;
  requests: number;
  evaluated: number;
  refused: number;
  hits: number;
  firstRefusalMs: number | undefined;
  firstRefusal: string | undefined;
  answers: Map<string, number>;
}

async function attack(
  name: string,
  guess: (browser: Browser, i: number) => Promise<Answer>,
  classify: (a: Answer) => 'evaluated' | 'refused' | 'hit' | 'other',
): Promise<AttackerReport> {
  const r: AttackerReport = {
    name,
    requests: 0,
    evaluated: 0,
    refused: 0,
    hits: 0,
    firstRefusalMs: undefined,
    firstRefusal: undefined,
    answers: new Map(),
  };
  const browser = new Browser();
  while (!studentsDone && performance.now() < phaseDeadline()) {
    let a: Answer;
    try {
      a = await guess(browser, r.requests);
    } catch (err) {
      bump(r.answers, `error ${(err as Error).message}`);
      await sleep(10);
      continue;
    }
    r.requests++;
    bump(r.answers, label(a));
    const kind = classify(a);
    if (kind === 'evaluated') r.evaluated++;
    else if (kind === 'hit') r.hits++;
    else if (kind === 'refused') {
      r.refused++;
      if (r.firstRefusalMs === undefined) {
        r.firstRefusalMs = performance.now() - phaseStart;
        r.firstRefusal = `${label(a)} Retry-After ${a.retryAfter ?? 'none'}`;
      }
    }
  }
  return r;
}

phaseStart = performance.now();
const [studentMs, passwordAttacker, codeAttacker] = await Promise.all([
  runStudents(),
  attack(
    'password attacker (victim@school.test)',
    (b, i) => b.call('POST', '/api/cognito/login', { email: victim.email, password: `Wrong-Guess-${i}-x!` }),
    (a) => (a.status === 401 ? 'evaluated' : a.status === 429 ? 'refused' : 'other'),
  ),
  attack(
    'access-code attacker (reading)',
    (b) =>
      b.call('GET', `/api/accessCodes/login/${String(randomInt(0, 1_000_000)).padStart(6, '0')}/reading`),
    (a) =>
      a.status === 200
        ? 'hit'
        : a.status === 400 || a.status === 404
          ? 'evaluated'
          : a.status === 429
            ? 'refused'
            : 'other',
  ),
]);
const phaseMs = performance.now() - phaseStart;
const readingAfter = await accessCodeBudgetOf(ctx, 'reading');
const mathAfter = await accessCodeBudgetOf(ctx, 'math');
const victimAfter = await db
  .selectFrom('users')
  .select(['failed_attempts', 'locked_at'])
  .where('id', '=', victim.id)
  .executeTakeFirstOrThrow();

await close();

// ---------- the report ----------

const signed = outcomes.filter((o) => o.ok);
const signedPassword = signed.filter((o) => o.kind === 'password').length;
const signedCode = signed.filter((o) => o.kind === 'code').length;
const signedUp = signed.filter((o) => o.kind === 'signup').length;
const latencies = signed.map((o) => o.ms).sort((a, b) => a - b);
const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
const retryCount = outcomes.reduce((n, o) => n + o.retries, 0);
const sec = (ms: number | undefined) => (ms === undefined ? '–' : (ms / 1000).toFixed(2));
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

const goalStudents = signed.length === students.length && students429 === 0 && studentMs <= PHASE_MS;
const goalPassword = passwordAttacker.evaluated <= 10;
const goalCode = codeAttacker.evaluated <= readingBefore.budget;

const list = (m: Map<string, number>) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `  - ${k}: ${v}`)
    .join('\n') || '  - none';

const attackerLines = (r: AttackerReport) =>
  [
    `- **${r.name}**: ${r.requests} requests; guesses evaluated ${r.evaluated}, refused ${r.refused}, ` +
      `hits ${r.hits}; first refusal at ${sec(r.firstRefusalMs)} s (${r.firstRefusal ?? 'never'})`,
    `  answers:`,
    list(r.answers).replace(/^ {2}/gm, '    '),
  ].join('\n');

const report = `${SECTION}

\`npm run loadtest\` (apps/api/bench/loadtest.ts): the API listening on ${baseUrl} (real HTTP, loopback only),
SQLite in a temporary directory, real limits (RATE_LIMIT_MULTIPLIER 1, per-process counters). Every request
comes from 127.0.0.1: ${PASSWORD_STUDENTS} students sign in with a password (validateEmail, cognito/login),
${CODE_STUDENTS} with a class access code for \`math\` (accessCodes/login), and first a new class of ${SIGNUP_STUDENTS} creates
its accounts (cognito/signup, the code from the mail, cognito/confirm, cognito/login), ${CONCURRENCY} students in flight at a time,
each with its own cookie jar and CSRF token, retrying after Retry-After on 429/503. One student in
${TYPO_EVERY} types it wrong once first (${students.filter((s) => s.typo).length} failures of the school's address:
a wrong password, or a code one digit off), then right. Meanwhile a password
attacker guesses one account's password and a code attacker guesses random codes for \`reading\`
(${readingBefore.liveCodes} live codes), each one request at a time as fast as answers come, until the students are
done (at most ${PHASE_MS / 1000} s). Client and server share one Node process.

Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${new Date().toISOString()}.
Seeding (one argon2 hash reused, ${studentRows.length + 1} accounts, ${CODE_STUDENTS + READING_CODES} access codes): ${sec(seedMs)} s.

**Students**

- signed in: ${signed.length}/${students.length} (password ${signedPassword}/${PASSWORD_STUDENTS}, access code ${signedCode}/${CODE_STUDENTS}, signed up ${signedUp}/${SIGNUP_STUDENTS})
- wall time for all students: ${sec(studentMs)} s (traffic phase ${sec(phaseMs)} s)
- sign-in time per student (all its calls, waits included): p50 ${q(0.5).toFixed(1)} ms, p99 ${q(0.99).toFixed(1)} ms, max ${(latencies.at(-1) ?? NaN).toFixed(1)} ms
- retries (waited Retry-After, then called again): ${retryCount}
- 429/503 answers to students:
${list(retries)}
- failures:
${list(failures)}
- answers to students:
${list(studentAnswers)}

**Attackers** (same address)

${attackerLines(passwordAttacker)}
  - victim afterwards: failed_attempts ${victimAfter.failed_attempts}, ${victimAfter.locked_at === null ? 'not locked' : 'locked'}
${attackerLines(codeAttacker)}
  - \`reading\`: ${readingBefore.liveCodes} live codes, budget ${readingBefore.budget} failed guesses a day (accessCodeBudgetOf); failures recorded afterwards ${readingAfter.failures}
  - \`math\`: ${mathBefore.liveCodes} live codes, budget ${mathBefore.budget}; failures recorded afterwards ${mathAfter.failures}

**Server log (warn and above)**

${list(serverLog)}

**Goals**

- ${verdict(goalStudents)}: all ${students.length} students signed in within ${PHASE_MS / 1000} s with no 429 (signed in ${signed.length}, 429 answers to students ${students429})
- ${verdict(goalPassword)}: password attacker evaluated ≤ 10 guesses (evaluated ${passwordAttacker.evaluated})
- ${verdict(goalCode)}: code attacker evaluated ≤ budget of \`reading\` = ${readingBefore.budget} (evaluated ${codeAttacker.evaluated}, hits ${codeAttacker.hits})
`;

console.info(report);
if (failedDetail.length)
  console.info(`first failed students:\n${failedDetail.map((d) => `  ${d}`).join('\n')}\n`);
for (const [ok, what] of [
  [goalStudents, 'students'],
  [goalPassword, 'password attacker'],
  [goalCode, 'access-code attacker'],
] as const)
  if (!ok) console.error(`FAIL: ${what} goal does not hold (see above)`);

writeResultsSection(SECTION, report);
console.info(`written to ${RESULTS_FILE}`);

import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER } from '@frontdoor/contract';
import { sql } from 'kysely';
import { serverCheckout } from '../test/checkout.ts';
import { startFakeServer } from '../test/fake-http.ts';
import { DIALECTS } from '../test/harness.ts';
import { secretFingerprint } from './services/secret-change.ts';
import { createTestDb } from '../test/test-db.ts';

/** As `npm run serve` starts it: Node's own type stripping, no other flag. */
const MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'main.ts');
const REPO = path.resolve(path.dirname(MAIN), '../../..');

/**
 * Why a file cannot be made unwritable here, or null: `chattr +i` (root on ext4 and the like) makes
 * a file read-only for every user, the owner of a restored file included.
 */
function immutableFilesProblem(dir: string): string | null {
  const probe = path.join(dir, 'immutable-probe');
  writeFileSync(probe, '');
  const set = spawnSync('chattr', ['+i', probe], { encoding: 'utf8' });
  spawnSync('chattr', ['-i', probe]);
  rmSync(probe);
  return set.status === 0 ? null : `chattr +i failed: ${set.error?.message ?? set.stderr.trim()}`;
}

describe('main.ts as a process', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fd-main-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  /** A development start on a free port with its own database, plus what the test sets. */
  const developmentEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    APP_ENV: 'development',
    ...extra,
  });

  /** main.ts started as a process, once it listens: its address, its log so far, and its exit. */
  async function startMain(env: Record<string, string>, command = [process.execPath, MAIN]) {
    const [file = '', ...args] = command;
    const child = spawn(file, args, {
      env: developmentEnv(env),
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    const address = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        const m = /"address":"([^"]+)".*frontdoor listening/.exec(log);
        if (m?.[1]) resolve(m[1]);
      });
      child.once('exit', () => reject(new Error(`exited early: ${log}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { child, address, exited, log: () => log };
  }

  it('migrates, listens, and on SIGTERM finishes the in-flight request before exiting 0', async () => {
    // a slow realm upstream keeps one request in flight while the signal arrives
    const upstream = await startFakeServer((_req, _body, res) => {
      setTimeout(() => res.end(JSON.stringify({ NameSpaceType: 'Managed' })), 800);
    });
    const { child, address, exited, log: logOf } = await startMain({ REALM_UPSTREAM_URL: upstream.url });

    const first = await fetch(`${address}/readyz`);
    expect(first.status).toBe(200);
    const token = /fd_csrf=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')?.[1] ?? '';
    const inFlight = fetch(`${address}/api/v2/auth/microsoft-user-realm`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: `${CSRF_COOKIE}=${token}`,
        [CSRF_HEADER]: token,
      },
      body: JSON.stringify({ email: 'a@contoso.test' }),
    });
    await new Promise((r) => setTimeout(r, 200));
    child.kill('SIGTERM');
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect((await res.json()).payload.accountType).toBe('Managed');
    const code = await exited;
    const log = logOf();
    if (code !== 0) console.error(log.split('\n').slice(-6).join('\n'));
    expect(code).toBe(0);
    expect(log).toContain('"msg":"stopped"');
    // development stops at once: no drain
    expect(log).not.toContain('draining');
    // a new database: every migration ran, named in one line with the time the start waited for them
    const migrated = log.split('\n').find((line) => line.includes('"msg":"database migrated"')) ?? '{}';
    const migrationFiles = readdirSync(path.join(path.dirname(MAIN), 'db', 'migrations'))
      .filter((file) => /^\d{3}_\w+\.ts$/.test(file))
      .map((file) => file.slice(0, -'.ts'.length))
      .sort();
    expect(JSON.parse(migrated)).toMatchObject({ migrations: migrationFiles, ms: expect.any(Number) });
    // and said before they ran, then one by one: a large database's upgrade takes minutes
    const lines = log.split('\n').filter((line) => line.startsWith('{'));
    const migrating = lines.findIndex((line) => line.includes('"msg":"migrating: '));
    expect(JSON.parse(lines[migrating] ?? '{}')).toMatchObject({
      msg: `migrating: ${migrationFiles.join(', ')}`,
      migrations: migrationFiles,
    });
    expect(
      lines
        .slice(migrating + 1, lines.indexOf(migrated))
        .map((line) => JSON.parse(line) as { msg: string; migration: string }),
    ).toEqual(
      migrationFiles.map((migration) => expect.objectContaining({ msg: 'migration ran', migration })),
    );
    // the start line says where the data is and where the limits count
    expect(log).toContain(
      `"database":"sqlite","databaseAt":${JSON.stringify(dataDir)},"limitCounters":"memory"`,
    );
    // not a terminal: the development banner's links come as fields of one JSON line
    expect(log).toMatch(
      /"links":\{[^}]*"Demo product":"http:\/\/localhost:0\/dev\/sp"[^}]*\}.*DEVELOPMENT MODE/,
    );
    await upstream.close();
  }, 30_000);

  it('`npm run serve` hands SIGTERM to the server (a container signals its first process alone), which stops', async () => {
    const { child, address, exited, log } = await startMain({}, ['npm', 'run', '-s', 'serve']);
    expect((await fetch(`${address}/readyz`)).status).toBe(200);
    child.kill('SIGTERM');
    await exited;
    expect(log()).toContain('"msg":"stopped"');
    await expect(fetch(`${address}/readyz`)).rejects.toThrow();
  }, 30_000);

  it('names every address it listens on: HOST=0.0.0.0 is every interface, not the first one found; the start ends in that line, its warnings before it', async () => {
    const { child, exited, log } = await startMain({ HOST: '0.0.0.0', TRUST_PROXY: '1' });
    child.kill('SIGTERM');
    await exited;
    const lines = log().split('\n');
    const listening = lines.findIndex((l) => l.includes('"msg":"frontdoor listening"'));
    expect(JSON.parse(lines[listening] ?? '{}').addresses).toEqual([
      expect.stringMatching(/^0\.0\.0\.0:\d+$/),
    ]);
    // what follows it is the stop the test asked for, nothing else
    expect(
      lines.slice(listening + 1).filter((l) => l !== '' && !/"msg":"(shutting down|stopped)/.test(l)),
    ).toEqual([]);
    const warnings = lines.slice(0, listening).filter((l) => l.includes('"level":40'));
    expect(warnings).toEqual([
      expect.stringMatching(/DEVELOPMENT MODE/),
      expect.stringMatching(/TRUST_PROXY is a number of proxies \(1\) and HOST is 0\.0\.0\.0/),
    ]);
  }, 30_000);

  it("stopped after its SQLite file was removed under it, moves that file's journal aside, never to be replayed onto the copy put back", async () => {
    const own = mkdtempSync(path.join(tmpdir(), 'fd-main-removed-'));
    try {
      const { child, exited, log } = await startMain({ DATA_DIR: own });
      rmSync(path.join(own, 'frontdoor.sqlite'));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const files = readdirSync(own);
      expect(files.filter((name) => /^frontdoor\.sqlite-(wal|shm)$/.test(name))).toEqual([]);
      expect(files.some((name) => name.startsWith('frontdoor.sqlite-wal.set-aside-'))).toBe(true);
      // a last copy of all it wrote, the removed file's only trace
      expect(files.some((name) => name.startsWith('frontdoor.sqlite.rescued-'))).toBe(true);
      expect(log()).toMatch(
        /"rescuedTo":"[^"]*frontdoor\.sqlite\.rescued-[^"]*","setAside":\[[^\]]*frontdoor\.sqlite-wal\.set-aside-.*a last copy of all it wrote is at rescuedTo/,
      );
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  }, 30_000);

  it('a start with another SECRET than the last one says, before listening, that the codes made under the old one fail; the next start says nothing', async () => {
    const own = mkdtempSync(path.join(tmpdir(), 'fd-main-secret-'));
    // the instances serving and their SECRETs' fingerprints, as the admin CLI reads them
    const serving = () => {
      const file = new SQLite(path.join(own, 'frontdoor.sqlite'), { readonly: true });
      try {
        return file.prepare('select fingerprint from instance_secrets').pluck().all();
      } finally {
        file.close();
      }
    };
    const run = async (secret: string) => {
      const { child, exited, log } = await startMain({ DATA_DIR: own, SECRET: secret });
      expect(serving()).toEqual([secretFingerprint(secret)]);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      // stopped, it serves no more
      expect(serving()).toEqual([]);
      return log()
        .split('\n')
        .filter((line) => line.includes('"setting":"SECRET"'));
    };
    try {
      expect(await run('frontdoor-old-secret-0123456789abcdef-0123')).toEqual([]);
      const [line, ...more] = await run('frontdoor-new-secret-0123456789abcdef-4567');
      expect(more).toEqual([]);
      expect(JSON.parse(line ?? '{}')).toMatchObject({
        level: 50,
        liveAccessCodes: 0,
        liveMailedCodes: 0,
        msg: expect.stringMatching(/^SECRET is not the one the last start ran with/),
      });
      expect(await run('frontdoor-new-secret-0123456789abcdef-4567')).toEqual([]);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  }, 30_000);

  it('on SIGTERM with SHUTDOWN_DRAIN_SECONDS, goes on answering for that long with /readyz at 503 and connections closed after each answer, then exits 0', async () => {
    const { child, address, exited, log } = await startMain({ SHUTDOWN_DRAIN_SECONDS: '1.5' });
    expect((await fetch(`${address}/readyz`)).status).toBe(200);
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 400));
    const ready = await fetch(`${address}/readyz`);
    expect(ready.status).toBe(503);
    const sig = await fetch(`${address}/api/auth/sig`);
    expect(sig.status).toBe(200);
    expect(sig.headers.get('connection')).toBe('close');
    expect(child.exitCode).toBeNull();
    expect(await exited).toBe(0);
    expect(log()).toMatch(/"drainMs":1500,.*"msg":"shutting down: draining/);
  }, 30_000);

  it('a client still trickling a request body it was already answered for does not hold the stop: stopped, exit 0 within the drain and a second', async () => {
    const { child, address, exited, log } = await startMain({ SHUTDOWN_DRAIN_SECONDS: '1' });
    const { port } = new URL(address);
    // 40 bytes announced, one sent a second: refused (no CSRF token) before its body has arrived
    const socket = connect(Number(port), '127.0.0.1');
    socket.write(
      `POST /api/auth/validateEmail HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{`,
    );
    const trickle = setInterval(() => socket.writable && socket.write(' '), 1000);
    socket.on('error', () => {});
    try {
      const answer = await new Promise<string>((resolve) =>
        socket.once('data', (d: Buffer) => resolve(d.toString())),
      );
      expect(answer).toMatch(/^HTTP\/1\.1 403 /);
      const signalled = performance.now();
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(performance.now() - signalled).toBeLessThan(1000 + 1000);
      expect(log()).toContain('"msg":"stopped"');
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  }, 30_000);

  it('a mail queued while the server drains is left unclaimed for the next instance, not sent by one that is going', async () => {
    const { child, address, exited } = await startMain({ SHUTDOWN_DRAIN_SECONDS: '1.5' });
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    const token = 'drain-csrf';
    const signup = await fetch(`${address}/api/cognito/signup`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: `${CSRF_COOKIE}=${token}`,
        [CSRF_HEADER]: token,
      },
      body: JSON.stringify({
        first: 'Ada',
        last: 'Drain',
        email: 'queued-while-draining@school.test',
        pw: 'Quartz-Lantern-5823',
        description: 'teacher',
      }),
    });
    expect(signup.status).toBe(200);
    expect(await exited).toBe(0);
    const rows = spawnSync(
      process.execPath,
      [
        '-e',
        `const db = new (require('better-sqlite3'))(${JSON.stringify(path.join(dataDir, 'frontdoor.sqlite'))}, { readonly: true });
         console.log(JSON.stringify(db.prepare("select claimed_by, delivered_at from outbox o join users u on u.id = o.user_id where u.email = 'queued-while-draining@school.test'").all()));`,
      ],
      { cwd: REPO, encoding: 'utf8' },
    );
    expect(JSON.parse(rows.stdout)).toEqual([{ claimed_by: null, delivered_at: null }]);
  }, 30_000);

  it("a production start that makes a new database says so with its path, before it listens (a DATA_DIR not the server's data); the next start on it does not, and names a DATA_DIR others may read, its mode left as it is", async () => {
    const dir = mkdtempSync(path.join(dataDir, 'production-'));
    const webDist = path.join(dir, 'dist');
    mkdirSync(webDist);
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Frontdoor</title>');
    const production = {
      APP_ENV: 'production',
      SECRET: 'kL9#mQ2$vX7&nB4!pR8*tY3^wE6@zA1%',
      SMTP_URL: 'smtp://127.0.0.1:1',
      PUBLIC_URL: 'https://login.test',
      DATA_DIR: path.join(dir, 'data'),
      WEB_DIST: webDist,
      SHUTDOWN_DRAIN_SECONDS: '0',
    };
    const newDatabase = (log: string) =>
      log.split('\n').filter((line) => line.includes('a new, empty database'));
    const first = await startMain(production);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const [line = '{}'] = newDatabase(first.log());
    expect(JSON.parse(line)).toMatchObject({
      level: 40,
      setting: 'DATA_DIR',
      databaseAt: production.DATA_DIR,
      msg: `a new, empty database is made at ${production.DATA_DIR}: if this server had accounts before, DATA_DIR points elsewhere than its data`,
    });
    expect(first.log().indexOf(line)).toBeLessThan(first.log().indexOf('frontdoor listening'));
    expect(first.log()).not.toContain('other users of this machine may read');
    // a DATA_DIR made open to others before (an older release, by hand): told, its mode left as it is
    chmodSync(production.DATA_DIR, 0o755);
    const second = await startMain(production);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(newDatabase(second.log())).toEqual([]);
    const exposed = second
      .log()
      .split('\n')
      .find((line) => line.includes('other users of this machine'));
    expect(JSON.parse(exposed ?? '{}')).toMatchObject({
      level: 40,
      setting: 'DATA_DIR',
      msg: `other users of this machine may read the database in DATA_DIR (password hashes, sessions, the private signing keys): ${production.DATA_DIR} is 0755; run chmod go-rwx ${production.DATA_DIR}`,
    });
    expect(statSync(production.DATA_DIR).mode & 0o777).toBe(0o755);
  }, 30_000);

  it('refuses a bad identity setting at start like any configuration error: a fatal line, exit 1', () => {
    const run = spawnSync(process.execPath, [MAIN], {
      env: developmentEnv({ IDP_IDENTIFIERS: 'contoso.edu=Facebook' }),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(
      /"level":60,.*"msg":"IDP_IDENTIFIERS: 'contoso.edu=Facebook' is not identifier=/,
    );
    expect(run.stdout).not.toContain('frontdoor listening');
  }, 30_000);

  it("refuses a .env it cannot read at the checkout's root in one fatal line, no stack trace, exit 1", () => {
    const checkout = serverCheckout();
    try {
      // a directory stands in for a file the service's user may not read (root reads any file)
      mkdirSync(path.join(checkout.root, '.env'));
      const run = spawnSync(process.execPath, [checkout.file('main.ts')], {
        env: developmentEnv({}),
        cwd: dataDir,
        encoding: 'utf8',
        // one that starts anyway ends with the test
        timeout: 20_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '')).toMatchObject({
        level: 60,
        msg: `${checkout.root}/.env cannot be read (EISDIR): make it a file the user the server runs as may read (chown it to that user), or remove it`,
      });
    } finally {
      checkout.remove();
    }
  }, 30_000);

  it("started from another directory, reads the production .env at the checkout's root, not that directory's (it ran in development there, on that directory's ./data)", async () => {
    const checkout = serverCheckout();
    const elsewhere = mkdtempSync(path.join(dataDir, 'elsewhere-'));
    const webDist = path.join(checkout.root, 'dist');
    mkdirSync(webDist);
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Frontdoor</title>');
    const productionData = path.join(checkout.root, 'production-data');
    writeFileSync(
      path.join(checkout.root, '.env'),
      [
        'APP_ENV=production',
        'SECRET="kL9#mQ2$vX7&nB4!pR8*tY3^wE6@zA1%"',
        'SMTP_URL=smtp://127.0.0.1:1',
        'PUBLIC_URL=https://login.test',
        `DATA_DIR=${productionData}`,
        `WEB_DIST=${webDist}`,
        'SHUTDOWN_DRAIN_SECONDS=0',
        '',
      ].join('\n'),
    );
    writeFileSync(path.join(elsewhere, '.env'), 'APP_ENV=development\n');
    const env = developmentEnv({});
    for (const name of ['APP_ENV', 'DATA_DIR']) delete env[name];
    const child = spawn(process.execPath, [checkout.file('main.ts')], {
      env,
      cwd: elsewhere,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let log = '';
    try {
      const listening = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          log += chunk.toString();
          const line = log.split('\n').find((l) => l.includes('frontdoor listening'));
          if (line) resolve(line);
        });
        child.once('exit', () => reject(new Error(`exited early: ${log}`)));
      });
      expect(JSON.parse(listening)).toMatchObject({ env: 'production', databaseAt: productionData });
      const read = log.split('\n').find((l) => l.includes('"msg":"read .env"'));
      expect(JSON.parse(read ?? '{}')).toMatchObject({ file: path.join(checkout.root, '.env') });
      // and says the start directory's own .env is not read
      const unread = log.split('\n').find((l) => l.includes('is not read'));
      expect(JSON.parse(unread ?? '{}')).toMatchObject({
        level: 40,
        file: path.join(elsewhere, '.env'),
        read: path.join(checkout.root, '.env'),
      });
      expect(readdirSync(elsewhere)).toEqual(['.env']);
    } finally {
      child.kill('SIGTERM');
      await exited;
      checkout.remove();
    }
  }, 30_000);

  const immutable = immutableFilesProblem(dataDir);
  if (immutable) console.info(`[api tests] the start on a read-only database is skipped: ${immutable}`);
  it.skipIf(immutable !== null)(
    'refuses a database file it cannot write in one fatal line naming DATA_DIR and the owner to correct (restored by root, it opened, read and failed every sign-in)',
    async () => {
      // a database as a restore leaves it: migrated, its keys made by a first start
      const first = await startMain({});
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      const file = path.join(dataDir, 'frontdoor.sqlite');
      expect(spawnSync('chattr', ['+i', file]).status).toBe(0);
      try {
        const run = spawnSync(process.execPath, [MAIN], {
          env: developmentEnv({}),
          encoding: 'utf8',
          timeout: 20_000,
          // one that starts anyway ends with the test
          killSignal: 'SIGKILL',
        });
        expect(run.status).toBe(1);
        expect(run.stderr).toBe('');
        expect(JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '')).toMatchObject({
          level: 60,
          msg: `DATA_DIR ${dataDir} cannot be used (attempt to write a readonly database): this user cannot write frontdoor.sqlite there or its -wal and -shm files (a restore or an admin command run as another user leaves them owned by that user): make this user their owner`,
          errorCode: 'SQLITE_READONLY',
          setting: 'DATA_DIR',
        });
      } finally {
        spawnSync('chattr', ['-i', file]);
      }
    },
    30_000,
  );

  it.for(DIALECTS)(
    'finds its port held (the old release still running) before it touches the database, which stays as that release left it ($dialect)',
    { timeout: 30_000 },
    async ({ dialect, skip }, context) => {
      if (skip) context.skip();
      const holder = createServer();
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      const port = (holder.address() as AddressInfo).port;
      // the old release's database: a migration behind this one
      const oldDir = mkdtempSync(path.join(dataDir, 'old-release-'));
      const { db, databaseUrl, drop } = await createTestDb(dialect, oldDir, '016_foreign_key_indexes');
      const migrations = async () =>
        (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map(
          (row) => row.name,
        );
      const before = await migrations();
      try {
        const run = spawnSync(process.execPath, [MAIN], {
          env: developmentEnv({ PORT: String(port), DATA_DIR: oldDir, DATABASE_URL: databaseUrl ?? '' }),
          encoding: 'utf8',
          timeout: 20_000,
        });
        expect(run.status).toBe(1);
        expect(JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '')).toMatchObject({
          level: 60,
          setting: 'PORT',
          msg: expect.stringContaining(`PORT ${port} is already in use on 127.0.0.1`),
        });
        expect(run.stdout).not.toContain('database migrated');
        expect(before.at(-1)).toBe('016_foreign_key_indexes');
        expect(await migrations()).toEqual(before);
      } finally {
        holder.close();
        await drop();
      }
    },
  );

  it('ends any other failed start in one fatal line saying what to do, no stack trace, exit 1', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as AddressInfo).port;
    const file = path.join(dataDir, 'a-file');
    writeFileSync(file, '');
    const production = {
      APP_ENV: 'production',
      SECRET: 'kL9#mQ2$vX7&nB4!pR8*tY3^wE6@zA1%',
      SMTP_URL: 'smtp://127.0.0.1:1',
      PUBLIC_URL: '',
    };
    const failures: [Record<string, string>, string][] = [
      [{ PORT: String(port) }, `PORT ${port} is already in use on 127.0.0.1: stop the process`],
      [{ DATA_DIR: path.join(file, 'data') }, `DATA_DIR ${path.join(file, 'data')} cannot be used (ENOTDIR`],
      [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent'],
      [production, 'configuration refused: PUBLIC_URL is required in production'],
      [
        { ...production, PUBLIC_URL: 'https://login.test', WEB_DIST: path.join(dataDir, 'no-build') },
        `WEB_DIST ${path.join(dataDir, 'no-build')} holds no web build (index.html): run \`npm run build\``,
      ],
    ];
    try {
      for (const [env, message] of failures) {
        const run = spawnSync(process.execPath, [MAIN], {
          env: developmentEnv(env),
          encoding: 'utf8',
          timeout: 20_000,
        });
        expect(run.status, message).toBe(1);
        expect(run.stderr, message).toBe('');
        const last = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as Record<string, unknown>;
        expect(last, message).toMatchObject({ level: 60, msg: expect.stringContaining(message) });
      }
    } finally {
      holder.close();
    }
  }, 60_000);
});

describe('scripts/require-node.mjs (npm prestart, pretest, preadmin)', () => {
  const script = path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    '../../../scripts/require-node.mjs',
  );
  const runWith = (node: string) => spawnSync(node, [script], { encoding: 'utf8' });
  // the machines carry an older Node beside the provisioned one: the refusal is tried on it
  const older = ['/usr/bin/node', '/usr/local/bin/node'].find((node) => {
    const version = spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout ?? '';
    return Number(version.split('.')[0]) > 0 && Number(version.split('.')[0]) < 24;
  });
  if (!older) console.info('require-node: no Node older than 24 on this machine, the refusal is not tried');

  it('lets Node 24 through', () => {
    expect(runWith(process.execPath).status).toBe(0);
  });

  it.skipIf(!older)('refuses an older Node with a sentence saying what to do, not a crash', () => {
    const res = runWith(older ?? '');
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/Frontdoor needs Node 24 or newer; this is Node \d+/);
    expect(res.stderr).toContain('source scripts/node24.sh');
  });
});

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv, promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ABUSE_LIMITS } from '@frontdoor/contract';
import { loadConfig } from './config.ts';
import { serverCheckout } from '../test/checkout.ts';
import { ENV_EXAMPLE_FILE, ENV_FILE, allVariables, readEnvFile, renderEnvExample } from './env-file.ts';
import { ENV_VARIABLES } from './env-variables.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The files that read the environment: the config, the identity config, and the start of the server. */
const READERS = ['config.ts', 'identity/settings.ts', 'main.ts', 'admin/cli.ts'];
const exec = promisify(execFile);

/** Every variable name a source reads: env.X, env['X'], setting(env, 'X') and the limits' number('X'). */
function namesRead(source: string): string[] {
  const patterns = [
    /\benv\.([A-Z][A-Z0-9_]*)\b/g,
    /\benv\[['"]([A-Z][A-Z0-9_]*)['"]\]/g,
    /\bsetting\([^,]+,\s*'([A-Z][A-Z0-9_]*)'\)/g,
    /\bnumber\(\s*'([A-Z][A-Z0-9_]*)'/g,
    /\bflag\([^,]+,\s*'([A-Z][A-Z0-9_]*)'/g,
  ];
  return [...new Set(patterns.flatMap((p) => [...source.matchAll(p)].map((m) => m[1] ?? '')))];
}

describe('.env.example', () => {
  it('is what `npm run env:example` writes from the list of variables (run it after changing the list)', () => {
    expect(readFileSync(ENV_EXAMPLE_FILE, 'utf8'), '.env.example is out of date: npm run env:example').toBe(
      renderEnvExample(),
    );
  });

  it('lists every variable that config.ts, identity/settings.ts, main.ts and the admin CLI read', () => {
    const listed = new Set(allVariables().map((v) => v.name));
    for (const file of READERS) {
      const read = namesRead(readFileSync(path.join(here, file), 'utf8'));
      expect(
        read.filter((name) => !listed.has(name)),
        file,
      ).toEqual([]);
    }
    // and the scan sees the reads it is meant to see
    expect(namesRead(readFileSync(path.join(here, 'config.ts'), 'utf8'))).toEqual(
      expect.arrayContaining(['APP_ENV', 'PORT', 'SECRET', 'METRICS_TOKEN', 'LIMIT_FLOOD_PER_MINUTE']),
    );
  });

  it('lists no variable that nothing reads', () => {
    const sources = READERS.map((file) => readFileSync(path.join(here, file), 'utf8')).join('\n');
    const read = new Set(namesRead(sources));
    expect(Object.keys(ENV_VARIABLES).filter((name) => !read.has(name))).toEqual([]);
  });

  it('reads back as each default once its lines are uncommented', () => {
    const uncommented = renderEnvExample().replace(/^# ([A-Z][A-Z0-9_]*=)/gm, '$1');
    const parsed = parseEnv(uncommented);
    for (const variable of allVariables())
      expect(parsed[variable.name], variable.name).toBe(variable.default ?? '');
    // an uncommented file changes nothing: every value is the default, or empty (= unset)
    expect(loadConfig(parsed)).toEqual(loadConfig({}));
  });
});

describe('loadConfig defaults', () => {
  it('come from the list of variables (and the contract for the limits)', () => {
    const config = loadConfig({});
    expect(config.port).toBe(Number(ENV_VARIABLES.PORT.default));
    expect(config.dataDir).toBe(path.resolve(ENV_VARIABLES.DATA_DIR.default));
    expect(config.redisPrefix).toBe(ENV_VARIABLES.REDIS_PREFIX.default);
    expect(config.limits.floodRequestsPerMinute).toBe(ABUSE_LIMITS.floodRequestsPerMinute);
    expect(config.limits.accessCodeDailyRisk).toBe(ABUSE_LIMITS.accessCodeDailyRisk);
    expect(config.env).toBe(ENV_VARIABLES.APP_ENV.default);
  });
});

describe('.env', () => {
  const file = (text: string) => {
    const name = path.join(mkdtempSync(path.join(tmpdir(), 'fd-env-')), '.env');
    writeFileSync(name, text);
    return name;
  };

  it('sets what the environment has not got; a variable of the real environment wins', () => {
    const env: NodeJS.ProcessEnv = { PORT: '9000' };
    const set = readEnvFile(
      file('PORT=8081\nSECRET="from the file"\n# DATA_DIR=/nowhere\nLOG_LEVEL=warn\n'),
      env,
    );
    expect(set.sort()).toEqual(['LOG_LEVEL', 'SECRET']);
    expect(env).toEqual({ PORT: '9000', SECRET: 'from the file', LOG_LEVEL: 'warn' });
  });

  it("is the repository's root's, beside the root package.json, whatever the working directory", () => {
    expect(ENV_FILE).toBe(path.join(path.dirname(ENV_EXAMPLE_FILE), '.env'));
    const root = path.dirname(ENV_FILE);
    expect(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))).toMatchObject({
      name: 'frontdoor',
      workspaces: expect.arrayContaining(['apps/api']),
    });
  });

  it("is read by the admin CLI at the checkout's root, not in the directory it runs in; the real environment wins", async () => {
    const checkout = serverCheckout();
    const cwd = mkdtempSync(path.join(tmpdir(), 'fd-env-cwd-'));
    const fromFile = path.join(cwd, 'from-file');
    const fromCwd = path.join(cwd, 'from-cwd');
    const fromEnvironment = path.join(cwd, 'from-environment');
    writeFileSync(path.join(checkout.root, '.env'), `DATA_DIR=${fromFile}\nAPP_ENV=development\n`);
    writeFileSync(path.join(cwd, '.env'), `DATA_DIR=${fromCwd}\n`);
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: '' };
    delete env.DATA_DIR;
    const cli = (extra: NodeJS.ProcessEnv) =>
      exec(process.execPath, [checkout.file('admin/cli.ts'), '--json', 'sp', 'list'], {
        cwd,
        env: { ...env, ...extra },
      });
    try {
      await cli({});
      expect(existsSync(path.join(fromFile, 'frontdoor.sqlite'))).toBe(true);
      expect(existsSync(fromCwd)).toBe(false);
      await cli({ DATA_DIR: fromEnvironment });
      expect(existsSync(path.join(fromEnvironment, 'frontdoor.sqlite'))).toBe(true);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
      checkout.remove();
    }
  }, 30_000);

  it('is read by npm run seed: a production .env refuses the demo, and no database is touched', async () => {
    const checkout = serverCheckout();
    const cwd = mkdtempSync(path.join(tmpdir(), 'fd-env-seed-'));
    const dataDir = path.join(cwd, 'data');
    writeFileSync(
      path.join(checkout.root, '.env'),
      [
        'APP_ENV=production',
        'PUBLIC_URL=https://login.example.org',
        'SECRET=kL9#mQ2$vX7&nB4!pR8*tY3^wE6@zA1%',
        'SMTP_URL=smtp://mail.example.org:587',
        '',
      ].join('\n'),
    );
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' };
    delete env.APP_ENV;
    const seeded = await exec(process.execPath, [checkout.file('admin/seed.ts')], { cwd, env }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect('code' in seeded && seeded.code).toBe(2);
    expect(existsSync(path.join(dataDir, 'frontdoor.sqlite'))).toBe(false);
    rmSync(cwd, { recursive: true, force: true });
    checkout.remove();
  }, 30_000);

  it('is optional: no file, nothing read', () => {
    const env: NodeJS.ProcessEnv = {};
    expect(readEnvFile(path.join(tmpdir(), 'fd-no-such-dir', '.env'), env)).toEqual([]);
    expect(env).toEqual({});
  });
});

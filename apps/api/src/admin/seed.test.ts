import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../services/demo.ts';

const SEED = path.join(path.dirname(fileURLToPath(import.meta.url)), 'seed.ts');

/** `npm run seed` as a process, on its own data directory. */
function seed(env: Record<string, string>, ...args: string[]) {
  return spawnSync(process.execPath, [SEED, ...args], {
    env: { ...process.env, DATABASE_URL: '', APP_ENV: 'development', PUBLIC_URL: '', PORT: '8080', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('npm run seed (admin/seed.ts) as a process', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fd-seed-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('runs twice without failing, and prints what to open', () => {
    const first = seed({ DATA_DIR: dataDir });
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/Sign in +http:\/\/localhost:8080\/log-in\/[\w-]+/);
    expect(first.stdout).toMatch(/Access code +http:\/\/localhost:8080\/access-code\/[\w-]+ +code \d{6}/);
    expect(first.stdout).toContain('http://localhost:8080/dev/sp');
    expect(first.stdout).toContain('http://localhost:8080/dev/mailbox');
    expect(first.stdout).toContain(
      `${DEMO_ACCOUNTS.student.email}  password ${DEMO_ACCOUNTS.student.password}`,
    );
    expect(first.stdout).toContain('(shown once)');

    const second = seed({ DATA_DIR: dataDir }, '--json');
    expect(second.status).toBe(0);
    const result = JSON.parse(second.stdout);
    expect(result.serviceProvider.created).toBe(false);
    expect(result.accounts.student.created).toBe(false);
    expect(result.loginUrl).toMatch(/^http:\/\/localhost:8080\/log-in\//);
  }, 60_000);

  it('says in one line why it cannot open DATA_DIR, not with a stack trace (exit 1)', () => {
    const file = path.join(dataDir, 'a-file');
    writeFileSync(file, '');
    const res = seed({ DATA_DIR: path.join(file, 'data') });
    expect(res.status).toBe(1);
    expect(res.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^npm run seed: DATA_DIR .*a-file\/data cannot be used \(ENOTDIR/),
    ]);
  }, 30_000);

  it('is refused in production before any database is opened (exit 2)', () => {
    const productionDir = path.join(dataDir, 'production');
    const res = seed({
      DATA_DIR: productionDir,
      APP_ENV: 'production',
      PUBLIC_URL: 'https://portal.frontdoor.test',
      SMTP_URL: 'smtp://127.0.0.1:1',
      SECRET: 'a-production-secret-of-32-bytes-at-least-0123456789',
    });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('development only');
    expect(existsSync(productionDir)).toBe(false);
  }, 30_000);
});

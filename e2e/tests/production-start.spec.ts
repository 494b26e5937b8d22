import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { REPO_ROOT } from '../fixtures/env.ts';
import { en } from '../fixtures/text.ts';
import { freePort, waitForReady } from '../fixtures/server.ts';

/** What a clean copy of the repository holds: no installed packages, no caches, the built SPA. */
const NOT_COPIED = new Set(['node_modules', '.git', 'test-results', 'dist']);
const BUILT_SPA = path.join(REPO_ROOT, 'apps/web/dist');

/** npm with this Node first on PATH, so that the copy runs on the Node that runs the tests. */
const npmEnv = (extra: Record<string, string> = {}) => ({
  ...process.env,
  PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
  ...extra,
});

// issue 13: the production path is `npm run build` once, then `npm run serve` without dev dependencies
test.describe('a production start from a clean copy installed with npm ci --omit=dev', () => {
  test.describe.configure({ timeout: 240_000 });
  let copy = '';
  let server: ChildProcess | undefined;
  test.afterAll(() => {
    // the whole group, npm and the server it started at once (npm passes SIGTERM on too: main.test.ts)
    if (server?.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  test('serves the prerendered sign-in page, which hydrates and moves on to /email', async ({ page }) => {
    copy = mkdtempSync(path.join(tmpdir(), 'fd-production-'));
    cpSync(REPO_ROOT, copy, {
      recursive: true,
      filter: (source) => source === BUILT_SPA || !NOT_COPIED.has(path.basename(source)),
    });
    execFileSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], {
      cwd: copy,
      env: npmEnv(),
      stdio: 'pipe',
      timeout: 180_000,
    });
    // the build tools, the test tools and the SPA's libraries (bundled into apps/web/dist by the build)
    // are dev dependencies: they are not there to lean on
    for (const devOnly of [
      'vite',
      'vitest',
      '@playwright/test',
      'eslint',
      'prettier',
      'react',
      '@sentry/react',
    ]) {
      expect(existsSync(path.join(copy, 'node_modules', devOnly)), devOnly).toBe(false);
    }

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    let output = '';
    server = spawn('npm', ['run', 'serve'], {
      cwd: copy,
      env: npmEnv({
        APP_ENV: 'production',
        SECRET: randomBytes(32).toString('base64'),
        // nothing is mailed in this test; production refuses to start without an SMTP server
        SMTP_URL: 'smtp://127.0.0.1:1',
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: url,
        // an IP host names no sender's domain: production asks for one
        MAIL_FROM: 'Frontdoor <no-reply@portal.test>',
        DATA_DIR: path.join(copy, 'data'),
        LOG_LEVEL: 'warn',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
      // its own process group, so the server npm starts ends with it
      detached: true,
    });
    server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitForReady(url, server, () => output);

    await page.goto(`${url}/log-in`);
    await expect(page.getByRole('heading', { level: 1, name: en.login.heading })).toBeVisible();
    await page.getByRole('link', { name: en.login.continue_with_email }).click();
    await expect(page).toHaveURL(`${url}/email`);
    await expect(page.getByRole('textbox', { name: en.email.email_label })).toBeVisible();
  });
});

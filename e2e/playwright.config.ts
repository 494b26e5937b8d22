import { mkdtempSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH, E2E_ENV, PORTAL_URL, PORT } from './fixtures/env.ts';
import { DATA_DIR_PREFIX } from './fixtures/teardown.ts';

/*
 * The runner evaluates this file first and its workers inherit process.env, so the one fresh
 * data directory chosen here is shared by the server, the admin CLI and every worker.
 */
process.env.FD_E2E_DATA_DIR ??= mkdtempSync(DATA_DIR_PREFIX);

export default defineConfig({
  testDir: './tests',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 7_000 },
  reporter: [['list'], ['./fixtures/count-reporter.ts']],
  outputDir: './test-results',
  globalTeardown: './fixtures/teardown.ts',
  use: {
    baseURL: PORTAL_URL,
    viewport: { width: 1440, height: 900 },
    locale: 'en-US',
    // a trace records every action of every test (about a fifth of the suite's CPU time), and CI keeps
    // no files: ask for one with --trace retain-on-failure when a failure needs it (README.md)
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: CHROMIUM_LAUNCH,
  },
  projects: [{ name: 'chromium' }],
  webServer: {
    // the production start: the built SPA as it is, TypeScript by Node's own type stripping
    command: 'npm run serve',
    cwd: '..',
    url: `http://127.0.0.1:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: { ...E2E_ENV, DATA_DIR: process.env.FD_E2E_DATA_DIR },
  },
});

/**
 * Screenshots of every page at 1440 px and 390 px: starts the real product on a fresh data
 * directory, visits each page of fixtures/pages.ts in the state a person sees it, and writes
 * docs/screenshots/<page>-<width>.png. Run after `npm run build`: npm run screenshots -w @frontdoor/e2e
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_LAUNCH, E2E_ENV, PORTAL_URL, REPO_ROOT } from './fixtures/env.ts';
import { PAGE_VISITS } from './fixtures/pages.ts';
import { createLoginRequest, registerProduct, startProduct } from './fixtures/product.ts';

const WIDTHS = [
  { width: 1440, height: 900, isMobile: false },
  { width: 390, height: 844, isMobile: true },
] as const;
const OUT = path.join(REPO_ROOT, 'docs/screenshots');

async function waitForHealth(deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${PORTAL_URL}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the product did not answer ${PORTAL_URL}/healthz`);
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'frontdoor-shots-'));
  process.env.FD_E2E_DATA_DIR = dataDir;
  const server = spawn(process.execPath, ['apps/api/src/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...E2E_ENV, DATA_DIR: dataDir },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const product = await startProduct();
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    await waitForHealth(Date.now() + 60_000);
    const sp = await registerProduct(product);
    let emails = 0;
    const ctx = {
      loginCsrf: () => createLoginRequest(sp, product.returnUrl('screenshots')),
      // stable names on a fresh database: an image changes only when its page does
      email: (tag: string) => `${tag}.${(emails += 1)}@school.example`,
    };
    mkdirSync(OUT, { recursive: true });
    const only = process.argv.slice(2);
    for (const visit of PAGE_VISITS.filter((v) => only.length === 0 || only.includes(v.name))) {
      for (const size of WIDTHS) {
        const context = await browser.newContext({
          baseURL: PORTAL_URL,
          viewport: { width: size.width, height: size.height },
          isMobile: size.isMobile,
          hasTouch: size.isMobile,
          locale: 'en-US',
        });
        const page = await context.newPage();
        const file = path.join(OUT, `${visit.name}-${size.width}.png`);
        try {
          await visit.visit(page, ctx);
          // what loads after hydration (the non-production stamp, a lazy chunk) is in the image, not
          // left to a race
          await page.waitForLoadState('networkidle');
          await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
          console.info(`wrote ${path.relative(REPO_ROOT, file)}`);
        } catch (err) {
          console.error(
            `FAILED ${visit.name} at ${size.width} px: ${err instanceof Error ? err.message : String(err)}`,
          );
          process.exitCode = 1;
        } finally {
          await context.close();
        }
      }
    }
  } finally {
    await browser.close();
    await product.close();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

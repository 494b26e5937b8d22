import { existsSync } from 'node:fs';
import { chromium, type Page } from '@playwright/test';
import { appTookOver, expect, test } from '../fixtures/index.ts';
import { createUser } from '../fixtures/admin.ts';
import { STRONG_PASSWORD, uniqueEmail } from '../fixtures/emails.ts';
import { CHROMIUM_LAUNCH, PORTAL_URL } from '../fixtures/env.ts';
import { continueWithEmail, signInWithPassword } from '../fixtures/flows.ts';
import { en } from '../fixtures/text.ts';

/**
 * Playwright turns Chromium's back/forward cache off; the browsers students use keep it on. This
 * file's browser keeps it, so Back to a page left for another document shows the cache's copy, as a
 * student's Chromebook would, and the page notes in its tab's storage that it came from the cache.
 */
/** The headless shell of the other tests never shows a page from the cache: the full browser does. */
const FULL_CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function pageWithBackForwardCache() {
  const browser = await chromium.launch({
    ...CHROMIUM_LAUNCH,
    executablePath: FULL_CHROMIUM,
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
  });
  const page = await (await browser.newContext({ baseURL: PORTAL_URL, locale: 'en-US' })).newPage();
  await page.addInitScript(() =>
    addEventListener('pageshow', (event) => {
      if (event.persisted) sessionStorage.setItem('e2e-restored', String(Date.now()));
    }),
  );
  return { browser, page };
}

const cameFromTheCache = (page: Page) => page.evaluate(() => sessionStorage.getItem('e2e-restored'));

async function backFromCache(page: Page, to: RegExp): Promise<void> {
  await page.evaluate(() => sessionStorage.removeItem('e2e-restored'));
  await page.goBack();
  await expect(page).toHaveURL(to);
  await expect
    .poll(() => cameFromTheCache(page), {
      message: `Back showed no page from the back/forward cache: ${FULL_CHROMIUM} must be a full Chromium (CHROMIUM_PATH)`,
    })
    .not.toBeNull();
  await appTookOver(page);
}

test.describe("Back to a page from the browser's back/forward cache", () => {
  test.skip(
    !existsSync(FULL_CHROMIUM),
    `no full Chromium at ${FULL_CHROMIUM} (the headless shell has no back/forward cache)`,
  );
  test('a mistyped email: Back from the password page, correct it, and Continue goes on; Back after signing in shows the password page loaded anew, empty', async ({
    loginRequest,
  }) => {
    const email = uniqueEmail('bfcache');
    // the address typed by mistake is another account's (a classmate's, a sibling's)
    const mistyped = uniqueEmail('bfcache-other');
    for (const address of [email, mistyped]) await createUser({ email: address, password: STRONG_PASSWORD });
    const { csrf } = await loginRequest();
    const { browser, page } = await pageWithBackForwardCache();
    try {
      await page.goto(`/log-in/${csrf}`);
      await appTookOver(page);
      await page.getByRole('link', { name: en.login.continue_with_email }).click();
      await continueWithEmail(page, mistyped);
      // the authorization server's password page: another document than this one
      await expect(page).toHaveURL(/\/sign-in\//);
      await backFromCache(page, /\/email/);
      const cont = page.getByRole('button', { name: en.email.submit, exact: true });
      await expect(cont).not.toHaveAttribute('aria-busy', 'true');
      await continueWithEmail(page, email);
      await signInWithPassword(page, email, STRONG_PASSWORD);
      await expect(page).toHaveURL(/\/post-login/);
      await backFromCache(page, /\/sign-in\//);
      await expect(page.getByLabel(en.signIn.password_label, { exact: true })).toHaveValue('');
      await expect(page.getByRole('button', { name: en.signIn.submit, exact: true })).not.toHaveAttribute(
        'aria-busy',
        'true',
      );
    } finally {
      await browser.close();
    }
  });
});

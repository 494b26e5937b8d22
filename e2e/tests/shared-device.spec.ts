import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { chromium } from '@playwright/test';
import { appTookOver, expect, test } from '../fixtures/index.ts';
import { continueWithEmail, signInWithPassword } from '../fixtures/flows.ts';
import { createUser } from '../fixtures/admin.ts';
import { STRONG_PASSWORD, uniqueEmail } from '../fixtures/emails.ts';
import { CHROMIUM_LAUNCH, PORTAL_URL } from '../fixtures/env.ts';
import { en } from '../fixtures/text.ts';

/**
 * A shared classroom Chromebook: what the browser keeps after a pupil signs in with their email. The
 * History database (the address bar's suggestions for the next pupil) is the full browser's, on
 * disk: the headless shell keeps none.
 */
test.describe('a shared device keeps no address (spec §7 provider authorize url)', () => {
  test('an email sign-in: the authorize request is a POST, Back from the password page is no resubmission, and no URL in History names the address', async () => {
    const email = uniqueEmail('pupil');
    await createUser({ email, password: STRONG_PASSWORD });
    const profile = mkdtempSync(join(tmpdir(), 'fd-e2e-profile-'));
    try {
      const context = await chromium.launchPersistentContext(profile, {
        ...CHROMIUM_LAUNCH,
        executablePath: '/usr/bin/chromium',
        baseURL: PORTAL_URL,
        locale: 'en-US',
      });
      const page = context.pages()[0] ?? (await context.newPage());
      // this page is not the fixture's, whose goto waits for the app to take over: typed into the
      // prerendered field while the app hydrates, the address met the remembered one and doubled
      const visit = async (path: string) => {
        await page.goto(path);
        await appTookOver(page);
      };
      const navigations: string[] = [];
      page.on('request', (request) => {
        if (request.isNavigationRequest()) navigations.push(`${request.method()} ${request.url()}`);
      });
      await visit('/email');
      await continueWithEmail(page, email);
      await expect(page).toHaveURL(/\/sign-in\/[^/?#]+$/);
      expect(navigations).toContain(`POST ${PORTAL_URL}/oidc/oauth2/authorize`);

      // the endpoint answered the POST with a redirect: Back is the email page, not a resubmission
      await page.goBack();
      await expect(page).toHaveURL(/\/email$/);
      await expect(page.getByRole('heading', { name: en.email.title })).toBeVisible();
      await page.goForward();
      await expect(page).toHaveURL(/\/sign-in\//);

      await visit('/email');
      await continueWithEmail(page, email);
      await signInWithPassword(page, email, STRONG_PASSWORD);
      await expect(page).toHaveURL(/\/post-login(\/|$)/);
      expect(navigations.filter((n) => decodeURIComponent(n).includes(email))).toEqual([]);
      await context.close();

      const history = new DatabaseSync(join(profile, 'Default', 'History'), { readOnly: true });
      const urls = history
        .prepare('SELECT url FROM urls')
        .all()
        .map((row) => String(row.url));
      history.close();
      expect(urls.some((url) => url.includes('/sign-in/'))).toBe(true);
      expect(urls.filter((url) => decodeURIComponent(url).includes(email))).toEqual([]);
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
  });
});

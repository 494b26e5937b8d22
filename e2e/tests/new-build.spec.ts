import type { Page } from '@playwright/test';
import { messages } from '@frontdoor/contract';
import { expect, test } from '../fixtures/index.ts';
import { fillSignupForm } from '../fixtures/flows.ts';
import { STRONG_PASSWORD, uniqueEmail } from '../fixtures/emails.ts';
import { languageChoice, languageTrigger } from '../fixtures/shell.ts';
import { catalogs, en } from '../fixtures/text.ts';

/**
 * An old tab after an upgrade: the files its build named are gone (404), while the server answers.
 * `pattern`'s files answer 404 until the page has loaded again, as the new build's would then arrive.
 */
async function buildReplaced(page: Page, pattern: string): Promise<void> {
  let reloaded = false;
  // the page's own document asked again (a route change in the app asks for none)
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) reloaded = true;
  });
  await page.route(pattern, (route) =>
    reloaded ? route.continue() : route.fulfill({ status: 404, body: 'Not Found' }),
  );
  // gone with the document a reload replaces
  await page.evaluate(() => Object.assign(window, { fdOldDocument: true }));
}

/** Whether the page is still the document of before; asked during the reload, it is not yet the new one. */
const isOldDocument = (page: Page) =>
  page
    .evaluate(() => (window as unknown as { fdOldDocument?: boolean }).fdOldDocument === true)
    .catch(() => true);

test.describe('an old tab after an upgrade (files of the build it was loaded from are gone)', () => {
  test('the language menu, whose file is gone, loads the page again instead of saying the connection failed', async ({
    page,
  }) => {
    await page.goto('/log-in');
    await buildReplaced(page, '**/static/LanguageMenuPopup-*.js');
    await languageTrigger(page).click();
    await expect.poll(() => isOldDocument(page)).toBe(false);
    await expect(page).toHaveURL(/\/log-in$/);
    await expect(page.getByRole('heading', { level: 1, name: catalogs.login.en.heading })).toBeVisible();
    await expect(page.getByText(messages.networkError)).toHaveCount(0);
    // and the menu opens now, from the new build
    await languageTrigger(page).click();
    await expect(languageChoice(page, 'Français')).toBeVisible();
  });

  test('the next page of a flow, whose file is gone, loads again at its own address, not the network error page', async ({
    page,
  }) => {
    await page.goto('/create-account');
    await fillSignupForm(
      page,
      { first: 'Ada', last: 'Lovelace', email: uniqueEmail('new-build') },
      STRONG_PASSWORD,
    );
    await buildReplaced(page, '**/static/CodePage-*.js');
    await page.getByRole('button', { name: en.signup.submit }).click();
    await expect.poll(() => isOldDocument(page)).toBe(false);
    await expect(page.getByRole('heading', { name: en.verification.code_title })).toBeVisible();
    await expect(page.getByText(messages.networkError)).toHaveCount(0);
  });

  test('a language whose texts are gone loads the page again, and the choice then works', async ({
    page,
  }) => {
    await page.goto('/log-in');
    await languageTrigger(page).click();
    await buildReplaced(page, '**/static/fr-*.js');
    await languageChoice(page, 'Français').click();
    await expect.poll(() => isOldDocument(page)).toBe(false);
    await expect(page).toHaveURL(/\/log-in$/);
    await languageTrigger(page).click();
    await languageChoice(page, 'Français').click();
    await expect(page.getByRole('heading', { level: 1, name: catalogs.login.fr.heading })).toBeVisible();
  });
});

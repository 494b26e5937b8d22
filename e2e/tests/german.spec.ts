import { expectNoSeriousA11yViolations } from '../fixtures/axe.ts';
import { expect, test } from '../fixtures/index.ts';
import { expectCurrentLanguage, languageChoice, languageTrigger } from '../fixtures/shell.ts';
import { catalogs, en } from '../fixtures/text.ts';
import * as errors from '../../packages/contract/src/message-catalogs.ts';

const de = {
  login: catalogs.login.de,
  signup: catalogs.signup.de,
  common: catalogs.common.de,
  errors: errors.de,
};

test.describe('German, the seventh bundled language (issue 12)', () => {
  test('the server answers /log-in?locale=de with the prerendered German page', async ({ request }) => {
    // as a browser asks for a page (the server answers HTML only to requests accepting it)
    const response = await request.get('/log-in?locale=de', { headers: { accept: 'text/html' } });
    expect(response.status()).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<html[^>]* lang="de"/);
    // the heading is in the HTML itself, before any script runs
    expect(html).toContain(de.login.heading);
  });

  test('/log-in?locale=de shows the German heading and marks Deutsch current in the menu', async ({
    page,
  }) => {
    await page.goto('/log-in?locale=de');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    await expect(page.getByRole('heading', { level: 1, name: de.login.heading })).toBeVisible();
    await languageTrigger(page, 'de').click();
    await expectCurrentLanguage(page, 'Deutsch', true);
    await expectCurrentLanguage(page, 'English', false);
  });

  for (const width of [1440, 390]) {
    test(`at ${width} px the language menu lists Deutsch with its flag, and choosing it switches the page`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/log-in');
      await expect(page.getByRole('heading', { name: en.login.heading })).toBeVisible();
      await languageTrigger(page).click();
      const deutsch = languageChoice(page, 'Deutsch');
      await expect(deutsch).toBeVisible();
      // §3 language option: a flag image beside the name; its stripes prove it is Germany's, not the globe
      const stripes = await deutsch.locator('img').evaluate(async (img: HTMLImageElement) => {
        await img.decode();
        const canvas = document.createElement('canvas');
        [canvas.width, canvas.height] = [60, 40];
        const context = canvas.getContext('2d');
        context?.drawImage(img, 0, 0, 60, 40);
        return [7, 20, 33].map((y) => [...(context?.getImageData(30, y, 1, 1).data.slice(0, 3) ?? [])]);
      });
      expect(stripes).toEqual([
        [0x00, 0x00, 0x00],
        [0xdd, 0x00, 0x00],
        [0xff, 0xce, 0x00],
      ]);
      await deutsch.click();
      await expect(page.locator('html')).toHaveAttribute('lang', 'de');
      await expect(page.getByRole('heading', { name: de.login.heading })).toBeVisible();
      await expect(page.getByRole('link', { name: de.login.continue_with_email })).toBeVisible();
    });
  }

  test('create-account in German: its errors are German, and axe finds no serious violation', async ({
    page,
  }) => {
    await page.goto('/create-account?locale=de');
    await expect(page.getByRole('heading', { level: 1, name: de.signup.title })).toBeVisible();
    await page.getByRole('button', { name: de.signup.submit }).click();
    await expect(page.getByText(de.common.error_summary_title)).toBeVisible();
    await expect(page.getByText(de.errors.firstNameRequired).first()).toBeVisible();
    await expect(page.getByText(en.signup.first_label, { exact: true })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, 'create-account-errors-de');
  });

  test("a later page's own contract messages come in German with the page (its catalogs' second part)", async ({
    page,
  }) => {
    await page.goto('/validate?locale=de&email=schueler%40school.example');
    await expect(page.getByText(de.errors.verifyCodeParamMissing).first()).toBeVisible();
    await expect(page.getByText('verifyCodeParamMissing')).toHaveCount(0);
  });
});

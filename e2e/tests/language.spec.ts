import type { Browser, Page } from '@playwright/test';
import { appTookOver, expect, test } from '../fixtures/index.ts';
import { signInAtDevIdp } from '../fixtures/flows.ts';
import { codeOf, linkTo, waitForMail } from '../fixtures/mailbox.ts';
import { STRONG_PASSWORD, uniqueEmail } from '../fixtures/emails.ts';
import { languageTrigger } from '../fixtures/shell.ts';
import { catalogs, fill } from '../fixtures/text.ts';
import { es as esErrors } from '../../packages/contract/src/message-catalogs.ts';
import { es as esMail } from '../../apps/api/src/mail/templates/es.ts';

/** A page of a fresh browser whose languages are `locale` (navigator.languages and Accept-Language). */
async function browserIn(browser: Browser, locale: string): Promise<Page> {
  const context = await browser.newContext({ locale });
  return context.newPage();
}

/** Opens `path` and waits until the app has taken the page over, as the fixture's page.goto does. */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await appTookOver(page);
}

/** The page is in `lang`: <html lang dir> and the language menu's name say so. */
async function expectLanguage(page: Page, lang: 'es' | 'fr' | 'ar', dir: 'ltr' | 'rtl' = 'ltr') {
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  await expect(page.locator('html')).toHaveAttribute('dir', dir);
  await expect(languageTrigger(page, lang)).toBeVisible();
}

test.describe("the family's language (issue 12, finding 7)", () => {
  test('a browser set to es-ES opens /log-in in Spanish, and the app keeps it once it takes over', async ({
    browser,
  }) => {
    const page = await browserIn(browser, 'es-ES');
    await open(page, '/log-in');
    await expect(page.getByRole('heading', { level: 1, name: catalogs.login.es.heading })).toBeVisible();
    await expectLanguage(page, 'es');
    // a page the server does not prerender: the app picks the language itself
    await open(page, '/forgot-password?email=ana%40school.example');
    await expectLanguage(page, 'es');
    await page.context().close();
  });

  test('a browser set to ar-EG opens the portal in right-to-left Arabic', async ({ browser }) => {
    const page = await browserIn(browser, 'ar-EG');
    await open(page, '/log-in');
    await expect(page.getByRole('heading', { level: 1, name: catalogs.login.ar.heading })).toBeVisible();
    await expectLanguage(page, 'ar', 'rtl');
    await page.context().close();
  });

  test("a refused sign-in step (the server's own page) is in Spanish, and its way back leads to Spanish sign-in", async ({
    browser,
  }) => {
    const page = await browserIn(browser, 'es-ES');
    const res = await page.goto('/api/auth/callback?code=stolen-code&state=forged-state');
    expect(res?.status()).toBe(400);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('heading', { level: 1, name: esErrors.signInStopped })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText(esErrors.stateInvalid);
    await page.getByRole('link', { name: esErrors.backToSignIn }).click();
    await expect(page.getByRole('heading', { level: 1, name: catalogs.login.es.heading })).toBeVisible();
    await page.context().close();
  });

  test('?locale=fr is kept: pages opened after it, without it, stay French', async ({ page }) => {
    await page.goto('/log-in?locale=fr');
    await expect(page.getByRole('heading', { level: 1, name: catalogs.login.fr.heading })).toBeVisible();
    await page.goto('/email');
    await expect(page.getByRole('heading', { level: 1, name: catalogs.email.fr.title })).toBeVisible();
    await expectLanguage(page, 'fr');
    await page.goto('/log-in');
    await expect(page.getByRole('heading', { level: 1, name: catalogs.login.fr.heading })).toBeVisible();
  });

  test('the way through an identity provider comes back in the language chosen before leaving', async ({
    page,
    loginRequest,
  }) => {
    const { csrf } = await loginRequest({ journey: 'Google' });
    await page.goto(`/log-in/${csrf}?locale=fr`);
    await page
      .getByRole('button', { name: fill(catalogs.login.fr.continue_with, { provider: 'Google' }) })
      .click();
    await signInAtDevIdp(page, 'Google', { first: 'Inès', last: 'Roux', email: uniqueEmail('lang-idp') });
    await expect(page).toHaveURL(new RegExp(`/post-login/${csrf}$`));
    await expect(page.getByRole('heading', { name: catalogs.postLogin.fr.student_question })).toBeVisible();
    await expectLanguage(page, 'fr');
  });

  test('a sign-up in Spanish mails a link that opens /validate in Spanish, in any browser', async ({
    browser,
  }) => {
    const page = await browserIn(browser, 'es-ES');
    const email = uniqueEmail('lang-signup');
    const text = catalogs.signup.es;
    await open(page, '/create-account');
    await page.getByLabel(text.first_label, { exact: true }).fill('Ana');
    await page.getByLabel(text.last_label, { exact: true }).fill('García');
    await page.getByLabel(text.email_label, { exact: true }).fill(email);
    await page.getByLabel(text.password_label, { exact: true }).fill(STRONG_PASSWORD);
    await page.getByLabel(text.confirm_label, { exact: true }).fill(STRONG_PASSWORD);
    await page.getByRole('radio', { name: text.description_teacher, exact: true }).check();
    await page.getByRole('button', { name: text.submit }).click();
    await expect(page).toHaveURL(/\/code/);
    await page.context().close();

    const mail = await waitForMail(email, { subject: new RegExp(esMail.verify.subject) });
    const link = linkTo(mail, '/validate');
    expect(link.searchParams.get('vc')).toBe(codeOf(mail));
    expect(link.searchParams.get('locale')).toBe('es');

    // opened on a phone set to English: the link's language wins, and stays
    const phone = await browserIn(browser, 'en-US');
    await open(phone, link.toString());
    await expect(phone.getByRole('heading', { level: 1, name: catalogs.validate.es.title })).toBeVisible();
    await phone.getByRole('button', { name: catalogs.validate.es.submit }).click();
    await expect(
      phone.getByRole('main').getByText(esErrors.verifyPageSuccess, { exact: true }),
    ).toBeVisible();
    await expectLanguage(phone, 'es');
    await open(phone, '/log-in');
    await expect(phone.getByRole('heading', { level: 1, name: catalogs.login.es.heading })).toBeVisible();
    await phone.context().close();
  });
});

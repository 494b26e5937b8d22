// @playwright/test's own page: the fixtures' goto waits for the app to take over, which is the point here
import { expect, test, type Page } from '@playwright/test';
import { STRONG_PASSWORD, uniqueEmail } from '../fixtures/emails.ts';
import { en, providerButton } from '../fixtures/text.ts';
import { NOSCRIPT_NOTICE } from '../../apps/web/src/lib/i18n/noscript-notice.ts';
// the fixtures' test for the check of hydration itself: it needs a product's login request
import {
  PORTAL_URL,
  expectBackOnProduct,
  expectSignedInAs,
  openLoginRequest,
  savedLoginData,
  test as withProduct,
} from '../fixtures/index.ts';
import { continueWithEmail, nextAuthorizeRequest, signInAsStudentAndReturn } from '../fixtures/flows.ts';
import { createAccessCode, createUser } from '../fixtures/admin.ts';

/**
 * A school Chromebook on a crowded network: the prerendered page shows (and takes input) long before
 * its scripts arrive. Here the first chunk is held back for two seconds; what the student does meanwhile
 * must neither be lost nor submit the form natively (its fields would go into the URL).
 */
async function slowScripts(page: Page): Promise<{ release: () => void }> {
  const waiting: (() => void)[] = [];
  let released = false;
  // the handler returns at once and the request goes on later: a handler that awaited would hold
  // back every other event of the page too
  await page.route(/\/static\/index-[^/]+\.js$/, (route) => {
    const go = () => void route.continue().catch(() => undefined);
    if (released) go();
    else waiting.push(go);
  });
  return {
    release: () => {
      released = true;
      waiting.splice(0).forEach((go) => go());
    },
  };
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test("the notice's first line is in view, below the prerendered page's top bar", async ({ page }) => {
    await page.goto('/log-in');
    // inside <noscript>, which the text and role engines do not read
    const notice = page.locator('p.noscript-notice');
    await expect(notice).toHaveText(NOSCRIPT_NOTICE.en);
    const bar = await page.getByRole('banner').boundingBox();
    const text = await notice.boundingBox();
    expect(text?.y ?? 0).toBeGreaterThanOrEqual((bar?.y ?? 0) + (bar?.height ?? 0));
  });

  test("the notice is in the page's language, the one a screen reader reads it in", async ({ page }) => {
    for (const language of ['de', 'ar'] as const) {
      await page.goto(`/log-in?locale=${language}`);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await expect(page.locator('p.noscript-notice')).toHaveText(NOSCRIPT_NOTICE[language]);
    }
  });

  test('a form sent by the browser itself puts nothing typed into an address: the page comes again', async ({
    page,
  }) => {
    const addresses: string[] = [];
    page.on('request', (request) => addresses.push(request.url()));
    await page.goto('/create-account');
    await page.getByLabel(en.signup.email_label, { exact: true }).fill('no-script@school.test');
    await page.getByLabel(en.signup.password_label, { exact: true }).fill(STRONG_PASSWORD);
    await page.getByLabel(en.signup.confirm_label, { exact: true }).press('Enter');
    await expect(page).toHaveURL(/\/create-account$/);
    await page.goto('/access-code');
    await page.getByRole('textbox').fill('123456');
    await page.getByRole('textbox').press('Enter');
    await expect(page).toHaveURL(/\/access-code$/);
    // a GET form would have sent ?email=…&pw=… and ?code=…
    for (const address of addresses) {
      expect(address).not.toContain('no-script');
      expect(address).not.toContain('123456');
      expect(address).not.toContain('pw=');
    }
  });
});

test.describe('presses before the app has hydrated (issue 10, a prerendered page on a slow network)', () => {
  test('Enter on /email before hydration never puts the address in the URL, and goes on once hydrated', async ({
    page,
  }) => {
    const scripts = await slowScripts(page);
    const email = uniqueEmail('early');
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    // the prerendered page is there to type into; its load events wait for the held script
    await page.goto('/email', { waitUntil: 'commit' });
    await expect(page.getByRole('heading', { name: en.email.title })).toBeVisible();
    await page.getByLabel(en.email.email_label, { exact: true }).fill(email);
    await page.getByLabel(en.email.email_label, { exact: true }).press('Enter');
    // held: still /email, no native GET submission of the form
    await page.waitForTimeout(300);
    await expect(page).toHaveURL(/\/email$/);
    scripts.release();

    // the held press is pressed again once hydrated: a new address goes on to the sign-up form
    await expect(page).toHaveURL(/\/create-account(\/|$)/);
    expect(urls.filter((url) => url.includes(encodeURIComponent(email)) || url.includes(email))).toEqual([]);
  });

  test('a press of "Continue with Google" on /log-in before hydration starts the sign-in once hydrated', async ({
    page,
  }) => {
    const scripts = await slowScripts(page);
    await page.goto('/log-in', { waitUntil: 'commit' });
    await expect(page.getByRole('heading', { name: en.login.heading })).toBeVisible();
    const authorize = nextAuthorizeRequest(page);
    await page.getByRole('button', { name: providerButton('Google') }).click();
    scripts.release();
    expect((await authorize).get('identity_provider')).toBe('Google');
  });

  test('the whole /create-account form, its radio choice included, filled and sent before hydration, creates the account once hydrated', async ({
    page,
  }) => {
    const scripts = await slowScripts(page);
    await page.goto('/create-account', { waitUntil: 'commit' });
    await expect(page.getByRole('heading', { name: en.signup.title })).toBeVisible();
    await page.getByLabel(en.signup.first_label, { exact: true }).fill('Early');
    await page.getByLabel(en.signup.last_label, { exact: true }).fill('Bird');
    await page.getByLabel(en.signup.email_label, { exact: true }).fill(uniqueEmail('early-signup'));
    await page.getByLabel(en.signup.password_label, { exact: true }).fill(STRONG_PASSWORD);
    await page.getByLabel(en.signup.confirm_label, { exact: true }).fill(STRONG_PASSWORD);
    // held: React would uncheck a radio chosen now as it hydrates; the app chooses it again
    const student = page.getByRole('radio', { name: en.signup.description_student, exact: true });
    await student.click();
    await page.getByRole('button', { name: en.signup.submit }).click();
    await page.waitForTimeout(300);
    await expect(page).toHaveURL(/\/create-account$/);
    scripts.release();

    await expect(page).toHaveURL(/\/code$/);
  });
});

withProduct.describe(
  'a {csrf} page before its scripts arrive (a product sends a student to /log-in/{csrf})',
  () => {
    withProduct(
      '/log-in/{csrf} shows its page at once, no csrf baked in, then signs in for the product once hydrated',
      async ({ page, loginRequest }) => {
        const { csrf, returnUrl } = await loginRequest();
        const scripts = await slowScripts(page);
        const served = page.waitForResponse((response) => response.url().endsWith(`/log-in/${csrf}`));
        // the fixtures' goto would wait for the app to take over, which the held scripts put off
        await page.evaluate((url) => window.location.assign(url), `${PORTAL_URL}/log-in/${csrf}`);
        expect(await (await served).text()).not.toContain(csrf);
        // the prerendered page, its sign-in options waiting for the product's login request
        await expect(page.getByRole('heading', { name: en.login.heading })).toBeVisible();
        const google = page.getByRole('button', { name: providerButton('Google') });
        await expect(google).toHaveAttribute('aria-disabled', 'true');
        scripts.release();

        const getCsrf = page.waitForRequest((r) => r.url().includes('/api/social/get_csrf'));
        await google.click();
        const asked = new URL((await getCsrf).url()).searchParams;
        expect(asked.get('r')).toBe(returnUrl);
        expect(asked.get('c')).toBe(csrf);
      },
    );

    withProduct(
      '/log-in/{csrf}: "Continue with Email" pressed before the scripts arrive goes on once hydrated, and the sign-in returns to the product',
      async ({ page, loginRequest }) => {
        const student = uniqueEmail('early-email-link');
        await createUser({ email: student, password: STRONG_PASSWORD });
        const { csrf, returnUrl } = await loginRequest();
        const scripts = await slowScripts(page);
        await page.evaluate((url) => window.location.assign(url), `${PORTAL_URL}/log-in/${csrf}`);
        await expect(page.getByRole('heading', { name: en.login.heading })).toBeVisible();
        await page.getByRole('link', { name: en.login.continue_with_email }).click();
        // held: followed natively, the link would leave before the product's request was fetched
        await page.waitForTimeout(300);
        await expect(page).toHaveURL(new RegExp(`/log-in/${csrf}$`));
        scripts.release();

        await expect(page).toHaveURL(/\/email$/);
        await expect.poll(async () => (await savedLoginData(page)).csrf).toBe(csrf);
        await continueWithEmail(page, student);
        await signInAsStudentAndReturn(page, student, STRONG_PASSWORD, returnUrl);
      },
    );

    withProduct(
      '/access-code/{csrf}: a class code typed and sent before the scripts arrive signs the student in once they do, without a second press',
      async ({ page, sp, loginRequest }) => {
        const student = uniqueEmail('early-code');
        await createUser({ email: student, password: STRONG_PASSWORD });
        const { code } = await createAccessCode(sp.sp_id, student);
        const { csrf, returnUrl } = await loginRequest();
        const scripts = await slowScripts(page);
        await page.evaluate((url) => window.location.assign(url), `${PORTAL_URL}/access-code/${csrf}`);
        await expect(page.getByRole('heading', { name: en.accessCode.title })).toBeVisible();
        const field = page.getByLabel(en.accessCode.code_label);
        await field.fill(code);
        await field.press('Enter');
        scripts.release();
        // the app takes over, fetches the product's sign-in request and then sends the code it held
        await expectBackOnProduct(page, returnUrl);
        await expectSignedInAs(page, student);
      },
    );
  },
);

/** The prerendered pages (apps/web/src/prerender.tsx), each with the {csrf} segment where its route takes one. */
const PRERENDERED = [
  { path: '/log-in', csrf: true },
  { path: '/', csrf: false },
  { path: '/email', csrf: false },
  { path: '/create-account', csrf: true },
  { path: '/access-code', csrf: true },
];

withProduct.describe('hydration matches the prerendered page (no React error #418)', () => {
  withProduct(
    'every prerendered page, with and without its {csrf} segment, in a fresh browser and in one holding a sign-in request, logs no error',
    async ({ page, loginRequest }) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
      const visit = async (path: string) => {
        // the fixtures' goto waits until React has taken the page over
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      };
      for (const { path } of PRERENDERED) await visit(path);
      // a csrf this browser does not hold: the page hydrates with its params loading
      for (const { path } of PRERENDERED.filter((page) => page.csrf)) {
        await visit(`${path}/${(await loginRequest()).csrf}`);
      }
      // storage now holds a product's request (§3), which the server's markup could not know of
      const { csrf } = await loginRequest();
      await openLoginRequest(page, csrf);
      for (const { path, csrf: takesCsrf } of PRERENDERED) {
        await visit(path);
        if (takesCsrf) await visit(`${path}/${csrf}`);
      }
      expect(errors).toEqual([]);
    },
  );
});

import { messages } from '@frontdoor/contract';
import type { Page } from '@playwright/test';
import { expect, openLoginRequest, test } from '../fixtures/index.ts';
import {
  MAIL_SUBJECTS,
  continueWithEmail,
  setNewPassword,
  signInAsStudentAndReturn,
} from '../fixtures/flows.ts';
import { createUser } from '../fixtures/admin.ts';
import { codeOf, linkTo, waitForMail } from '../fixtures/mailbox.ts';
import { OTHER_STRONG_PASSWORD, STRONG_PASSWORD, uniqueEmail } from '../fixtures/emails.ts';
import { en, fill } from '../fixtures/text.ts';

/**
 * From the password page: 'Forgot password?' → the forgotPassword URL → the reset mail. The
 * forgotPassword URL is sent as a POST and the page it leads to names no address: every URL the
 * browser went to from there (what a shared device's history keeps) is without it.
 */
async function forgotPassword(page: Page, email: string) {
  await page.goto('/email');
  await continueWithEmail(page, email);
  await expect(page).toHaveURL(/\/sign-in\//);
  const navigations: Array<{ method: string; url: string }> = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest()) navigations.push({ method: request.method(), url: request.url() });
  });
  await page.getByRole('link', { name: en.signIn.forgot }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByText(fill(en.passwordReset.forgot_body, { email }))).toBeVisible();
  expect(navigations.map(({ method, url }) => `${method} ${new URL(url).pathname}`)).toEqual([
    'POST /oidc/forgotPassword',
    'GET /forgot-password',
  ]);
  expect(navigations.filter(({ url }) => decodeURIComponent(url).includes(email))).toEqual([]);
  return waitForMail(email, { subject: MAIL_SUBJECTS.reset });
}

test.describe('password reset (§2 password-reset, §8 reset failures)', () => {
  test('Forgot password? → the link of the mail → the mailed code → new password → sign in with it; no address the browser kept holds the code', async ({
    page,
    loginRequest,
  }) => {
    const email = uniqueEmail('forgot');
    await createUser({ email, password: STRONG_PASSWORD });
    const { csrf, returnUrl } = await loginRequest();
    // the login request is remembered (login_csrf, login_params) before the reset starts
    await openLoginRequest(page, csrf);
    await expect(page.getByRole('heading', { name: en.login.heading })).toBeVisible();

    const mail = await forgotPassword(page, email);
    const code = codeOf(mail);
    // a link holding the code would stay in a shared device's history: the code is typed
    const link = linkTo(mail, '/forgot-password');
    expect(link.searchParams.get('email')).toBe(email);
    expect(link.toString()).not.toContain(code);

    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(frame.url());
    });
    await page.goto(link.toString());
    await page.getByLabel(en.passwordReset.code_label).fill(code);
    await page.getByRole('button', { name: en.passwordReset.forgot_submit }).click();
    await expect(page.getByRole('heading', { name: en.passwordReset.title })).toBeVisible();
    expect(visited.length).toBeGreaterThanOrEqual(2);
    expect(visited.filter((url) => url.includes(code))).toEqual([]);
    // nor the address: the mail's link names it (a tab of its own has nothing else), the page after it not
    await expect(page).toHaveURL(/\/password-reset$/);
    expect(
      visited.filter((url) => url.includes('/password-reset') && decodeURIComponent(url).includes(email)),
    ).toEqual([]);
    await setNewPassword(page, OTHER_STRONG_PASSWORD);
    await signInAsStudentAndReturn(page, email, OTHER_STRONG_PASSWORD, returnUrl);
  });

  test("a wrong code → 'Invalid code provided, please request a code again.' → 'Request new verification code' sends a new one", async ({
    page,
  }) => {
    const email = uniqueEmail('badcode');
    await createUser({ email, password: STRONG_PASSWORD });
    const real = codeOf(await forgotPassword(page, email));
    const wrong = `${(Number(real[0]) + 1) % 10}${real.slice(1)}`;

    await page.goto(`/password-reset?code=${wrong}&email=${encodeURIComponent(email)}`);
    await setNewPassword(page, OTHER_STRONG_PASSWORD);

    await expect(page.getByText(messages.invalidCodeRequestAgain, { exact: true })).toBeVisible();
    await expect(page.getByText(messages.invalidVerificationCode)).toHaveCount(0);
    await page
      .getByRole('link', { name: messages.requestNewVerificationCode })
      .or(page.getByRole('button', { name: messages.requestNewVerificationCode }))
      .click();
    await expect(
      page.getByRole('main').getByText(messages.resetResendSuccess, { exact: true }),
    ).toBeVisible();

    // within the server's resend cooldown no second mail is sent; the newest mailed code must still work
    const newest = await waitForMail(email, { subject: MAIL_SUBJECTS.reset });
    await page.goto(`/password-reset?code=${codeOf(newest)}&email=${encodeURIComponent(email)}`);
    await setNewPassword(page, OTHER_STRONG_PASSWORD);
    await expect(page).toHaveURL(/\/sign-in\//);
  });

  test('the new password must follow the §5 rules and match its confirmation', async ({ page }) => {
    await page.goto(`/password-reset?code=12345678&email=${encodeURIComponent(uniqueEmail('rules'))}`);
    await page.getByLabel(en.passwordReset.password_label, { exact: true }).fill('short');
    await page.getByLabel(en.passwordReset.confirm_label, { exact: true }).fill('different');
    await page.getByRole('button', { name: en.passwordReset.submit }).click();
    await expect(page.getByText(messages.passwordsDoNotMatch).first()).toBeVisible();
    await expect(page).toHaveURL(/\/password-reset\?/);
  });

  for (const query of ['?code=12345678', `?email=someone%40school.example`, '']) {
    test(`password-reset${query || ' without parameters'} goes to /email`, async ({ page }) => {
      await page.goto(`/password-reset${query}`);
      await expect(page).toHaveURL(/\/email$/);
    });
  }
});

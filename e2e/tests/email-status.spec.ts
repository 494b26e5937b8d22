import { messages } from '@frontdoor/contract';
import { expectSignedInAs, expect, test } from '../fixtures/index.ts';
import {
  MAIL_SUBJECTS,
  confirmWithMailedCode,
  continueWithEmail,
  resetFromLoginPage,
  signInAsStudentAndReturn,
  signInWithPassword,
} from '../fixtures/flows.ts';
import { createUser } from '../fixtures/admin.ts';
import { codeOf, listMail, waitForMail } from '../fixtures/mailbox.ts';
import { OTHER_STRONG_PASSWORD, STRONG_PASSWORD, uniqueEmail } from '../fixtures/emails.ts';
import { en, fill, kitText } from '../fixtures/text.ts';
import { rememberEmail } from '../fixtures/pages.ts';

test.describe('the email form routes by email status (§4 result of the email check)', () => {
  test("'Invalid email format.' for a malformed address; surrounding spaces are trimmed", async ({
    page,
  }) => {
    await page.goto('/email');
    await continueWithEmail(page, 'not-an-email');
    await expect(page.getByText(messages.emailFormatInvalid).first()).toBeVisible();
    await expect(page).toHaveURL(/\/email$/);

    await continueWithEmail(page, `  ${uniqueEmail('trim')}  `);
    await expect(page).toHaveURL(/\/create-account(\/|$)/);
  });

  test('Continue with SSO goes back to the provider buttons', async ({ page }) => {
    await page.goto('/email');
    await page.getByRole('link', { name: en.email.sso_link }).click();
    await expect(page).toHaveURL(/\/log-in(\/|$)/);
    await expect(page.getByRole('heading', { name: en.login.heading })).toBeVisible();
  });

  test('create-account → the sign-up form', async ({ page }) => {
    await page.goto('/email');
    await continueWithEmail(page, uniqueEmail('new'));
    await expect(page).toHaveURL(/\/create-account(\/|$)/);
    await expect(page.getByRole('heading', { name: en.signup.title })).toBeVisible();
  });

  test('login → identity-provider sign-in with the email as hint → back to the product', async ({
    page,
    loginRequest,
  }) => {
    const email = uniqueEmail('known');
    await createUser({ email, password: STRONG_PASSWORD });
    const { csrf, returnUrl } = await loginRequest();
    await page.goto(`/log-in/${csrf}`);
    await page.getByRole('link', { name: en.login.continue_with_email }).click();
    await continueWithEmail(page, email);
    await signInAsStudentAndReturn(page, email, STRONG_PASSWORD, returnUrl);
    await expectSignedInAs(page, email);
  });

  test('a wrong password is refused with a clear message', async ({ page }) => {
    const email = uniqueEmail('wrongpw');
    await createUser({ email, password: STRONG_PASSWORD });
    await page.goto('/email');
    await continueWithEmail(page, email);
    await signInWithPassword(page, email, OTHER_STRONG_PASSWORD);
    await expect(page.getByText(messages.incorrectCredentials)).toBeVisible();
  });

  test('unconfirmed → send-verification-code → verify_email → /code → confirm → sign in', async ({
    page,
    loginRequest,
  }) => {
    const email = uniqueEmail('unconfirmed');
    await createUser({ email, password: STRONG_PASSWORD, unconfirmed: true });
    const { csrf, returnUrl } = await loginRequest();
    await page.goto(`/log-in/${csrf}`);
    await page.getByRole('link', { name: en.login.continue_with_email }).click();
    await continueWithEmail(page, email);

    await expect(page).toHaveURL(/\/send-verification-code$/);
    await expect(page.getByText(fill(en.verification.send_body, { email }))).toBeVisible();
    await page.getByRole('button', { name: en.verification.send_submit }).click();
    await confirmWithMailedCode(page, email);
    await signInAsStudentAndReturn(page, email, STRONG_PASSWORD, returnUrl);
  });

  test('verify (account made for the user, no password) → send code → the password-reset popup and a reset mail', async ({
    page,
  }) => {
    const email = uniqueEmail('invited');
    await createUser({ email });
    await page.goto('/email');
    await continueWithEmail(page, email);
    await expect(page).toHaveURL(/\/send-verification-code$/);
    await page.getByRole('button', { name: en.verification.send_submit }).click();

    const popup = page.getByRole('dialog');
    await expect(popup).toContainText(messages.passwordResetCodeSentPopup);
    const mail = await waitForMail(email, { subject: MAIL_SUBJECTS.reset });
    expect(codeOf(mail)).toMatch(/^\d{8}$/);
    await popup.getByRole('button', { name: en.verification.popup_ok }).click();
    await expect(popup).toBeHidden();
  });

  test('Cancel on send-verification-code sends no mail and leaves the page', async ({ page }) => {
    const email = uniqueEmail('cancel');
    await createUser({ email, password: STRONG_PASSWORD, unconfirmed: true });
    await page.goto('/email');
    await continueWithEmail(page, email);
    await expect(page).toHaveURL(/\/send-verification-code$/);
    // navigation, so a link that looks like a button is as right as a button
    await page
      .getByRole('button', { name: en.verification.cancel })
      .or(page.getByRole('link', { name: en.verification.cancel }))
      .click();
    await expect(page).toHaveURL(/\/email$/);
    expect(await listMail(email)).toEqual([]);
  });

  test('reset-password (must-reset flag) → forgot-password flow → code from the mail → new password → sign in', async ({
    page,
    loginRequest,
  }) => {
    const email = uniqueEmail('mustreset');
    await createUser({ email, password: STRONG_PASSWORD, mustReset: true });
    const { csrf, returnUrl } = await loginRequest();
    await page.goto(`/log-in/${csrf}`);
    await resetFromLoginPage(page, email, OTHER_STRONG_PASSWORD);

    // reset success → login
    await signInAsStudentAndReturn(page, email, OTHER_STRONG_PASSWORD, returnUrl);
    await expectSignedInAs(page, email);
  });
});

test.describe('verify your email (§2 code: a link resends the code)', () => {
  test('the resend link mails a new code, shows the wait, and that code confirms the account', async ({
    page,
  }) => {
    const email = uniqueEmail('resend');
    await createUser({ email, password: STRONG_PASSWORD, unconfirmed: true });
    await rememberEmail(page, email);
    await page.goto('/code');
    await expect(page.getByRole('heading', { name: en.verification.code_title })).toBeVisible();
    expect(await listMail(email)).toEqual([]);
    await page.getByRole('button', { name: kitText.resend_code }).click();
    await expect(page.getByRole('main').getByText(en.verification.resend_sent)).toBeVisible();
    // the countdown before another code may be asked for
    const wait = kitText.resend_wait
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace('\\{\\{seconds\\}\\}', '\\d+');
    await expect(page.getByText(new RegExp(wait)).first()).toBeVisible();
    await confirmWithMailedCode(page, email);
    await signInWithPassword(page, email, STRONG_PASSWORD);
    await expect(page).toHaveURL(/\/post-login$/);
  });
});

test.describe('screens that need a remembered email (§2 router behaviour)', () => {
  for (const path of ['/send-verification-code', '/code']) {
    test(`${path} without a remembered email goes to /email`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/email$/);
    });
  }
});

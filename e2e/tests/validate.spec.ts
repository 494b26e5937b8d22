import { messages } from '@frontdoor/contract';
import { expect, expectSignedInAs, test } from '../fixtures/index.ts';
import {
  MAIL_SUBJECTS,
  fillSignupForm,
  resetFromLoginPage,
  signInAsStudentAndReturn,
} from '../fixtures/flows.ts';
import { codeOf, linkTo, waitForMail } from '../fixtures/mailbox.ts';
import { OTHER_STRONG_PASSWORD, STRONG_PASSWORD, uniqueEmail } from '../fixtures/emails.ts';
import { en } from '../fixtures/text.ts';
import { PORTAL_URL } from '../fixtures/env.ts';

async function emailStatus(email: string): Promise<string> {
  // a plain API call with its own double-submit CSRF pair
  const res = await fetch(`${PORTAL_URL}/api/auth/validateEmail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: 'fd_csrf=e2e', 'x-csrf-token': 'e2e' },
    body: JSON.stringify({ email }),
  });
  return ((await res.json()) as { payload: string }).payload;
}

test.describe('validate page (§2 validate, §5 verify page, §8 verify failures)', () => {
  test('the link of the verification mail verifies the account', async ({ page }) => {
    const email = uniqueEmail('validate');
    await page.goto('/create-account');
    await fillSignupForm(page, { first: 'Mary', last: 'Somerville', email }, STRONG_PASSWORD);
    await page.getByRole('button', { name: en.signup.submit }).click();
    await expect(page).toHaveURL(/\/code/);
    expect(await emailStatus(email)).toBe('unconfirmed');

    const mail = await waitForMail(email, { subject: MAIL_SUBJECTS.verify });
    const link = linkTo(mail, '/validate');
    expect(link.searchParams.get('em')).toBe(email);
    expect(link.searchParams.get('vc')).toBe(codeOf(mail));
    await page.goto(link.toString());
    await expect(page.getByRole('heading', { name: en.validate.title })).toBeVisible();
    // opened, the page spends nothing: a school's mail scanner or a link preview opens links first
    await expect(page.getByRole('button', { name: en.validate.submit })).toBeVisible();
    expect(await emailStatus(email)).toBe('unconfirmed');
    await page.getByRole('button', { name: en.validate.submit }).click();
    await expect(page.getByRole('main').getByText(messages.verifyPageSuccess, { exact: true })).toBeVisible();
    await expect(page.getByText(en.validate.new_password_needed)).toHaveCount(0);
    expect(await emailStatus(email)).toBe('login');
    // opened again (a reload, a second tab): verified already is no refusal
    await page.reload();
    await page.getByRole('button', { name: en.validate.submit }).click();
    await expect(page.getByRole('main').getByText(messages.verifyPageSuccess, { exact: true })).toBeVisible();
    await expect(page.getByText(messages.userAlreadyConfirmed)).toHaveCount(0);
  });

  test("a stranger signed up first with a child's address: the child, confirming on their own browser, chooses the password", async ({
    page,
    browser,
    loginRequest,
  }) => {
    const email = uniqueEmail('signed-up-by-another');
    await page.goto('/create-account');
    await fillSignupForm(page, { first: 'Someone', last: 'Else', email }, STRONG_PASSWORD);
    await page.getByRole('button', { name: en.signup.submit }).click();
    await expect(page).toHaveURL(/\/code/);
    const link = linkTo(await waitForMail(email, { subject: MAIL_SUBJECTS.verify }), '/validate');

    const childDevice = await browser.newContext();
    try {
      const child = await childDevice.newPage();
      await child.goto(link.toString());
      await child.getByRole('button', { name: en.validate.submit }).click();
      await expect(
        child.getByRole('main').getByText(messages.verifyPageSuccess, { exact: true }),
      ).toBeVisible();
      // told before trying the password the stranger chose
      await expect(child.getByRole('main').getByText(en.validate.new_password_needed)).toBeVisible();
      // the address is proven, the stranger's password is not: it must be replaced before any sign-in
      expect(await emailStatus(email)).toBe('reset-password');

      const { csrf, returnUrl } = await loginRequest();
      await child.goto(`${PORTAL_URL}/log-in/${csrf}`);
      await resetFromLoginPage(child, email, OTHER_STRONG_PASSWORD);
      await signInAsStudentAndReturn(child, email, OTHER_STRONG_PASSWORD, returnUrl);
      await expectSignedInAs(child, email);
    } finally {
      await childDevice.close();
    }
  });

  test('a wrong code shows the server message', async ({ page }) => {
    const email = uniqueEmail('validate-wrong');
    await page.goto('/create-account');
    await fillSignupForm(page, { first: 'Mary', last: 'Somerville', email }, STRONG_PASSWORD);
    await page.getByRole('button', { name: en.signup.submit }).click();
    const real = codeOf(await waitForMail(email, { subject: MAIL_SUBJECTS.verify }));
    const wrong = `${(Number(real[0]) + 1) % 10}${real.slice(1)}`;
    await page.goto(`/validate?em=${encodeURIComponent(email)}&vc=${wrong}`);
    await page.getByRole('button', { name: en.validate.submit }).click();
    await expect(page.getByText(messages.invalidVerificationCode, { exact: true })).toBeVisible();
    await expect(page.getByText(messages.verifyPageSuccess)).toHaveCount(0);
  });

  test("missing em → 'Email parameter was missing or invalid!'", async ({ page }) => {
    await page.goto('/validate?vc=12345678');
    await expect(page.getByText(messages.verifyEmailParamMissing, { exact: true })).toBeVisible();
  });

  test("missing vc → 'Verification Code parameter was missing or invalid!'", async ({ page }) => {
    await page.goto(`/validate?em=${encodeURIComponent(uniqueEmail('novc'))}`);
    await expect(page.getByText(messages.verifyCodeParamMissing, { exact: true })).toBeVisible();
  });

  test('neither parameter → both messages', async ({ page }) => {
    await page.goto('/validate');
    await expect(page.getByText(messages.verifyEmailParamMissing, { exact: true })).toBeVisible();
    await expect(page.getByText(messages.verifyCodeParamMissing, { exact: true })).toBeVisible();
  });
});

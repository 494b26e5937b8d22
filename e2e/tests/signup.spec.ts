import { messages, stripParenthesised } from '@frontdoor/contract';
import { expectBackOnProduct, expectSignedInAs, expect, test } from '../fixtures/index.ts';
import {
  answerStudentQuestion,
  choosePreferences,
  confirmWithMailedCode,
  continueWithEmail,
  fillSignupForm,
  signInWithPassword,
} from '../fixtures/flows.ts';
import { createUser } from '../fixtures/admin.ts';
import { STRONG_PASSWORD, uniqueEmail } from '../fixtures/emails.ts';
import { en, fill } from '../fixtures/text.ts';

test.describe('sign up with email (§2 create-account, code; §4 sign-up and confirm transitions)', () => {
  test('sign up → code from the mailbox → confirm → sign in with email and password → post-login → return URL', async ({
    page,
    loginRequest,
  }) => {
    const { csrf, returnUrl } = await loginRequest();
    const person = { first: 'Grace', last: 'Hopper', email: uniqueEmail('signup') };

    await page.goto(`/log-in/${csrf}`);
    await page.getByRole('link', { name: en.login.continue_with_email }).click();
    await expect(page).toHaveURL(/\/email$/);
    await continueWithEmail(page, person.email);

    // create-account status → sign-up form, email carried over
    await expect(page).toHaveURL(/\/create-account(\/|$)/);
    await expect(page.getByRole('heading', { name: en.signup.title })).toBeVisible();
    await expect(page.getByLabel(en.signup.email_label, { exact: true })).toHaveValue(person.email);
    await fillSignupForm(page, { first: person.first, last: person.last }, STRONG_PASSWORD);
    await page.getByRole('button', { name: en.signup.submit }).click();

    // sign-up success → /code; confirm success → identity-provider sign-in
    await confirmWithMailedCode(page, person.email);
    await signInWithPassword(page, person.email, STRONG_PASSWORD);

    await answerStudentQuestion(page, false);
    await choosePreferences(page, ['k12', 'technicalUpdates']);
    await expectBackOnProduct(page, returnUrl);
    await expectSignedInAs(page, person.email);
  });

  test("storage blocked (site data off): sign up from a product's link → /code for the address → confirm → sign in → the product", async ({
    page,
    loginRequest,
  }) => {
    // as a browser blocking site data gives it: reading either storage throws
    await page.addInitScript(() => {
      for (const area of ['localStorage', 'sessionStorage'])
        Object.defineProperty(window, area, {
          configurable: true,
          get() {
            throw new DOMException('The operation is insecure.', 'SecurityError');
          },
        });
    });
    const { csrf, returnUrl } = await loginRequest();
    const email = uniqueEmail('blocked-storage');

    await page.goto(`/log-in/${csrf}`);
    await page.getByRole('link', { name: en.login.continue_with_email }).click();
    await continueWithEmail(page, email);
    // the page load keeps the address the storage refused: the form has it, and so does /code
    await expect(page.getByLabel(en.signup.email_label, { exact: true })).toHaveValue(email);
    await fillSignupForm(page, { first: 'Ada', last: 'Byron' }, STRONG_PASSWORD);
    await page.getByRole('button', { name: en.signup.submit }).click();
    await expect(page.getByText(fill(en.verification.code_body, { email }))).toBeVisible();
    await confirmWithMailedCode(page, email);

    // the authorization server's redirect is a new page load: the password page starts without the address
    await expect(page).toHaveURL(/\/sign-in\/[^/?#]+$/);
    await page.getByLabel(en.signIn.email_label, { exact: true }).fill(email);
    await page.getByLabel(en.signIn.password_label, { exact: true }).fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: en.signIn.submit, exact: true }).click();
    // the sign-in carried the link's request (c): post-login/{csrf}, then the product's return URL
    await expect(page).toHaveURL(new RegExp(`/post-login/${csrf}$`));
    await answerStudentQuestion(page, true);
    await expectBackOnProduct(page, returnUrl);
    await expectSignedInAs(page, email);
  });

  test('an invalid submit shows the §5 messages and the form summary', async ({ page }) => {
    await page.goto('/create-account');
    await page.getByRole('button', { name: en.signup.submit }).click();
    await expect(page.getByText(messages.formInvalid)).toBeVisible();
    await expect(page.getByText(messages.firstNameRequired).first()).toBeVisible();
    await expect(page.getByText(messages.lastNameRequired).first()).toBeVisible();
    await expect(page.getByText(messages.emailInvalidSignup).first()).toBeVisible();
    await expect(page.getByText(messages.confirmPasswordRequired).first()).toBeVisible();

    // the first name error is tied to its field
    await expect(page.getByLabel(en.signup.first_label, { exact: true })).toHaveAttribute(
      'aria-invalid',
      'true',
    );

    await page.getByLabel(en.signup.password_label, { exact: true }).fill(STRONG_PASSWORD);
    await page.getByLabel(en.signup.confirm_label, { exact: true }).fill(`${STRONG_PASSWORD}x`);
    await page.getByRole('button', { name: en.signup.submit }).click();
    await expect(page.getByText(messages.passwordsDoNotMatch).first()).toBeVisible();
  });

  test('each password flag is shown as the password changes', async ({ page }) => {
    await page.goto('/create-account');
    const password = page.getByLabel(en.signup.password_label, { exact: true });
    const rules = page.getByRole('list').filter({ hasText: en.flowShared.rule_uppercaseMissing });
    const rule = (
      key:
        | 'rule_uppercaseMissing'
        | 'rule_lowercaseMissing'
        | 'rule_digitMissing'
        | 'rule_specialCharacterMissing',
    ) => rules.getByRole('listitem').filter({ hasText: en.flowShared[key] });

    await password.fill('abc');
    await expect(rule('rule_uppercaseMissing')).toContainText(en.flowShared.rule_unmet);
    await expect(rule('rule_lowercaseMissing')).toContainText(en.flowShared.rule_met);
    await password.fill('abcD');
    await expect(rule('rule_uppercaseMissing')).toContainText(en.flowShared.rule_met);
    await expect(rule('rule_digitMissing')).toContainText(en.flowShared.rule_unmet);
    await password.fill('abcD1!');
    await expect(rule('rule_digitMissing')).toContainText(en.flowShared.rule_met);
    await expect(rule('rule_specialCharacterMissing')).toContainText(en.flowShared.rule_met);
    await password.fill(STRONG_PASSWORD);
    for (const item of await rules.getByRole('listitem').all()) {
      await expect(item).toContainText(en.flowShared.rule_met);
    }
  });

  test('an existing email shows the server message without its parenthesised part', async ({ page }) => {
    const email = uniqueEmail('taken');
    await createUser({ email, password: STRONG_PASSWORD });
    await page.goto('/create-account');
    await fillSignupForm(page, { first: 'Ada', last: 'Lovelace', email }, STRONG_PASSWORD);
    await page.getByRole('button', { name: en.signup.submit }).click();
    await expect(page.getByText(stripParenthesised(messages.accountExists), { exact: true })).toBeVisible();
    await expect(page.getByText('UsernameExistsException')).toHaveCount(0);
    await expect(page).toHaveURL(/\/create-account$/);
  });

  test('a network error during sign-up shows its own message', async ({ page }) => {
    await page.route('**/api/cognito/signup', (route) => route.abort('internetdisconnected'));
    await page.goto('/create-account');
    await fillSignupForm(
      page,
      { first: 'Ada', last: 'Lovelace', email: uniqueEmail('offline') },
      STRONG_PASSWORD,
    );
    await page.getByRole('button', { name: en.signup.submit }).click();
    await expect(page.getByText(messages.networkError)).toBeVisible();
  });
});

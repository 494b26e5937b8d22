import { messages } from '@frontdoor/contract';
import { expect, test } from '../fixtures/index.ts';
import { fillSignupForm } from '../fixtures/flows.ts';
import { STRONG_PASSWORD, uniqueEmail } from '../fixtures/emails.ts';
import { en } from '../fixtures/text.ts';

test.describe('forms a user expects (issue 3 quality)', () => {
  test('autocomplete attributes let the password manager and autofill work', async ({ page }) => {
    await page.goto('/create-account');
    const expected: [string, string][] = [
      [en.signup.first_label, 'given-name'],
      [en.signup.last_label, 'family-name'],
      [en.signup.email_label, 'email'],
      [en.signup.password_label, 'new-password'],
      [en.signup.confirm_label, 'new-password'],
    ];
    for (const [label, autocomplete] of expected) {
      await expect(page.getByLabel(label, { exact: true }), label).toHaveAttribute(
        'autocomplete',
        autocomplete,
      );
    }
    await page.goto('/access-code');
    await expect(page.getByLabel(en.accessCode.code_label)).toHaveAttribute(
      'autocomplete',
      /one-time-code|off/,
    );
  });

  test('a double click on submit sends one sign-up', async ({ page }) => {
    let signups = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/cognito/signup')) signups += 1;
    });
    await page.goto('/create-account');
    await fillSignupForm(
      page,
      { first: 'Dee', last: 'Bounce', email: uniqueEmail('double') },
      STRONG_PASSWORD,
    );
    await page.getByRole('button', { name: en.signup.submit }).dblclick();
    await expect(page).toHaveURL(/\/code$/);
    expect(signups).toBe(1);
  });

  const blurCases = [
    {
      path: '/create-account',
      field: en.signup.first_label,
      below: en.signup.last_label,
      error: messages.firstNameRequired,
    },
    {
      path: `/password-reset?code=12345678&email=${encodeURIComponent('blur@school.example')}`,
      field: en.passwordReset.password_label,
      below: en.passwordReset.confirm_label,
      error: messages.passwordRequired,
    },
  ];
  for (const c of blurCases) {
    test(`${c.path.split('?')[0]}: an inline error on leaving a field does not move the fields below it`, async ({
      page,
    }) => {
      await page.goto(c.path);
      const field = page.getByLabel(c.field, { exact: true });
      const below = page.getByLabel(c.below, { exact: true });
      const before = await below.boundingBox();
      await field.focus();
      await field.blur();
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByText(c.error).first()).toBeVisible();
      // before any submit, only the inline error shows; the form summary waits for a submit
      await expect(page.getByText(messages.formInvalid)).toHaveCount(0);
      expect(await below.boundingBox()).toEqual(before);
    });
  }
});

import { expectBackOnProduct, expectSignedInAs, expect, test } from '../fixtures/index.ts';
import { MAIL_SUBJECTS } from '../fixtures/flows.ts';
import { tabTo, typeInto } from '../fixtures/keyboard.ts';
import { codeOf, waitForMail } from '../fixtures/mailbox.ts';
import { STRONG_PASSWORD, uniqueEmail } from '../fixtures/emails.ts';
import { en } from '../fixtures/text.ts';

test.describe('keyboard alone completes the flows (issue 3 quality)', () => {
  test('sign-up from the login page to the product with Tab, typing, Space and Enter only', async ({
    page,
    loginRequest,
  }) => {
    const email = uniqueEmail('keyboard');
    const { csrf, returnUrl } = await loginRequest({ journey: 'keyboard' });
    await page.goto(`/log-in/${csrf}`);
    await expect(page.getByRole('heading', { name: en.login.heading })).toBeVisible();

    await tabTo(page, page.getByRole('link', { name: en.login.continue_with_email }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/email$/);
    await typeInto(page, page.getByLabel(en.email.email_label, { exact: true }), email);
    await page.keyboard.press('Enter');

    await expect(page).toHaveURL(/\/create-account(\/|$)/);
    await typeInto(page, page.getByLabel(en.signup.first_label, { exact: true }), 'Kay');
    await typeInto(page, page.getByLabel(en.signup.last_label, { exact: true }), 'Board');
    await typeInto(page, page.getByLabel(en.signup.password_label, { exact: true }), STRONG_PASSWORD);
    await typeInto(page, page.getByLabel(en.signup.confirm_label, { exact: true }), STRONG_PASSWORD);
    const teacher = page.getByRole('radio', { name: en.signup.description_teacher, exact: true });
    await tabTo(page, page.getByRole('radio').first());
    // arrow keys move through a radio group until Teacher is chosen
    for (let i = 0; i < 6 && !(await teacher.isChecked()); i += 1) {
      if (i === 0) await page.keyboard.press('Space');
      else await page.keyboard.press('ArrowDown');
    }
    await expect(teacher).toBeChecked();
    await tabTo(page, page.getByRole('button', { name: en.signup.submit }));
    await page.keyboard.press('Enter');

    await expect(page).toHaveURL(/\/code(\?|$)/);
    const code = codeOf(await waitForMail(email, { subject: MAIL_SUBJECTS.verify }));
    await typeInto(page, page.getByLabel(en.verification.code_label), code);
    await page.keyboard.press('Enter');

    await expect(page).toHaveURL(/\/sign-in\//);
    await typeInto(page, page.getByLabel(en.signIn.password_label, { exact: true }), STRONG_PASSWORD);
    await page.keyboard.press('Enter');

    await expect(page.getByRole('heading', { name: en.postLogin.student_question })).toBeVisible();
    await tabTo(page, page.getByRole('radio', { name: en.postLogin.yes, exact: true }));
    await page.keyboard.press('Space');
    await tabTo(page, page.getByRole('button', { name: en.postLogin.next }));
    await page.keyboard.press('Enter');
    await expectBackOnProduct(page, returnUrl);
    await expectSignedInAs(page, email);
  });

  test('a failed submit moves the focus to the error summary', async ({ page }) => {
    await page.goto('/create-account');
    await tabTo(page, page.getByRole('button', { name: en.signup.submit }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: /./ }).first()).toBeVisible();
    // after the submit settles, the summary still holds the focus
    await page.waitForTimeout(300);
    await expect
      .poll(() =>
        page.evaluate(() => {
          const el = document.activeElement;
          if (!el) return 'nothing';
          const role = el.getAttribute('role');
          const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
          return `${el.tagName.toLowerCase()}${role ? `[role=${role}]` : ''}${label ? ` labelled "${label}"` : ''}`;
        }),
      )
      .toBe('div[role=alert]');
  });
});

import type { Locator, Page } from '@playwright/test';
import { RESEND_COOLDOWN_SECONDS, messages } from '@frontdoor/contract';
import { expect, test } from '../fixtures/index.ts';
import { fillSignupForm } from '../fixtures/flows.ts';
import { STRONG_PASSWORD, uniqueEmail } from '../fixtures/emails.ts';
import { en, kitText } from '../fixtures/text.ts';

/**
 * A person's click: the mouse button goes down on the target and, a moment later, up at the same
 * point. Whatever the press changes on the page (the error of the field it left) happens between the
 * two; the target must not have moved by the release.
 */
async function clickLikeAPerson(page: Page, target: Locator): Promise<void> {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error('the target is not on the page');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  // as long as a person's press lasts: the check of the field left and its rendering are done by then
  await page.waitForTimeout(150);
  expect(await target.boundingBox()).toEqual(box);
  await page.mouse.up();
}

/** The failed submit's summary, focused: the click was not lost. */
async function expectFailedSubmit(page: Page, ...fieldMessages: string[]): Promise<void> {
  const summary = page.getByRole('alert').filter({ hasText: messages.formInvalid });
  await expect(summary).toBeFocused();
  for (const message of fieldMessages)
    await expect(summary.getByRole('link', { name: message })).toBeVisible();
}

test.describe('no lost clicks on /create-account (issue 12)', () => {
  for (const width of [1440, 390]) {
    test(`${width} px: with only the first name filled, the first press of "Create account" submits`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/create-account');
      await page.getByLabel(en.signup.first_label, { exact: true }).fill('Ada');
      await clickLikeAPerson(page, page.getByRole('button', { name: en.signup.submit }));
      await expectFailedSubmit(page, messages.lastNameRequired, messages.emailInvalidSignup);
    });

    test(`${width} px: leaving a weak password (a long error) by pressing "Create account" still submits`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/create-account');
      await page.getByLabel(en.signup.first_label, { exact: true }).fill('Ada');
      await page.getByLabel(en.signup.last_label, { exact: true }).fill('Lovelace');
      await page.getByLabel(en.signup.email_label, { exact: true }).fill(uniqueEmail('weak'));
      await page.getByLabel(en.signup.password_label, { exact: true }).fill('weak');
      await clickLikeAPerson(page, page.getByRole('button', { name: en.signup.submit }));
      await expectFailedSubmit(page, messages.passwordPolicy);
    });
  }

  test('a valid form sent by a press goes to /code, where "Send a new code" waits the cooldown from arrival', async ({
    page,
  }) => {
    await page.goto('/create-account');
    await fillSignupForm(
      page,
      { first: 'Ada', last: 'Lovelace', email: uniqueEmail('click') },
      STRONG_PASSWORD,
    );
    await page.getByLabel(en.signup.first_label, { exact: true }).focus();
    await clickLikeAPerson(page, page.getByRole('button', { name: en.signup.submit }));
    await expect(page).toHaveURL(/\/code$/);
    // the code was just mailed: a resend would be refused, so the button waits the contract's cooldown
    await expect(page.getByRole('button', { name: kitText.resend_code })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    const [lead = '', tail = ''] = kitText.resend_wait.split('{{seconds}}');
    const wait = (await page.getByText(lead).textContent()) ?? '';
    const secondsLeft = Number(wait.slice(lead.length, wait.length - tail.length));
    expect(secondsLeft).toBeGreaterThan(RESEND_COOLDOWN_SECONDS - 10);
    expect(secondsLeft).toBeLessThanOrEqual(RESEND_COOLDOWN_SECONDS);
  });
});

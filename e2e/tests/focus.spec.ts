import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../fixtures/index.ts';
import { continueWithEmail } from '../fixtures/flows.ts';
import { createUser } from '../fixtures/admin.ts';
import { tabTo } from '../fixtures/keyboard.ts';
import { STRONG_PASSWORD, uniqueEmail } from '../fixtures/emails.ts';
import { topBar } from '../fixtures/shell.ts';
import { en, providerButton } from '../fixtures/text.ts';

/** The shell's polite live region that names the page arrived on. */
const pageAnnouncer = (page: Page, title: string): Locator =>
  page.getByRole('status').filter({ hasText: title });

test.describe('focus management (issue 12: WCAG 2.4.3, 2.4.7, 2.4.11, 3.2.2, 4.1.3)', () => {
  test('/access-code: an error coming back while typing leaves the focus and the digits in the field, and the summary away until the next submit', async ({
    page,
  }) => {
    await page.goto('/access-code');
    const field = page.getByRole('textbox', { name: en.accessCode.code_label });
    await tabTo(page, field);
    await page.keyboard.type('12');
    await page.keyboard.press('Enter');
    const summary = page.getByRole('alert').filter({ has: page.getByRole('link') });
    await expect(summary).toBeFocused();

    await field.focus();
    await page.keyboard.type('3456');
    await expect(summary).toBeHidden();
    await page.keyboard.press('Backspace');
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(summary).toBeHidden();
    await page.keyboard.type('9');
    await expect(field).toBeFocused();
    await expect(field).toHaveValue('123459');
  });

  test('the work/school dialog gives the focus back to its opener on Escape and on Cancel', async ({
    page,
  }) => {
    await page.goto('/log-in');
    const opener = page.getByRole('button', { name: providerButton('Microsoft') });
    const dialog = page.getByRole('dialog', { name: en.login.work_email_title });

    await tabTo(page, opener);
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('textbox', { name: en.login.work_email_label })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();

    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await tabTo(page, dialog.getByRole('button', { name: en.login.work_email_cancel }));
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
  });

  test('Shift+Tab at 320x256 never leaves the focused control under the top bar', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 256 });
    await page.goto('/create-account');
    const submit = page.getByRole('button', { name: en.signup.submit });
    await tabTo(page, submit);
    const main = page.getByRole('main');
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press('Shift+Tab');
      if (!(await main.evaluate((el) => el.contains(document.activeElement)))) break;
      // the bar slides back in (0.3 s) on the way up; measure once it has settled
      await page.waitForTimeout(400);
      const { top, barBottom } = await page.evaluate(() => ({
        top: document.activeElement!.getBoundingClientRect().top,
        barBottom: document.querySelector('header')!.getBoundingClientRect().bottom,
      }));
      expect(top, `Shift+Tab ${i + 1}`).toBeGreaterThanOrEqual(barBottom);
    }
    await expect(topBar(page)).toBeVisible();
  });

  test('a navigation focuses the new page heading and announces its title; the first load does not', async ({
    page,
  }) => {
    await page.goto('/log-in');
    await expect(page.getByRole('heading', { name: en.login.heading, level: 1 })).not.toBeFocused();
    await expect(pageAnnouncer(page, await page.title())).toHaveCount(0);

    await tabTo(page, page.getByRole('link', { name: en.login.continue_with_email }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/email$/);
    await expect(page.getByRole('heading', { name: en.email.title, level: 1 })).toBeFocused();
    await expect(page).toHaveTitle(new RegExp(`^${en.email.title} · `));
    await expect(pageAnnouncer(page, await page.title())).toHaveText(await page.title());
  });

  test('forced colours: focused controls keep a visible outline', async ({ page }) => {
    await page.emulateMedia({ forcedColors: 'active' });
    await page.goto('/email');
    const outlineOf = (target: Locator) =>
      target.evaluate((el) => {
        const style = getComputedStyle(el);
        return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
      });
    const controls = [
      page.getByRole('textbox', { name: en.email.email_label }),
      page.getByRole('button', { name: en.email.submit }),
    ];
    for (const control of controls) {
      await tabTo(page, control);
      const outline = await outlineOf(control);
      expect(outline.style).not.toBe('none');
      expect(outline.width).toBeGreaterThan(0);
    }

    // the password's frame shows its field's focus: the ring the other fields get, not an outline
    // in the frame's own colour pressed against its border
    await page.goto('/create-account');
    const ringOf = (target: Locator) =>
      target.evaluate((el) => {
        const style = getComputedStyle(el);
        return { color: style.outlineColor, offset: parseFloat(style.outlineOffset) };
      });
    const email = page.getByLabel(en.signup.email_label, { exact: true });
    await tabTo(page, email);
    const emailRing = await ringOf(email);
    expect(emailRing.offset).toBeGreaterThan(0);
    const password = page.getByLabel(en.signup.password_label, { exact: true });
    await tabTo(page, password);
    expect(await ringOf(password.locator('xpath=..'))).toEqual(emailRing);
  });

  test('forced colours: the work/school dialog has an edge (no background or shadow is drawn there)', async ({
    page,
  }) => {
    await page.emulateMedia({ forcedColors: 'active' });
    await page.goto('/log-in');
    await page.getByRole('button', { name: providerButton('Microsoft') }).click();
    const border = await page.getByRole('dialog', { name: en.login.work_email_title }).evaluate((el) => {
      const style = getComputedStyle(el);
      return { style: style.borderTopStyle, width: parseFloat(style.borderTopWidth) };
    });
    expect(border.style).not.toBe('none');
    expect(border.width).toBeGreaterThanOrEqual(1);
  });

  test('/email → /sign-in: with the email prefilled, the password field has the focus', async ({ page }) => {
    const email = uniqueEmail('focus-signin');
    await createUser({ email, password: STRONG_PASSWORD });
    await page.goto('/email');
    await continueWithEmail(page, email);
    await expect(page).toHaveURL(/\/sign-in\/[^/?#]+/);
    await expect(page.getByLabel(en.signIn.email_label, { exact: true })).toHaveValue(email.toLowerCase());
    await expect(page.getByLabel(en.signIn.password_label, { exact: true })).toBeFocused();
  });
});

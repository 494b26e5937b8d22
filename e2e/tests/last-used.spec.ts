import type { Page } from '@playwright/test';
import { STORAGE_KEYS, apiPaths } from '@frontdoor/contract';
import { PORTAL_URL, expect, sessionOf, test } from '../fixtures/index.ts';
import { continueWithEmail, signInAsStudentAndReturn } from '../fixtures/flows.ts';
import { createUser } from '../fixtures/admin.ts';
import { expectNoSeriousA11yViolations } from '../fixtures/axe.ts';
import { STRONG_PASSWORD, uniqueEmail } from '../fixtures/emails.ts';
import { en, providerButton } from '../fixtures/text.ts';

/** Where every visible text of the sign-in card sits (the aria-hidden badge aside). */
function cardTextLayout(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const card = document.querySelector('section');
    if (!card) return [];
    const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
    const layout: string[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement?.closest('[aria-hidden="true"]')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const { x, y, width, height } = range.getBoundingClientRect();
      layout.push(`${node.textContent} ${x},${y} ${width}x${height}`);
    }
    return layout;
  });
}

test.describe("the login page's 'Last used' marker (issue 11)", () => {
  test('a shared device: after an email sign-in and sign-out, the email button says Last used, takes no space, names no one', async ({
    page,
    loginRequest,
  }) => {
    const email = uniqueEmail('last-used');
    await createUser({ email, password: STRONG_PASSWORD });
    const { csrf, returnUrl } = await loginRequest();
    await page.goto(`/log-in/${csrf}`);
    const emailLink = page.getByRole('link', { name: en.login.continue_with_email, exact: true });
    const marker = page.getByText(en.login.last_used, { exact: true });
    // a fresh device: nothing is marked
    await expect(emailLink).toBeVisible();
    await expect(marker).toHaveCount(0);

    await emailLink.click();
    await continueWithEmail(page, email);
    await signInAsStudentAndReturn(page, email, STRONG_PASSWORD, returnUrl);
    // the person leaves the device signed out; the next one opens the login page
    await page.request.get(`${PORTAL_URL}/api/${apiPaths.cognitoLogout}`);
    expect((await sessionOf(page)).loggedin).toBe(false);

    await page.goto('/log-in');
    await expect(emailLink).toHaveAccessibleName(en.login.continue_with_email);
    await expect(emailLink).toHaveAccessibleDescription(en.login.last_used);
    await expect(emailLink.getByText(en.login.last_used, { exact: true })).toBeVisible();
    await expect(marker).toHaveCount(1);
    for (const provider of ['Google', 'Microsoft', 'SignInWithApple', 'Clever', 'ClassLink'] as const) {
      await expect(page.getByRole('button', { name: providerButton(provider) })).not.toHaveAttribute(
        'aria-describedby',
      );
    }
    await expectNoSeriousA11yViolations(page);

    // the device keeps the method only, never who used it
    await expect(page.locator('body')).not.toContainText(email.split('@')[0]!);
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(stored).not.toContain(email.split('@')[0]);
    expect(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.lastSignInMethod)).toBe(
      'email',
    );

    // the marker takes no space: without it (as in a prerendered page before hydration) nothing moves
    const marked = await cardTextLayout(page);
    await page.evaluate((key) => {
      localStorage.removeItem(key);
      window.dispatchEvent(new StorageEvent('storage', { key }));
    }, STORAGE_KEYS.lastSignInMethod);
    await expect(marker).toHaveCount(0);
    expect(await cardTextLayout(page)).toEqual(marked);
  });

  test.describe('at 320 px', () => {
    test.use({ viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true });
    test("the class-code link's marker stays inside the page where the link wraps (Spanish)", async ({
      page,
    }) => {
      await page.goto('/log-in?locale=es');
      await page.evaluate((key) => {
        localStorage.setItem(key, 'classCode');
        window.dispatchEvent(new StorageEvent('storage', { key }));
      }, STORAGE_KEYS.lastSignInMethod);
      const badge = page
        .locator('footer, section')
        .getByText('Usado por última vez', { exact: true })
        .first();
      await expect(badge).toBeVisible();
      const box = await badge.boundingBox();
      expect(box?.x).toBeGreaterThanOrEqual(0);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(320);
    });
  });
});

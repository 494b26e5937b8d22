import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../fixtures/index.ts';
import { tabTo } from '../fixtures/keyboard.ts';
import { languageTrigger, stamp } from '../fixtures/shell.ts';
import { catalogs, en, fill, providerButton, shellText } from '../fixtures/text.ts';

/**
 * The text (by its line boxes) and controls that lie under the non-production stamp: the ribbon is a
 * rotated rectangle, so each box is sampled and every point is turned into the ribbon's own frame.
 */
async function underStamp(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const ribbon = document.querySelector<HTMLElement>('[data-env-stamp]');
    if (!ribbon) throw new Error('no stamp');
    const box = ribbon.getBoundingClientRect();
    const [a = 1, b = 0] = (/matrix\(([^)]+)\)/.exec(getComputedStyle(ribbon).transform)?.[1] ?? '1,0')
      .split(',')
      .map(Number);
    const angle = Math.atan2(b, a);
    const cx = box.left + box.width / 2;
    const cy = box.top + box.height / 2;
    const inside = (x: number, y: number) => {
      const dx = x - cx;
      const dy = y - cy;
      const lx = dx * Math.cos(angle) + dy * Math.sin(angle);
      const ly = -dx * Math.sin(angle) + dy * Math.cos(angle);
      return Math.abs(lx) <= ribbon.offsetWidth / 2 && Math.abs(ly) <= ribbon.offsetHeight / 2;
    };
    const covered = (rect: DOMRect) => {
      for (let i = 0; i <= 4; i += 1)
        for (let j = 0; j <= 2; j += 1)
          if (inside(rect.left + (rect.width * i) / 4, rect.top + (rect.height * j) / 2)) return true;
      return false;
    };
    const hits: string[] = [];
    for (const root of document.querySelectorAll(selector)) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        if ([...range.getClientRects()].some(covered)) hits.push(node.textContent.trim());
      }
    }
    return hits;
  }, selector);
}

async function scrollToEnd(page: Page): Promise<void> {
  await expect(stamp(page)).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect
    .poll(() =>
      page.evaluate(
        () => Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight,
      ),
    )
    .toBe(true);
}

test.describe('the non-production stamp hides nothing (issue 12)', () => {
  for (const { path, width, height } of [
    { path: '/log-in?locale=ar', width: 390, height: 800 },
    { path: '/log-in?locale=ar', width: 320, height: 640 },
    { path: '/log-in', width: 320, height: 640 },
    { path: '/create-account', width: 320, height: 640 },
    { path: '/create-account?locale=ar', width: 390, height: 800 },
  ]) {
    test(`${path} at ${width} px: at the end of the page no text or link is under the stamp`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height });
      await page.goto(path);
      await scrollToEnd(page);
      expect(await underStamp(page, 'main, footer')).toEqual([]);
    });
  }

  test('at 320 px, every control reached with Tab is clear of the stamp', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto('/create-account');
    await expect(stamp(page)).toBeVisible();
    const last = page.getByRole('navigation', { name: shellText.footer_label }).getByRole('link').last();
    for (let i = 0; i < 40; i += 1) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement;
        if (!el || el === document.body) return null;
        el.setAttribute('data-probe', '');
        return el.textContent?.trim() || el.getAttribute('aria-label') || el.id;
      });
      if (focused === null) continue;
      const covered = await underStamp(page, '[data-probe]');
      await page.evaluate(() => document.querySelector('[data-probe]')?.removeAttribute('data-probe'));
      expect(covered, `focused: ${focused}`).toEqual([]);
      if (await last.evaluate((el) => el === document.activeElement)) return;
    }
    throw new Error('the last footer link was not reached');
  });
});

test.describe('language menu (issue 12)', () => {
  test('the open desktop menu lies inside a landmark (axe region rule)', async ({ page }) => {
    await page.goto('/log-in');
    await languageTrigger(page).click();
    await expect(page.getByRole('menu')).toBeVisible();
    await expect(page.getByRole('banner').getByRole('menu')).toBeVisible();
    const results = await new AxeBuilder({ page }).withRules(['region']).analyze();
    expect(results.violations.map((v) => v.nodes.map((n) => n.target.join(' ')))).toEqual([]);
  });

  test('at 1200 px (compact trigger) the language is named in words, beside its flag', async ({ page }) => {
    await page.setViewportSize({ width: 1200, height: 800 });
    await page.goto('/log-in?locale=fr');
    const trigger = languageTrigger(page, 'fr');
    await expect(trigger).toHaveAccessibleName(
      fill(catalogs.common.fr.language_menu_current, { language: 'Français' }),
    );
    await expect(trigger.getByText('Français', { exact: true })).toBeVisible();
  });
});

test.describe('radio groups (issue 12)', () => {
  test('with nothing chosen, an arrow key moves to the next radio and selects it', async ({ page }) => {
    await page.goto('/create-account');
    const first = page.getByRole('radio', { name: en.signup.description_teacher, exact: true });
    const second = page.getByRole('radio').nth(1);
    await tabTo(page, first);
    await expect(first).not.toBeChecked();
    await page.keyboard.press('ArrowDown');
    await expect(second).toBeFocused();
    await expect(second).toBeChecked();
    await page.keyboard.press('ArrowUp');
    await expect(first).toBeFocused();
    await expect(first).toBeChecked();
  });
});

test.describe('forced colours (Windows high contrast)', () => {
  /** The colours of a spinner's ring: forced colours paint every side alike unless told otherwise. */
  const ringOf = (spinner: Locator) =>
    spinner.evaluate((el) => {
      const style = getComputedStyle(el);
      return { top: style.borderTopColor, right: style.borderRightColor };
    });

  test('a loading spinner keeps its gap, so it still shows turning', async ({ page }) => {
    await page.emulateMedia({ forcedColors: 'active' });
    await page.route('**/api/gateway/getCsrfLogin/**', () => {
      // left unanswered on purpose: the page keeps loading
    });
    await page.goto('/log-in/held-params');
    const wheel = page
      .getByRole('status')
      .filter({ hasText: en.login.loading_params })
      .locator(':scope > [aria-hidden="true"]');
    const ring = await ringOf(wheel);
    expect(ring.top).not.toBe(ring.right);
  });

  test('a busy button keeps its spinner gap, so the press shows as taken', async ({ page }) => {
    await page.emulateMedia({ forcedColors: 'active' });
    await page.route('**/api/social/get_csrf**', () => {
      // left unanswered on purpose: the button stays busy
    });
    await page.goto('/log-in');
    const button = page.getByRole('button', { name: providerButton('Google') });
    await button.click();
    await expect(button).toHaveAttribute('aria-busy', 'true');
    const ring = await ringOf(button.locator(':scope > [aria-hidden="true"]').first());
    expect(ring.right).toBe('rgba(0, 0, 0, 0)');
    expect(ring.top).not.toBe(ring.right);
  });
});

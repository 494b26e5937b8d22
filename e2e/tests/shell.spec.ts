import {
  CONFIG_PATH,
  MENU_STYLE_BREAKPOINT,
  MOBILE_MAX_WIDTH,
  STORAGE_KEYS,
  TOP_BAR_HIDE_OFFSET_PX,
  TOP_BAR_TRANSITION_MS,
  type PortalConfig,
} from '@frontdoor/contract';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/index.ts';
import { PORTAL_URL } from '../fixtures/env.ts';
import { withPageConfig } from '../fixtures/page-config.ts';
import { catalogs, en, fill, shellText } from '../fixtures/text.ts';
import { expectCurrentLanguage, languageChoice, languageTrigger, stamp, topBar } from '../fixtures/shell.ts';

const WIDTHS = [1440, 1000, 390] as const;

async function portalConfig(): Promise<PortalConfig> {
  return (await (await fetch(`${PORTAL_URL}${CONFIG_PATH}`)).json()) as PortalConfig;
}

/**
 * Makes the page tall enough to scroll (the portal's pages are short on a desktop screen), once the
 * routed page has rendered: until then its arrival (scroll to the top, focus) would undo a scroll.
 */
async function makeScrollable(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.evaluate(() => {
    const spacer = document.createElement('div');
    spacer.style.blockSize = '3000px';
    spacer.dataset.e2e = 'spacer';
    (document.querySelector('main') ?? document.body).append(spacer);
  });
}

/**
 * Waits until a wheel scroll has come to rest: Chromium animates it, and a wheel turned the other
 * way while the last one still glides would be read as two opposite scrolls in an unknown order.
 */
async function scrollSettled(page: Page): Promise<void> {
  let last = -1;
  await expect
    .poll(async () => {
      const now = await page.evaluate(() => window.scrollY);
      const settled = now === last;
      last = now;
      return settled;
    })
    .toBe(true);
}

/** The vertical offset of the bar's transform (matrix(a, b, c, d, tx, ty) → ty). */
const translateY = (page: Page) =>
  topBar(page).evaluate((el) => {
    const t = getComputedStyle(el).transform;
    if (!t || t === 'none') return 0;
    return new DOMMatrixReadOnly(t).m42;
  });

/** Opens /log-in/{csrf} of a fresh login request and counts its login params calls (the page's data). */
async function openCountingParamsCalls(page: Page, csrf: string): Promise<() => number> {
  let calls = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/gateway/getCsrfLogin/')) calls += 1;
  });
  await page.goto(`/log-in/${csrf}`);
  await expect(page.getByRole('heading', { name: en.login.heading })).toBeVisible();
  // the page has hydrated and its fetch is over (the tab holds its csrf): a navigation while it is
  // under way would reuse that fetch instead of asking again
  await expect.poll(() => calls).toBe(1);
  const tabCsrf = () => page.evaluate((key) => window.sessionStorage.getItem(key), STORAGE_KEYS.loginCsrf);
  await expect.poll(tabCsrf).toBe(csrf);
  return () => calls;
}

for (const width of WIDTHS) {
  test.describe(`shell at ${width} px (§2 shell behaviour)`, () => {
    test.use({ viewport: { width, height: 800 } });

    test('fixed top bar with the logo linking to the site root, routed page below', async ({ page }) => {
      const cfg = await portalConfig();
      await page.goto('/log-in');
      const bar = topBar(page);
      await expect(bar).toBeVisible();
      await expect(bar).toHaveCSS('position', 'fixed');
      const logo = bar.getByRole('link').first();
      await expect(logo).toHaveAttribute(
        'href',
        new RegExp(`^${cfg.siteUrls.root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/?$`),
      );
      await expect(logo.locator('img')).toBeVisible();
      await expect(logo).toHaveAccessibleName(fill(shellText.logo_label, { provider: cfg.providerName }));
      // the routed page is not hidden under the bar
      const barBox = await bar.boundingBox();
      const headingBox = await page.getByRole('heading', { level: 1 }).first().boundingBox();
      expect(headingBox && barBox && headingBox.y >= barBox.y + barBox.height - 1).toBe(true);
    });

    test('top bar hides on scroll down (−60 px, 0.3 s) and shows on scroll up and at the top', async ({
      page,
    }) => {
      await page.goto('/log-in');
      await makeScrollable(page);
      // the pointer rests on the page, as a person's does when scrolling with a wheel or touchpad
      await page.mouse.move(width / 2, 400);
      const bar = topBar(page);
      const transition = await bar.evaluate((el) => getComputedStyle(el).transition);
      expect(transition).toMatch(new RegExp(`transform ${TOP_BAR_TRANSITION_MS / 1000}s`));

      await page.mouse.wheel(0, 600);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      await expect.poll(() => translateY(page)).toBe(-TOP_BAR_HIDE_OFFSET_PX);
      await scrollSettled(page);
      await page.mouse.wheel(0, -200);
      await expect.poll(() => translateY(page)).toBe(0);
      await scrollSettled(page);
      await page.mouse.wheel(0, 600);
      await expect.poll(() => translateY(page)).toBe(-TOP_BAR_HIDE_OFFSET_PX);
      await scrollSettled(page);
      await page.evaluate(() => window.scrollTo(0, 0));
      await expect.poll(() => translateY(page)).toBe(0);
    });

    test('choosing a language switches the page language and moves the current marker', async ({ page }) => {
      await page.goto('/log-in');
      await expect(page.getByRole('heading', { name: en.login.heading })).toBeVisible();
      await languageTrigger(page).click();
      const mobile = width <= MOBILE_MAX_WIDTH;
      if (mobile) {
        // a full-screen modal opened from the globe icon
        const modal = page.getByRole('dialog');
        await expect(modal).toBeVisible();
        const box = await modal.boundingBox();
        expect(box?.width).toBeGreaterThanOrEqual(width - 1);
      } else {
        await expect(page.getByRole('dialog')).toHaveCount(0);
        // the menu button toggles: a second press closes it, a third opens it again
        await expect(page.getByRole('menu')).toBeVisible();
        await languageTrigger(page).click();
        await expect(page.getByRole('menu')).toHaveCount(0);
        await languageTrigger(page).click();
        await expect(page.getByRole('menu')).toBeVisible();
      }
      await expectCurrentLanguage(page, 'English', true);
      await languageChoice(page, 'Français').click();

      await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
      await expect(page.getByRole('heading', { name: catalogs.login.fr.heading })).toBeVisible();
      if (mobile) await expect(page.getByRole('dialog')).toBeHidden();

      await languageTrigger(page, 'fr').click();
      await expectCurrentLanguage(page, 'Français', true);
      await expectCurrentLanguage(page, 'English', false);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('menu')).toHaveCount(0);
      await expect(page.getByRole('dialog')).toHaveCount(0);
    });

    test('?locale=fr switches the language; an unknown route shows the login page', async ({ page }) => {
      await page.goto('/this/route/does-not-exist?locale=fr');
      await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
      await expect(page.getByRole('heading', { name: catalogs.login.fr.heading })).toBeVisible();
    });

    test('the non-production stamp is shown, and hidden when printing', async ({ page }) => {
      await page.goto('/log-in');
      await expect(stamp(page)).toBeVisible();
      const rotation = await stamp(page).evaluate((el) => getComputedStyle(el).transform);
      expect(rotation).not.toBe('none');
      // red: a strong red channel, weak green and blue
      expect(await stamp(page).evaluate((el) => getComputedStyle(el).backgroundColor)).toMatch(
        /rgba?\((1\d\d|2\d\d), \d{1,2}, \d{1,2}/,
      );
      await page.emulateMedia({ media: 'print' });
      await expect(stamp(page)).toBeHidden();
      await page.emulateMedia({ media: 'screen' });
      await expect(stamp(page)).toBeVisible();
    });
  });
}

test.describe(`the style rules switch menus at ${MENU_STYLE_BREAKPOINT} px (§2, §9)`, () => {
  for (const width of [MENU_STYLE_BREAKPOINT, MENU_STYLE_BREAKPOINT + 1]) {
    test(`at ${width} px the desktop dropdown is offered, naming the language${width <= MENU_STYLE_BREAKPOINT ? ' in the compact trigger' : ''}`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/log-in');
      const trigger = languageTrigger(page);
      await expect(trigger).toBeVisible();
      // the name stays visible at every width: the flag beside it never stands alone (issue 12)
      const name = trigger.getByText('English', { exact: true });
      expect((await name.boundingBox())?.width ?? 0).toBeGreaterThan(20);
      const [nameSize, triggerSize] = await name.evaluate((el) =>
        [el, el.parentElement ?? el].map((e) => parseFloat(getComputedStyle(e).fontSize)),
      );
      if (width <= MENU_STYLE_BREAKPOINT) expect(nameSize).toBeLessThan(triggerSize ?? 0);
      else expect(nameSize).toBe(triggerSize);
      await trigger.click();
      await expect(page.getByRole('menu')).toBeVisible();
      await expect(page.getByRole('dialog')).toHaveCount(0);
    });
  }
});

test.describe('languages and configuration (§2, issue 2)', () => {
  test('Arabic lays the page out right to left; every bundled language can be chosen', async ({ page }) => {
    await page.goto('/log-in?locale=ar');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
    await expect(page.getByRole('heading', { name: catalogs.login.ar.heading })).toBeVisible();
    for (const [code, heading] of [
      ['es', catalogs.login.es.heading],
      ['pt', catalogs.login.pt.heading],
      ['zh', catalogs.login.zh.heading],
      ['en', catalogs.login.en.heading],
    ] as const) {
      await page.goto(`/email?locale=${code}`);
      await page.getByRole('link', { name: catalogs.email[code].sso_link }).click();
      await expect(page.getByRole('heading', { name: heading })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    }
  });

  test('the chosen language is kept across pages', async ({ page }) => {
    await page.goto('/log-in?locale=es');
    await page.getByRole('link', { name: catalogs.login.es.continue_with_email }).click();
    await expect(page.getByRole('heading', { name: catalogs.email.es.title })).toBeVisible();
  });

  test('a missing config.json shows a clear full-page message, never a blank page', async ({ page }) => {
    await withPageConfig(page, () => null);
    await page.route(`**${CONFIG_PATH}`, (route) => route.fulfill({ status: 404, body: 'Not found' }));
    await page.goto('/log-in');
    await expect(page.getByText(/configuration/i).first()).toBeVisible();
    await expect(page.getByRole('heading', { name: en.login.heading })).toHaveCount(0);
  });

  test('a malformed config.json shows a clear full-page message', async ({ page }) => {
    await withPageConfig(page, () => '{"env": "staging", "apiUrl": ');
    await page.goto('/email');
    await expect(page.getByText(/configuration/i).first()).toBeVisible();
    await expect(page.getByRole('heading', { name: en.email.title })).toHaveCount(0);
  });

  test('a config.json missing fields shows the message too', async ({ page }) => {
    await withPageConfig(page, () => JSON.stringify({ env: 'staging' }));
    await page.goto('/log-in');
    await expect(page.getByText(/configuration/i).first()).toBeVisible();
  });

  test('the page carries config.json: nothing waits for fetching it', async ({ page }) => {
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    await page.goto('/log-in');
    await expect(page.getByRole('link', { name: shellText.footer_privacy })).toHaveAttribute(
      'href',
      (await portalConfig()).siteUrls.privacy,
    );
    await expect.poll(() => requests.some((p) => p.startsWith('/api/'))).toBe(true);
    expect(requests).not.toContain(CONFIG_PATH);
  });

  test('without it in the page, config.json is fetched before anything renders, not from under apiUrl', async ({
    page,
  }) => {
    await withPageConfig(page, () => null);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    await page.goto('/log-in');
    await expect(page.getByRole('heading', { name: en.login.heading })).toBeVisible();
    await expect.poll(() => requests.some((p) => p.startsWith('/api/'))).toBe(true);
    const apiCalls = requests.filter((p) => p.startsWith('/api/'));
    const configAt = requests.indexOf(CONFIG_PATH);
    expect(configAt).toBeGreaterThanOrEqual(0);
    for (const call of apiCalls) expect(requests.indexOf(call)).toBeGreaterThan(configAt);
  });

  test('navigation scrolls to the top', async ({ page }) => {
    await page.goto('/log-in');
    await makeScrollable(page);
    await page.evaluate(() => window.scrollTo(0, 1500));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    // the link sits near the top; a programmatic click keeps the scroll position until the router moves
    await page.getByRole('link', { name: en.login.continue_with_email }).dispatchEvent('click');
    await expect(page).toHaveURL(/\/email$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('an #anchor link scrolls to its target without reloading the page data', async ({
    page,
    loginRequest,
  }) => {
    const paramsCalls = await openCountingParamsCalls(page, (await loginRequest()).csrf);
    await makeScrollable(page);
    // the skip link is the first thing the keyboard reaches
    await page.keyboard.press('Tab');
    const skipLink = page.getByRole('link', { name: shellText.skip_to_content });
    await expect(skipLink).toBeFocused();
    // far down the page (the focused link sits at its top), so only the anchor can bring its target
    // back into view; a programmatic click does not scroll to the link first
    await page.evaluate(() => window.scrollTo(0, 1500));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await skipLink.dispatchEvent('click');
    await expect(page).toHaveURL(/#main$/);
    await expect(page.getByRole('heading', { name: en.login.heading })).toBeInViewport();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeLessThan(200);
    // a refetch would start from an effect after the navigation's render: give it two frames and a task
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done)))),
    );
    expect(paramsCalls()).toBe(1);
  });

  test('navigating to the URL you are on reloads the page data', async ({ page, loginRequest }) => {
    const paramsCalls = await openCountingParamsCalls(page, (await loginRequest()).csrf);
    // a router navigation to the same path (a new history entry, as a link to the current URL makes)
    await page.evaluate(() => {
      const state = window.history.state as { idx?: number } | null;
      window.history.pushState(
        { usr: null, key: 'same-url', idx: (state?.idx ?? 0) + 1 },
        '',
        window.location.pathname,
      );
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    });
    await expect.poll(paramsCalls).toBe(2);
    await expect(page.getByRole('heading', { name: en.login.heading })).toBeVisible();
  });
});

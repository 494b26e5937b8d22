import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/index.ts';
import { createUser } from '../fixtures/admin.ts';
import { STRONG_PASSWORD } from '../fixtures/emails.ts';
import { PAGE_VISITS, expectNoHorizontalScroll, rememberEmail } from '../fixtures/pages.ts';
import { catalogs, en, providerButton, shellText } from '../fixtures/text.ts';

const MAIN = new Set([
  'log-in',
  'email',
  'create-account',
  'create-account-errors',
  'code',
  'post-login',
  'password-reset',
  'access-code',
  'sign-in',
  'error-generic',
]);
const visits = PAGE_VISITS.filter((v) => MAIN.has(v.name));
// 200% zoom (640 CSS px) is wider than 390 px, so it is checked on the longest forms only
const ZOOMED = new Set(['log-in', 'create-account-errors', 'sign-in', 'password-reset']);

test.describe('works at 390 px width (issue 3 quality)', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  for (const { name, visit } of visits) {
    test(`390 px: ${name} has no horizontal scroll and its heading is in view`, async ({
      page,
      visitContext,
    }) => {
      await visit(page, visitContext);
      await expectNoHorizontalScroll(page, name);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeInViewport();
    });
  }
});

test.describe('reflows at 320 px, WCAG 1.4.10 (issue 12)', () => {
  test.use({ viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true });
  for (const { name, visit } of visits) {
    test(`320 px: ${name} has no horizontal scroll`, async ({ page, visitContext }) => {
      await visit(page, visitContext);
      await expectNoHorizontalScroll(page, name);
    });
  }
});

test.describe('at 320 px with WCAG 1.4.12 text spacing', () => {
  // the person's own stylesheet (an extension's) applies whatever the page's CSP says
  test.use({ viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true, bypassCSP: true });
  test('a password stays readable beside its show/hide button, whose label is longest in French', async ({
    page,
  }) => {
    await page.goto('/create-account?locale=fr');
    await page.addStyleTag({
      content:
        '* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; } p { margin-block-end: 2em !important; }',
    });
    const password = page.getByRole('textbox', { name: 'Mot de passe', exact: true });
    await password.fill('Maple-Orbit-2718');
    await expect(page.getByRole('button', { name: 'Afficher le mot de passe' }).first()).toBeVisible();
    // 8rem: a dozen characters of the password in view (the button's label left it 24 px)
    expect((await password.boundingBox())?.width).toBeGreaterThanOrEqual(120);
    await expectNoHorizontalScroll(page, 'create-account in French');
  });
});

test.describe('at 200 % text size, WCAG 1.4.4', () => {
  /** The browser's text size doubled (its default font 32 px), as a low-vision student sets it. */
  const doubleText = async (page: Page) =>
    (await page.context().newCDPSession(page)).send('Page.setFontSizes', {
      fontSizes: { standard: 32, fixed: 26 },
    });

  for (const width of [1400, 640]) {
    test(`${width} px: the language control stays inside the top bar`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await doubleText(page);
      await page.goto('/email?locale=de');
      const bar = await page.getByRole('banner').boundingBox();
      const control = await page
        .getByRole('banner')
        .getByRole('button')
        .filter({ visible: true })
        .boundingBox();
      expect(bar && control).toBeTruthy();
      if (!bar || !control) return;
      expect(control.y).toBeGreaterThanOrEqual(bar.y);
      expect(control.y + control.height).toBeLessThanOrEqual(bar.y + bar.height);
    });
  }

  test('320 px: the skip link, wrapped to three lines, stays off screen until focused', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 700 });
    await doubleText(page);
    await page.goto('/log-in?locale=de');
    const skip = page.getByRole('link', { name: 'Zum Hauptinhalt springen' });
    const hidden = await skip.boundingBox();
    expect(hidden && hidden.y + hidden.height).toBeLessThanOrEqual(0);
    // a tap on the language control opens the language dialog, not the skip link's target
    await page.getByRole('banner').getByRole('button').filter({ visible: true }).click({ trial: true });
    await skip.focus();
    const shown = await skip.boundingBox();
    expect(shown && shown.y).toBeGreaterThanOrEqual(0);
  });

  test("320 px: a mailed code's 8 digits and a class code's 6 stay in view in their field", async ({
    page,
    visitContext,
  }) => {
    await page.setViewportSize({ width: 320, height: 800 });
    await doubleText(page);
    for (const [name, code] of [
      ['code', '12345678'],
      ['access-code', '123456'],
    ] as const) {
      const visit = PAGE_VISITS.find((v) => v.name === name);
      expect(visit, name).toBeDefined();
      await visit?.visit(page, visitContext);
      const field = page.getByRole('textbox').first();
      await field.fill(code);
      const hidden = await field.evaluate((input) => input.scrollWidth - input.clientWidth);
      expect(hidden, `${name}: digits beyond the field's edge (px)`).toBeLessThanOrEqual(0);
    }
  });

  test('320 px in German: the code, validate and password pages do not scroll sideways', async ({
    page,
    visitContext,
  }) => {
    await page.setViewportSize({ width: 320, height: 800 });
    await doubleText(page);
    const email = visitContext.email('ada');
    await rememberEmail(page, email);
    await page.goto('/code?locale=de');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expectNoHorizontalScroll(page, 'code');
    await page.goto(`/validate?em=${encodeURIComponent(email)}&vc=12345678&locale=de`);
    await page.getByRole('button', { name: catalogs.validate.de.submit }).waitFor();
    await expectNoHorizontalScroll(page, 'validate');
    await createUser({ email, password: STRONG_PASSWORD });
    await page.goto('/email?locale=de');
    await page.getByLabel(catalogs.email.de.email_label, { exact: true }).fill(email);
    await page.getByRole('button', { name: catalogs.email.de.submit, exact: true }).click();
    await page.waitForURL(/\/sign-in\//);
    await page.getByRole('heading', { name: catalogs.signIn.de.title }).waitFor();
    await expectNoHorizontalScroll(page, 'sign-in');
  });

  test('390 px: the show/hide button stays inside the password field', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await doubleText(page);
    await page.goto('/create-account?locale=de');
    const toggle = page.getByRole('button', { name: 'Passwort anzeigen' }).first();
    const frame = await toggle.locator('..').boundingBox();
    const button = await toggle.boundingBox();
    expect(frame && button).toBeTruthy();
    if (!frame || !button) return;
    expect(button.x + button.width).toBeLessThanOrEqual(frame.x + frame.width);
  });
});

test.describe('the show/hide label', () => {
  test.use({ viewport: { width: 390, height: 800 } });
  test('sits on one line beside the password at 390 px', async ({ page }) => {
    await page.goto('/create-account?locale=fr');
    const lines = await page
      .getByRole('button', { name: 'Afficher le mot de passe' })
      .first()
      .evaluate((button) => {
        const range = document.createRange();
        range.selectNodeContents(button);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
      });
    expect(lines).toBe(1);
  });
});

test.describe('the show/hide toggle at 320 px', () => {
  test.use({ viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true });
  // German first: 'Passwort verbergen' wrapped to two lines and left the password 128 px beside 130
  for (const language of ['de', 'fr', 'es', 'pt', 'ar', 'zh', 'en'] as const) {
    test(`${language}: one line, and the password's text area wider than it`, async ({ page }) => {
      await page.goto(`/create-account?locale=${language}`);
      const show = page.getByRole('button', { name: catalogs.common[language].show_password, exact: true });
      const inputId = await show.first().getAttribute('aria-controls');
      const input = page.locator(`#${inputId}`);
      // by what it controls: its name changes as it is pressed
      const toggle = page.locator(`button[aria-controls="${inputId}"]`);
      const expectOneLineBesideTheText = async (label: string) => {
        const lines = await toggle.evaluate((button) => {
          const range = document.createRange();
          range.selectNodeContents(button);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        });
        expect(lines, label).toBe(1);
        const textArea = await input.evaluate((el) => {
          const style = getComputedStyle(el);
          return el.clientWidth - parseFloat(style.paddingInlineStart) - parseFloat(style.paddingInlineEnd);
        });
        expect(textArea, label).toBeGreaterThan((await toggle.boundingBox())?.width ?? Infinity);
      };
      await expectOneLineBesideTheText('show');
      // its other label, 'Hide' ('Verbergen'), the longer one in some languages
      await toggle.click();
      await expect(input).toHaveAttribute('type', 'text');
      await expectOneLineBesideTheText('hide');
    });
  }
});

test.describe('a long email address wraps at 360 px', () => {
  test.use({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
  const email = 'jacqueline.montgomery2031@students.westfieldacademy.example';
  const query = new URLSearchParams({ code: '12345678', email }).toString();
  for (const path of [
    `/forgot-password?${query}`,
    `/password-reset?${query}`,
    '/code',
    '/send-verification-code',
  ]) {
    test(`360 px: the lead of ${path.split('?')[0]} naming it has no horizontal scroll`, async ({ page }) => {
      await rememberEmail(page, email);
      await page.goto(path);
      await expect(page.getByText(email)).toBeVisible();
      await expectNoHorizontalScroll(page, path);
    });
  }
});

test.describe('works at 200% zoom (issue 3 quality)', () => {
  // 200% zoom of a 1280 px window: a 640 CSS px layout viewport at device scale factor 2
  test.use({ viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 });
  for (const { name, visit } of visits.filter((v) => ZOOMED.has(v.name))) {
    test(`200% zoom: ${name} has no horizontal scroll`, async ({ page, visitContext }) => {
      await visit(page, visitContext);
      await expectNoHorizontalScroll(page, name);
    });
  }
});

test.describe('at 400% zoom the modals keep the focused control in view, WCAG 2.4.11', () => {
  // 400% zoom of a 1280×800 window: a 320×200 CSS px viewport, in which both modals scroll
  test.use({ viewport: { width: 320, height: 200 }, deviceScaleFactor: 4 });

  test('the work/school dialog: its email field as it opens and as Tab wraps around to it', async ({
    page,
  }) => {
    await page.goto('/log-in');
    await page.getByRole('button', { name: providerButton('Microsoft') }).press('Enter');
    const dialog = page.getByRole('dialog', { name: en.login.work_email_title });
    const email = dialog.getByLabel(en.login.work_email_label);
    await expect(email).toBeFocused();
    await expect(email).toBeInViewport({ ratio: 1 });
    // the close button is the last control: focusing it scrolls the field out of view
    await dialog.getByRole('button', { name: shellText.close }).focus();
    await expect(email).not.toBeInViewport({ ratio: 1 });
    await page.keyboard.press('Tab');
    await expect(email).toBeFocused();
    await expect(email).toBeInViewport({ ratio: 1 });
  });

  test('the language modal: its close button as Tab wraps around to it', async ({ page }) => {
    await page.goto('/log-in');
    await page.getByRole('button', { name: shellText.language_menu_open }).press('Enter');
    const dialog = page.getByRole('dialog', { name: shellText.language_menu_open });
    const close = dialog.getByRole('button', { name: shellText.language_menu_close });
    await expect(close).toBeFocused();
    // the last language is the last control: focusing it scrolls the close button out of view
    await dialog.getByRole('listitem').last().getByRole('button').focus();
    await expect(close).not.toBeInViewport({ ratio: 1 });
    await page.keyboard.press('Tab');
    await expect(close).toBeFocused();
    await expect(close).toBeInViewport({ ratio: 1 });
  });
});

test.describe('form controls keep their shape (issue 3 quality)', () => {
  test('the chosen radio shows a round dot, the ticked checkbox a centred mark', async ({ page }) => {
    await page.goto('/post-login');
    const yes = page.getByRole('radio', { name: en.postLogin.yes, exact: true });
    await yes.check();
    // the dot is the radio's ::before, painted only when chosen
    const dotOf = (radio: typeof yes) =>
      radio.evaluate((element) => {
        const style = getComputedStyle(element, '::before');
        return {
          width: Number.parseFloat(style.width),
          height: Number.parseFloat(style.height),
          radius: style.borderRadius,
          painted: style.backgroundColor !== 'rgba(0, 0, 0, 0)',
        };
      });
    const dot = await dotOf(yes);
    expect(dot.width).toBeGreaterThan(0);
    expect(dot.width).toBeCloseTo(dot.height, 0);
    expect(dot).toMatchObject({ radius: '50%', painted: true });
    expect((await dotOf(page.getByRole('radio', { name: en.postLogin.no, exact: true }))).painted).toBe(
      false,
    );

    await page.route('**/api/auth/setBasicUserRole/**', (route) =>
      route.fulfill({ json: { status: 'success', payload: null } }),
    );
    await page.getByRole('radio', { name: en.postLogin.no, exact: true }).check();
    await page.getByRole('button', { name: en.postLogin.next, exact: true }).click();
    const box = page.getByRole('checkbox').first();
    await box.click();
    const [outer, mark] = await Promise.all([box.boundingBox(), box.locator('svg').boundingBox()]);
    expect(mark?.width).toBeGreaterThan(0);
    // centred: equal space on both sides of the mark
    const left = (mark?.x ?? 0) - (outer?.x ?? 0);
    const right = (outer?.x ?? 0) + (outer?.width ?? 0) - ((mark?.x ?? 0) + (mark?.width ?? 0));
    expect(Math.abs(left - right)).toBeLessThanOrEqual(1);
  });
});

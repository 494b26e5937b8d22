import { messages } from '@frontdoor/contract';
import { expect, sessionOf, test } from '../fixtures/index.ts';
import { signInAtDevIdp } from '../fixtures/flows.ts';
import { uniqueEmail } from '../fixtures/emails.ts';
import { providerButton } from '../fixtures/text.ts';

const EVIL = 'http://evil.example';

test.describe('the sign-in loop refuses what it must (issue 5)', () => {
  test.beforeEach(async ({ page }) => {
    // nothing may ever be sent to a foreign site; count any attempt
    await page.route(`${EVIL}/**`, (route) => route.fulfill({ status: 200, body: 'evil' }));
  });

  test('a forged state at the callback gets a clear 400 page and no session', async ({ page }) => {
    const res = await page.goto('/api/auth/callback?code=stolen-code&state=forged-state');
    expect(res?.status()).toBe(400);
    await expect(page.getByText(messages.stateInvalid)).toBeVisible();
    expect((await sessionOf(page)).loggedin).toBe(false);
  });

  test('a replayed callback (same code and state) is refused, in the same and in another browser', async ({
    page,
    browser,
  }) => {
    await page.goto('/log-in');
    const callback = page.waitForRequest((r) => r.url().includes('/api/auth/callback?'));
    await page.getByRole('button', { name: providerButton('Google') }).click();
    await signInAtDevIdp(page, 'Google', { first: 'Rey', last: 'Play', email: uniqueEmail('replay') });
    const callbackUrl = (await callback).url();
    await expect(page).toHaveURL(/\/post-login$/);

    const again = await page.goto(callbackUrl);
    expect(again?.status()).toBe(400);
    await expect(page.getByText(messages.stateInvalid)).toBeVisible();

    const other = await browser.newContext();
    try {
      const otherPage = await other.newPage();
      const res = await otherPage.goto(callbackUrl);
      expect(res?.status()).toBe(400);
      expect((await sessionOf(otherPage)).loggedin).toBe(false);
    } finally {
      await other.close();
    }
  });

  test('an unknown client and a wrong redirect_uri are refused at the authorization server', async ({
    page,
  }) => {
    let evilHits = 0;
    page.on('request', (r) => {
      if (r.url().startsWith(EVIL)) evilHits += 1;
    });
    await page.goto('/log-in');
    // hold the real authorize request (answered by the test) to copy its parameters
    await page.route(
      '**/oidc/oauth2/authorize?**',
      (route) => route.fulfill({ body: 'held', contentType: 'text/plain' }),
      {
        times: 1,
      },
    );
    await page.getByRole('button', { name: providerButton('Google') }).click();
    await page.waitForURL(/\/oidc\/oauth2\/authorize\?/);
    const real = new URL(page.url());

    const unknownClient = new URL(real);
    unknownClient.searchParams.set('client_id', 'no-such-client');
    const res1 = await page.goto(unknownClient.toString());
    expect(res1?.status()).toBeGreaterThanOrEqual(400);
    expect(new URL(page.url()).pathname).toMatch(/^\/oidc\//);

    const wrongRedirect = new URL(real);
    wrongRedirect.searchParams.set('redirect_uri', `${EVIL}/callback`);
    const res2 = await page.goto(wrongRedirect.toString());
    expect(res2?.status()).toBeGreaterThanOrEqual(400);
    expect(new URL(page.url()).pathname).toMatch(/^\/oidc\//);
    expect(evilHits).toBe(0);
  });

  test('auth/cookie with an unknown hash is a 400 page, never a redirect to the return URL', async ({
    page,
  }) => {
    const res = await page.goto(
      `/api/auth/cookie?hash=not-a-real-hash&return_url=${encodeURIComponent(`${EVIL}/app`)}&token=x`,
    );
    expect(res?.status()).toBe(400);
    await expect(page.getByText(messages.cookieHashInvalid)).toBeVisible();
    expect(page.url()).not.toContain(EVIL);
  });
});

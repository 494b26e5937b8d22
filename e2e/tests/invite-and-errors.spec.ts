import {
  CONFIG_PATH,
  CSRF_COOKIE,
  CSRF_HEADER,
  apiPaths,
  messages,
  type PortalConfig,
} from '@frontdoor/contract';
import { expect, openLoginRequest, savedLoginData, test } from '../fixtures/index.ts';
import { MAIL_SUBJECTS, confirmWithMailedCode, fillSignupForm } from '../fixtures/flows.ts';
import { createInvite } from '../fixtures/admin.ts';
import { STRONG_PASSWORD, uniqueEmail } from '../fixtures/emails.ts';
import { linkTo, waitForMail } from '../fixtures/mailbox.ts';
import { en, fill, shellText } from '../fixtures/text.ts';
import { PORTAL_URL } from '../fixtures/env.ts';
import { withPageConfig } from '../fixtures/page-config.ts';

test.describe('invite links (§2 invite/{code}, §6)', () => {
  test('the invite prefills the email, the sign-up carries the code, and the account is created', async ({
    page,
  }) => {
    const email = uniqueEmail('invitee');
    const { code } = await createInvite(email);
    await page.goto(`/invite/${code}`);
    await expect(page.getByRole('heading', { name: en.signup.title })).toBeVisible();
    await expect(page.getByLabel(en.signup.email_label, { exact: true })).toHaveValue(email);

    const signup = page.waitForRequest((r) => r.url().endsWith('/api/cognito/signup'));
    await fillSignupForm(page, { first: 'Ivy', last: 'Invitee' }, STRONG_PASSWORD);
    await page.getByRole('button', { name: en.signup.submit }).click();
    expect((await signup).postDataJSON()).toMatchObject({ email, code, first: 'Ivy', last: 'Invitee' });
    await confirmWithMailedCode(page, email);
    await expect(page).toHaveURL(/\/sign-in\//);
  });

  test('an unknown invite code shows the server message', async ({ page }) => {
    await page.goto('/invite/not-a-real-invite');
    await expect(page.getByText(messages.inviteNotFound)).toBeVisible();
  });

  test('the invite mail leads to the invite page', async () => {
    // invites created with the admin CLI are mailed to the invitee
    const cfg = (await (await fetch(`${PORTAL_URL}${CONFIG_PATH}`)).json()) as PortalConfig;
    const email = uniqueEmail('invite-mail');
    const { code } = await createInvite(email);
    const mail = await waitForMail(email);
    expect(mail.subject).toBe(MAIL_SUBJECTS.invite(cfg.providerName));
    expect(linkTo(mail, '/invite/').pathname).toBe(`/invite/${code}`);
  });
});

test.describe('login params (§2 log-in/{csrf}, §8 login params failure)', () => {
  test('log-in/{csrf} saves login_csrf and login_params in browser storage', async ({
    page,
    loginRequest,
    sp,
  }) => {
    const { csrf, returnUrl } = await loginRequest({ isTeacher: true });
    await openLoginRequest(page, csrf);
    await expect(page.getByRole('heading', { name: en.login.heading })).toBeVisible();
    const { params } = await savedLoginData(page);
    expect(JSON.parse(params ?? 'null')).toEqual({ url: returnUrl, isTeacher: true, sp_id: sp.sp_id });
  });

  // the routes without the segment are visited by the other tests of their pages
  test('every {csrf} route works with the segment', async ({ page, loginRequest }) => {
    const { csrf } = await loginRequest();
    const routes: [string, string][] = [
      ['log-in', en.login.heading],
      ['create-account', en.signup.title],
      ['post-login', en.postLogin.student_question],
      ['access-code', en.accessCode.title],
      ['error-generic', en.errorPages.generic_title],
      ['error-timeout', en.errorPages.timeout_title],
    ];
    for (const [route, heading] of routes) {
      const path = `/${route}/${csrf}`;
      await page.goto(path);
      await expect(page, path).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole('heading', { level: 1, name: heading }), path).toBeVisible();
    }
    // the segment was read: the login request is remembered
    expect((await savedLoginData(page)).csrf).toBe(csrf);
  });

  test('an unknown login request shows the server message', async ({ page }) => {
    await page.goto('/log-in/no-such-request');
    await expect(page.getByText(messages.loginRequestNotFound)).toBeVisible();
  });

  test("a failure without a message shows 'Unknown failure retrieving login params'", async ({ page }) => {
    await page.route('**/api/gateway/getCsrfLogin/**', (route) =>
      route.fulfill({
        status: 404,
        contentType: 'application/json',
        body: JSON.stringify({ status: 'error', msg: '' }),
      }),
    );
    await page.goto('/log-in/whatever');
    await expect(page.getByText(messages.loginParamsFailure, { exact: true })).toBeVisible();
  });
});

test.describe('error pages (§2 error-generic, error-timeout; §8)', () => {
  const kinds = [
    { path: 'error-generic', body: en.errorPages.generic_body },
    { path: 'error-timeout', body: en.errorPages.timeout_body },
  ];
  for (const { path, body } of kinds) {
    test(`${path} names the provider; Continue → log-in`, async ({ page }) => {
      const config = (await (await fetch(`${PORTAL_URL}${CONFIG_PATH}`)).json()) as PortalConfig;
      await page.goto(`/${path}`);
      await expect(page.getByText(fill(body, { provider: config.providerName }))).toBeVisible();
      await page
        .getByRole('button', { name: en.errorPages.continue })
        .or(page.getByRole('link', { name: en.errorPages.continue }))
        .click();
      await expect(page).toHaveURL(/\/log-in$/);
    });

    test(`${path}/{csrf}: Continue → log-in/{csrf}; Go back returns to the previous page`, async ({
      page,
      loginRequest,
    }) => {
      const { csrf } = await loginRequest();
      await page.goto('/email');
      await page.goto(`/${path}/${csrf}`);
      await page
        .getByRole('button', { name: en.errorPages.go_back })
        .or(page.getByRole('link', { name: en.errorPages.go_back }))
        .click();
      await expect(page).toHaveURL(/\/email$/);
      await page.goto(`/${path}/${csrf}`);
      await page
        .getByRole('button', { name: en.errorPages.continue })
        .or(page.getByRole('link', { name: en.errorPages.continue }))
        .click();
      await expect(page).toHaveURL(new RegExp(`/log-in/${csrf}$`));
    });
  }
});

test.describe('calls a page cannot do without (issue 2 HTTP client)', () => {
  test('a call that exceeds the configured timeout sends the user to /error-timeout', async ({ page }) => {
    // a short requestTimeoutMs in config.json, and an API that never answers the login params
    await withPageConfig(page, (json) =>
      JSON.stringify({ ...(JSON.parse(json) as PortalConfig), requestTimeoutMs: 1500 }),
    );
    await page.route('**/api/gateway/getCsrfLogin/**', () => {
      // left unanswered on purpose
    });
    await page.goto('/log-in/slow-request');
    await expect(page).toHaveURL(/\/error-timeout(\/|$)/);
    await expect(page.getByRole('heading', { name: en.errorPages.timeout_title })).toBeVisible();
  });

  test('a server that stops answering mid-flow still gets its timeout page shown, never the form it froze on', async ({
    page,
    loginRequest,
  }) => {
    await withPageConfig(page, (json) =>
      JSON.stringify({ ...(JSON.parse(json) as PortalConfig), requestTimeoutMs: 1500 }),
    );
    const { csrf } = await loginRequest();
    await page.goto(`/access-code/${csrf}`);
    const submit = page.getByRole('button', { name: en.accessCode.submit });
    await expect(submit).not.toHaveAttribute('aria-busy');
    // the server freezes (kill -STOP): nothing asked of it from now on comes back, a page's chunk neither
    await page.route('**/*', () => {
      // left unanswered on purpose
    });
    await page.getByLabel(en.accessCode.code_label, { exact: true }).fill('318264');
    await submit.click();
    await expect(page).toHaveURL(new RegExp(`/error-timeout/${csrf}$`));
    await expect(page.getByRole('heading', { name: en.errorPages.timeout_title })).toBeVisible();
    await expect(submit).toHaveCount(0);
  });

  test('API calls go to apiUrl with the cookies and the CSRF header equal to its cookie', async ({
    page,
    context,
  }) => {
    const cfg = (await (await fetch(`${PORTAL_URL}${CONFIG_PATH}`)).json()) as PortalConfig;
    await page.goto('/email');
    const call = page.waitForRequest((r) => r.url().endsWith(`/${apiPaths.validateEmail}`));
    await page.getByLabel(en.email.email_label, { exact: true }).fill(uniqueEmail('headers'));
    await page.getByRole('button', { name: en.email.submit, exact: true }).click();
    const request = await call;
    expect(request.url()).toBe(new URL(apiPaths.validateEmail, new URL(cfg.apiUrl, PORTAL_URL)).toString());
    const headers = await request.allHeaders();
    const csrfCookie = (await context.cookies()).find((c) => c.name === CSRF_COOKIE);
    expect(csrfCookie?.value).toBeTruthy();
    expect(headers[CSRF_HEADER]).toBe(csrfCookie?.value);
    expect(headers.cookie).toContain(`${CSRF_COOKIE}=`);
  });

  test('a 5xx answer sends the user to /error-generic', async ({ page }) => {
    await page.route('**/api/gateway/getCsrfLogin/**', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ status: 'error', msg: 'down' }),
      }),
    );
    await page.goto('/log-in/unlucky-request');
    await expect(page).toHaveURL(/\/error-generic(\/|$)/);
    await expect(page.getByRole('heading', { name: en.errorPages.generic_title })).toBeVisible();
  });

  test('a network failure sends the user to /error-generic', async ({ page }) => {
    await page.route('**/api/gateway/getCsrfLogin/**', (route) => route.abort('connectionrefused'));
    await page.goto('/log-in/offline-request');
    await expect(page).toHaveURL(/\/error-generic(\/|$)/);
  });

  test('the next page not downloaded (the Wi-Fi dropped during the page change) says so, and loads by itself once back online', async ({
    page,
    context,
  }) => {
    await page.goto('/create-account');
    await fillSignupForm(
      page,
      { first: 'Ada', last: 'Lovelace', email: uniqueEmail('chunk-offline') },
      STRONG_PASSWORD,
    );
    await page.route(/\/static\/CodePage-[^/]*\.js$/, (route) => route.abort('internetdisconnected'));
    await page.getByRole('button', { name: en.signup.submit }).click();
    await expect(page.getByRole('heading', { name: shellText.app_error_title })).toBeVisible();
    await expect(page.getByText(messages.networkError)).toBeVisible();
    await page.unrouteAll();
    await context.setOffline(true);
    await context.setOffline(false);
    await expect(page.getByRole('heading', { name: en.verification.code_title })).toBeVisible();
  });
});

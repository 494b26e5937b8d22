import {
  LOGIN_BUTTON_PROVIDERS,
  STORAGE_KEYS,
  SUBSCRIPTION_IDS,
  messages,
  type UpstreamProvider,
} from '@frontdoor/contract';
import type { Page } from '@playwright/test';
import { expectBackOnProduct, expect, sessionOf, test } from '../fixtures/index.ts';
import {
  answerStudentQuestion,
  choosePreferences,
  nextAuthorizeRequest,
  signInAtDevIdp,
} from '../fixtures/flows.ts';
import { setRealm } from '../fixtures/admin.ts';
import { uniqueDomain, uniqueEmail } from '../fixtures/emails.ts';
import { en, providerButton } from '../fixtures/text.ts';

/** The work/school modal: types the email and continues (realm discovery picks the provider). */
async function workSchoolModal(page: Page, email: string): Promise<void> {
  await page.getByRole('button', { name: providerButton('Microsoft') }).click();
  const modal = page.getByRole('dialog', { name: en.login.work_email_title });
  await expect(modal).toBeVisible();
  await modal.getByLabel(en.login.work_email_label).fill(email);
  await modal.getByRole('button', { name: en.login.work_email_submit }).click();
}

/**
 * Signed in as the person typed at the provider. Only Google and Apple verify emails the portal trusts
 * for an account's address; the others' accounts get a reserved placeholder address
 * (apps/api/src/identity/linked-identities.ts), so for them the names identify the person.
 */
async function expectSignedInFrom(
  page: Page,
  provider: UpstreamProvider,
  person: { email: string; first: string; last: string },
) {
  const trusted = provider === 'Google' || provider === 'SignInWithApple';
  await expect
    .poll(() => sessionOf(page))
    .toEqual({
      loggedin: true,
      email: trusted ? person.email : expect.stringMatching(/@federated\.invalid$/),
      first: person.first,
      last: person.last,
    });
}

const DIRECT: UpstreamProvider[] = LOGIN_BUTTON_PROVIDERS.filter((p) => p !== 'Microsoft');

test.describe('sign-in through every identity provider (issue 5 loop, §4 social login)', () => {
  for (const provider of DIRECT) {
    test(`${provider}: button → get_csrf → authorize → dev IdP → callback → post-login → return URL`, async ({
      page,
      loginRequest,
    }) => {
      const person = { first: 'Ida', last: provider, email: uniqueEmail(provider.toLowerCase()) };
      const { csrf, returnUrl } = await loginRequest({ journey: provider });
      await page.goto(`/log-in/${csrf}`);

      const authorize = nextAuthorizeRequest(page);
      await page.getByRole('button', { name: providerButton(provider) }).click();
      const params = await authorize;
      expect(params.get('identity_provider')).toBe(provider);
      expect(params.get('response_type')).toBe('code');
      expect(params.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));
      expect(params.get('redirect_uri')).toMatch(/\/api\/auth\/callback$/);
      expect(params.get('client_id')).toBeTruthy();
      expect(params.get('state')).toBeTruthy();

      await signInAtDevIdp(page, provider, person);
      await expect(page).toHaveURL(new RegExp(`/post-login/${csrf}$`));
      await expectSignedInFrom(page, provider, person);
      await answerStudentQuestion(page, false);
      await choosePreferences(page, []);
      await expectBackOnProduct(page, returnUrl);
    });
  }

  test('Microsoft work/school: a Managed domain → the work/school provider', async ({
    page,
    loginRequest,
  }) => {
    const domain = uniqueDomain('managed');
    await setRealm(domain, 'Managed');
    const person = { first: 'Wendy', last: 'Work', email: uniqueEmail('work', domain) };
    const { csrf, returnUrl } = await loginRequest({ journey: 'Microsoft' });
    await page.goto(`/log-in/${csrf}`);
    await workSchoolModal(page, person.email);
    await signInAtDevIdp(page, 'Microsoft', person);
    await answerStudentQuestion(page, true);
    await expectBackOnProduct(page, returnUrl);
    await expectSignedInFrom(page, 'Microsoft', person);
  });

  test('Microsoft personal: a Federated domain → the personal-accounts variant', async ({
    page,
    loginRequest,
  }) => {
    const domain = uniqueDomain('federated');
    await setRealm(domain, 'Federated');
    const person = { first: 'Pat', last: 'Personal', email: uniqueEmail('personal', domain) };
    const { csrf, returnUrl } = await loginRequest({ journey: 'MicrosoftPersonal' });
    await page.goto(`/log-in/${csrf}`);
    const authorize = nextAuthorizeRequest(page);
    await workSchoolModal(page, person.email);
    const params = await authorize;
    expect(params.get('identity_provider')).toBe('MicrosoftPersonal');
    expect(params.get('login_hint')).toBe(person.email);
    await signInAtDevIdp(page, 'MicrosoftPersonal', person);
    await answerStudentQuestion(page, true);
    await expectBackOnProduct(page, returnUrl);
    await expectSignedInFrom(page, 'MicrosoftPersonal', person);
  });

  test('Clever Instant Login: a launch from the Clever portal (a code, no state) signs in through a fresh sign-in', async ({
    page,
  }) => {
    const person = { first: 'Ina', last: 'Stant', email: uniqueEmail('instant') };
    // what the Clever portal's app tile does: the redirect URI with a code and no state of ours
    await page.goto('/oidc/interaction/callback/Clever?code=instant-login-code');
    await signInAtDevIdp(page, 'Clever', person);
    await expect(page).toHaveURL(/\/post-login$/);
    await expectSignedInFrom(page, 'Clever', person);
    await expect(page.getByRole('heading', { name: en.postLogin.student_question })).toBeVisible();
  });

  test('an unknown realm falls back to the work/school provider', async ({ page }) => {
    await page.goto('/log-in');
    await workSchoolModal(page, uniqueEmail('unknown', uniqueDomain('unknown')));
    await expect(page).toHaveURL(/\/dev\/idp\/Microsoft\/interaction\//);
  });

  test("offline, the dev identity provider answers realm discovery: the modal's three outcomes", async ({
    page,
  }) => {
    const outcomes = [
      { domain: 'managed.example', accountType: 'Managed', provider: 'Microsoft' },
      { domain: 'personal.example', accountType: 'Federated', provider: 'MicrosoftPersonal' },
      { domain: uniqueDomain('elsewhere'), accountType: 'Unknown', provider: 'Microsoft' },
    ] as const;
    // the server's own answers, as the modal received them
    const answered: string[] = [];
    await page.route('**/api/v2/auth/microsoft-user-realm', async (route) => {
      const response = await route.fetch();
      answered.push(((await response.json()) as { payload: { accountType: string } }).payload.accountType);
      await route.fulfill({ response });
    });
    for (const { domain, accountType, provider } of outcomes) {
      await page.goto('/log-in');
      const authorize = nextAuthorizeRequest(page);
      await workSchoolModal(page, uniqueEmail('realm', domain));
      expect((await authorize).get('identity_provider')).toBe(provider);
      await expect(page).toHaveURL(new RegExp(`/dev/idp/${provider}/interaction/`));
      expect(answered.at(-1)).toBe(accountType);
    }
  });

  test('ClassLink LaunchPad: a launch from the LaunchPad (a code, no state) signs in through a fresh sign-in', async ({
    page,
  }) => {
    const person = { first: 'Lana', last: 'Pad', email: uniqueEmail('launchpad') };
    await page.goto('/dev/idp/ClassLink/launchpad');
    await page.getByRole('link', { name: 'Frontdoor' }).click();
    await signInAtDevIdp(page, 'ClassLink', person, 'Student');
    await expect(page).toHaveURL(/\/post-login$/);
    await expectSignedInFrom(page, 'ClassLink', person);
    await expect(page.getByRole('heading', { name: en.postLogin.student_question })).toBeVisible();
  });

  test('a product learns who signed in with Clever: the Clever id, the asserted email (untrusted), district, school and role', async ({
    page,
  }) => {
    const person = { first: 'Kim', last: 'Kid', email: uniqueEmail('roster') };
    await page.goto('/log-in');
    await page.getByRole('button', { name: providerButton('Clever') }).click();
    await signInAtDevIdp(page, 'Clever', person, 'Student');
    await expect(page).toHaveURL(/\/post-login/);
    const sig = (await (await page.request.get('/api/auth/sig')).json()) as {
      payload: { token: string; signature: { user: { email: string; identities: unknown[] } } };
    };
    const { user } = sig.payload.signature;
    expect(user.email).toMatch(/@federated\.invalid$/);
    expect(user.identities).toEqual([
      {
        provider: 'Clever',
        subject: expect.stringMatching(/^[0-9a-f]{24}$/),
        email: person.email,
        emailVerified: false,
        emailTrusted: false,
        district: expect.stringMatching(/^[0-9a-f]{24}$/),
        schools: [expect.stringMatching(/^[0-9a-f]{24}$/)],
        roles: ['student'],
      },
    ]);
    const claims = JSON.parse(Buffer.from(sig.payload.token.split('.')[1] ?? '', 'base64url').toString()) as {
      identities: unknown;
    };
    expect(claims.identities).toEqual(user.identities);
  });

  test("the modal checks the pattern: 'Please enter a valid email address'", async ({ page }) => {
    await page.goto('/log-in');
    await workSchoolModal(page, 'not an email');
    await expect(page.getByText(messages.workEmailInvalid, { exact: true }).first()).toBeVisible();
    await expect(page).toHaveURL(/\/log-in$/);
  });

  test('realm lookup failures show the §8 work/school messages', async ({ page }) => {
    const cases: { status: number; msg: string; shown: string }[] = [
      { status: 404, msg: '', shown: messages.workEmailNotFound },
      { status: 403, msg: '', shown: messages.workEmailAccessDenied },
      { status: 400, msg: 'That domain is not a school.', shown: 'That domain is not a school.' },
      { status: 400, msg: '', shown: messages.workEmailValidationFailed },
      { status: 500, msg: 'boom', shown: messages.workEmailOtherError },
    ];
    let current = cases[0];
    await page.route('**/api/v2/auth/microsoft-user-realm', (route) =>
      route.fulfill({
        status: current?.status ?? 500,
        contentType: 'application/json',
        body: JSON.stringify({ status: 'error', msg: current?.msg ?? '' }),
      }),
    );
    await page.goto('/log-in');
    await page.getByRole('button', { name: providerButton('Microsoft') }).click();
    const modal = page.getByRole('dialog', { name: en.login.work_email_title });
    await modal.getByLabel(en.login.work_email_label).fill(uniqueEmail('realm'));
    for (const c of cases) {
      current = c;
      await modal.getByRole('button', { name: en.login.work_email_submit }).click();
      await expect(modal.getByText(c.shown, { exact: true }), `HTTP ${c.status} ${c.msg}`).toBeVisible();
    }
    await expect(page).toHaveURL(/\/log-in$/);
  });
});

test.describe('post-login questions (§2 post-login, §4 post-login)', () => {
  test('a teacher request goes straight to the preferences; ticked topics are saved with the fixed ids', async ({
    page,
    loginRequest,
  }) => {
    const person = { first: 'Tess', last: 'Teacher', email: uniqueEmail('teacher') };
    const { csrf, returnUrl } = await loginRequest({ isTeacher: true, journey: 'teacher' });
    await page.goto(`/log-in/${csrf}`);
    await page.getByRole('button', { name: providerButton('Google') }).click();
    await signInAtDevIdp(page, 'Google', person);

    await expect(page.getByRole('heading', { name: en.postLogin.preferences_title })).toBeVisible();
    await expect(page.getByRole('heading', { name: en.postLogin.student_question })).toHaveCount(0);
    const saved = page.waitForRequest(
      (r) => r.url().endsWith('/api/hs/subscription') && r.method() === 'POST',
    );
    await choosePreferences(page, ['k12', 'collegeUniversity']);
    const body = (await saved).postDataJSON() as {
      subscriptionChanges: { id: number; subscribed: boolean }[];
    };
    expect(body.subscriptionChanges).toEqual(
      expect.arrayContaining([
        { id: SUBSCRIPTION_IDS.k12, subscribed: true },
        { id: SUBSCRIPTION_IDS.collegeUniversity, subscribed: true },
      ]),
    );
    await expectBackOnProduct(page, returnUrl);
  });

  test("'Loading' is shown first; Yes → straight to the return URL without preferences", async ({
    page,
    loginRequest,
  }) => {
    const person = { first: 'Stu', last: 'Dent', email: uniqueEmail('yes') };
    const { csrf, returnUrl } = await loginRequest({ journey: 'yes' });
    await page.goto(`/log-in/${csrf}`);
    await page.getByRole('button', { name: providerButton('Google') }).click();
    // a browser that comes back without the saved login data loads the login params (a browser that
    // holds them asks no second time, below): hold that call so the loading state is observable
    await expect(page).toHaveURL(/\/dev\/idp\/Google\/interaction\//);
    await page.evaluate((keys) => {
      sessionStorage.removeItem(keys.loginCsrf);
      sessionStorage.removeItem(keys.loginParams);
    }, STORAGE_KEYS);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/gateway/getCsrfLogin/**', async (route) => {
      await held;
      await route.continue();
    });
    await signInAtDevIdp(page, 'Google', person);
    await expect(page.getByRole('heading', { name: en.postLogin.loading, exact: true })).toBeVisible();
    release();
    const role = page.waitForRequest((r) => r.url().endsWith('/api/auth/setBasicUserRole/1'));
    await answerStudentQuestion(page, true);
    await role;
    await expectBackOnProduct(page, returnUrl);
  });

  test('the login params are fetched once: log-in/{csrf} → provider → post-login/{csrf} reads the saved ones', async ({
    page,
    loginRequest,
  }) => {
    const person = { first: 'Una', last: 'Once', email: uniqueEmail('once') };
    const { csrf, returnUrl } = await loginRequest({ journey: 'once' });
    let paramsCalls = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/gateway/getCsrfLogin/')) paramsCalls += 1;
    });
    await page.goto(`/log-in/${csrf}`);
    await expect.poll(() => paramsCalls).toBe(1);
    await page.getByRole('button', { name: providerButton('Google') }).click();
    await signInAtDevIdp(page, 'Google', person);
    await expect(page).toHaveURL(new RegExp(`/post-login/${csrf}$`));
    await answerStudentQuestion(page, true);
    await expectBackOnProduct(page, returnUrl);
    expect(paramsCalls).toBe(1);
  });

  test('No with no topic ticked → the return URL without saving preferences', async ({
    page,
    loginRequest,
  }) => {
    const person = { first: 'Nora', last: 'No', email: uniqueEmail('no') };
    const { csrf, returnUrl } = await loginRequest({ journey: 'no' });
    let subscriptionCalls = 0;
    page.on('request', (r) => {
      // the page reads the stored preferences (GET) as it opens; saving is the POST
      if (r.method() === 'POST' && r.url().endsWith('/api/hs/subscription')) subscriptionCalls += 1;
    });
    await page.goto(`/log-in/${csrf}`);
    await page.getByRole('button', { name: providerButton('Clever') }).click();
    await signInAtDevIdp(page, 'Clever', person);
    const role = page.waitForRequest((r) => r.url().endsWith('/api/auth/setBasicUserRole/0'));
    await answerStudentQuestion(page, false);
    await role;
    await choosePreferences(page, []);
    await expectBackOnProduct(page, returnUrl);
    expect(subscriptionCalls).toBe(0);
  });
});

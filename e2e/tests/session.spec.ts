import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { apiPaths, messages } from '@frontdoor/contract';
import {
  expectBackOnProduct,
  expectSignedInAs,
  expect,
  openLoginRequest,
  savedLoginData,
  sessionOf,
  test,
} from '../fixtures/index.ts';
import {
  answerStudentQuestion,
  continueWithEmail,
  signInAsStudentAndReturn,
  signInAtDevIdp,
  signInWithPassword,
} from '../fixtures/flows.ts';
import { admin, createUser } from '../fixtures/admin.ts';
import { STRONG_PASSWORD, uniqueEmail } from '../fixtures/emails.ts';
import { PORTAL_URL, dataDir } from '../fixtures/env.ts';
import { en, providerButton } from '../fixtures/text.ts';

test.describe('the session behind auth/sig (§3 session, §6 masquerade, §7 cognito/logout)', () => {
  test('masquerade appears as signature.masq; logout ends the session', async ({ page, loginRequest }) => {
    const teacher = uniqueEmail('admin-teacher');
    const student = uniqueEmail('masq-student');
    await createUser({ email: teacher, password: STRONG_PASSWORD, roles: ['admin:1,2'] });
    await createUser({ email: student, password: STRONG_PASSWORD, first: 'Mo', last: 'Student' });
    // an administrator signs in with a password (an access code never opens an administrator's account)
    const { csrf, returnUrl } = await loginRequest({ journey: 'masquerade' });
    await page.goto(`/log-in/${csrf}`);
    await page.getByRole('link', { name: en.login.continue_with_email }).click();
    await continueWithEmail(page, teacher);
    await signInAsStudentAndReturn(page, teacher, STRONG_PASSWORD, returnUrl);
    await expectSignedInAs(page, teacher);

    const sig = async () =>
      (await (await page.request.get(`${PORTAL_URL}/api/${apiPaths.sig}`)).json()) as {
        payload: {
          signature: { user: { email: string; roles: Record<string, number[]> }; masq?: { email: string } };
        };
      };
    expect((await sig()).payload.signature.user.roles).toEqual({ admin: [1, 2] });
    expect((await sig()).payload.signature.masq).toBeUndefined();

    expect(await admin('masquerade', 'start', '--admin', teacher, '--as', student)).toMatchObject({
      sessions: 1,
    });
    const masked = await sig();
    expect(masked.payload.signature.user.email).toBe(teacher);
    expect(masked.payload.signature.masq?.email).toBe(student);
    // the login page says whom the administrator is acting as
    await page.goto('/log-in');
    await expect(
      page.getByText(`Acting as Mo Student (${student.toLowerCase()})`, { exact: true }),
    ).toBeVisible();
    await admin('masquerade', 'stop', '--admin', teacher);
    expect((await sig()).payload.signature.masq).toBeUndefined();

    await page.request.get(`${PORTAL_URL}/api/${apiPaths.cognitoLogout}`);
    expect((await sessionOf(page)).loggedin).toBe(false);
  });

  test('a shared device: after one person signed out, the next signs in with a password, then another with Google', async ({
    page,
    loginRequest,
  }) => {
    const first = uniqueEmail('shared-first');
    const second = uniqueEmail('shared-second');
    const third = { email: uniqueEmail('shared-third'), first: 'Tia', last: 'Third' };
    for (const email of [first, second]) await createUser({ email, password: STRONG_PASSWORD });

    /** Opens the login page of a new request; whoever is still signed in signs out there first. */
    const openLogin = async (journey: string) => {
      const { csrf, returnUrl } = await loginRequest({ journey });
      await page.goto(`/log-in/${csrf}`);
      const signOut = page.getByRole('button', { name: en.login.sign_out });
      if ((await sessionOf(page)).loggedin) {
        await signOut.click();
        await expect(signOut).toHaveCount(0);
      }
      return returnUrl;
    };
    for (const email of [first, second]) {
      const returnUrl = await openLogin(email);
      await page.getByRole('link', { name: en.login.continue_with_email }).click();
      await continueWithEmail(page, email);
      await signInAsStudentAndReturn(page, email, STRONG_PASSWORD, returnUrl);
      await expectSignedInAs(page, email);
    }
    const returnUrl = await openLogin('shared-google');
    await page.getByRole('button', { name: providerButton('Google') }).click();
    await signInAtDevIdp(page, 'Google', third);
    await answerStudentQuestion(page, true);
    await expectBackOnProduct(page, returnUrl);
    await expectSignedInAs(page, third.email);
  });

  test("a shared device: a teacher's sign-in request left in a closed tab is not the next student's, who is asked the student question and lands on the portal's default site", async ({
    page,
    context,
    loginRequest,
  }) => {
    const student = uniqueEmail('shared-after-teacher');
    await createUser({ email: student, password: STRONG_PASSWORD });
    // the teacher opens a product's link, goes on to email and walks away, closing the tab
    const { csrf, returnUrl } = await loginRequest({ journey: 'abandoned-teacher', isTeacher: true });
    await openLoginRequest(page, csrf);
    await page.getByRole('link', { name: en.login.continue_with_email }).click();
    await page.close();

    // the next student, in a new tab of the same browser, signs in from the portal's own page
    const next = await context.newPage();
    await next.goto('/log-in');
    await next.getByRole('link', { name: en.login.continue_with_email }).click();
    await continueWithEmail(next, student);
    await signInWithPassword(next, student, STRONG_PASSWORD);
    // not the teacher's request: the student question is asked, and the teacher's product is not the end
    await expect(next).toHaveURL(/\/post-login$/);
    await answerStudentQuestion(next, true);
    await expect(next).not.toHaveURL(returnUrl);
    await expect.poll(() => new URL(next.url()).pathname).not.toMatch(/^\/(post-login|log-in)/);
    expect((await savedLoginData(next)).csrf).toBeNull();
  });

  test('a password step left open past its hour (its interaction gone) says so and starts again from the same tab, which then signs in', async ({
    page,
  }) => {
    const student = uniqueEmail('step-past-its-hour');
    await createUser({ email: student, password: STRONG_PASSWORD });
    await page.goto('/log-in');
    await page.getByRole('link', { name: en.login.continue_with_email }).click();
    await continueWithEmail(page, student);
    await expect(page).toHaveURL(/\/sign-in\/[^/?#]+$/);
    const firstStep = page.url();
    // the hour passes: the authorization server's interaction expires, as its row does
    const db = new DatabaseSync(path.join(dataDir(), 'frontdoor.sqlite'));
    try {
      const uid = new URL(firstStep).pathname.split('/').pop() ?? '';
      const { changes } = db
        .prepare(`delete from oidc_payloads where type = 'Interaction' and id = ?`)
        .run(uid);
      expect(changes).toBe(1);
    } finally {
      db.close();
    }
    await page.getByLabel(en.signIn.password_label, { exact: true }).fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: en.signIn.submit, exact: true }).click();
    await expect(page.getByText(messages.stateInvalid)).toBeVisible();
    await page.getByRole('button', { name: en.signIn.start_again }).click();
    await expect(page).not.toHaveURL(firstStep);
    await signInWithPassword(page, student, STRONG_PASSWORD);
    await expect(page).toHaveURL(/\/post-login$/);
  });
});

import { expect, expectSignedInAs, test } from '../fixtures/index.ts';
import { seedDemo } from '../fixtures/admin.ts';
import { expectNoSeriousA11yViolations } from '../fixtures/axe.ts';
import { answerStudentQuestion, continueWithEmail, signInWithPassword } from '../fixtures/flows.ts';
import { expectNoHorizontalScroll } from '../fixtures/pages.ts';
import { en } from '../fixtures/text.ts';

// each seed replaces the student's access code: one journey at a time
test.describe.configure({ mode: 'serial' });

test.describe("the README's quick start: npm run seed, sign in, end on /dev/sp (issue 13)", () => {
  test('the demo student signs in with the printed password, answers the questions and lands on /dev/sp signed in', async ({
    page,
  }) => {
    const demo = await seedDemo();
    const student = demo.accounts.student;
    await page.goto(demo.loginUrl);
    await page.getByRole('link', { name: en.login.continue_with_email }).click();
    await continueWithEmail(page, student.email);
    await signInWithPassword(page, student.email, student.password);
    await answerStudentQuestion(page, true);

    await expect(page).toHaveURL(demo.devSpUrl);
    await expect(page.getByRole('heading', { name: 'Signed in', exact: true })).toBeVisible();
    await expect(page.getByText(`Signed in as Sam Rivera (${student.email}).`)).toBeVisible();
    await expect(page.getByText('Verified', { exact: true })).toBeVisible();
    await expectSignedInAs(page, student.email);
    await expectNoSeriousA11yViolations(page, '/dev/sp signed in');

    // the demo product signs out, then opens a new sign-in
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Not signed in' })).toBeVisible();
    expect((await page.request.get('/api/auth/sig').then((r) => r.json())).loggedin).toBe(false);
    await page.getByRole('link', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/log-in\/[\w-]+$/);
    await expect(page.getByRole('link', { name: en.login.continue_with_email })).toBeVisible();
  });

  test("the student's printed access code ends on /dev/sp signed in too, which fits a phone's width", async ({
    page,
  }) => {
    const demo = await seedDemo();
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(demo.accessCodeUrl);
    await page.getByLabel(en.accessCode.code_label).fill(demo.accessCode.code);
    await page.getByRole('button', { name: en.accessCode.submit }).click();
    await expect(page).toHaveURL(demo.devSpUrl);
    await expect(page.getByText(`Signed in as Sam Rivera (${demo.accounts.student.email}).`)).toBeVisible();
    // the token's claims hold long unbroken values (the session's sid)
    await expectNoHorizontalScroll(page, '/dev/sp at 360 px');
  });
});

import { DEV_SP_PATH } from '@frontdoor/contract';
import { PORTAL_URL } from '../fixtures/env.ts';
import { expect, test } from '../fixtures/index.ts';

/**
 * The accessibility tree of the main region of the three pages a sign-in starts on, in English:
 * names, roles, headings and states as a screen reader meets them. A change to any of them (a lost
 * label, a heading level, a role) shows here, in review, beside the change that caused it
 * (issue 12). Update with `npx playwright test tests/aria-snapshots.spec.ts --update-snapshots`.
 */
test.describe('aria snapshots of the start pages (English)', () => {
  test('/log-in', async ({ page }) => {
    await page.goto('/log-in');
    await expect(page.locator('main')).toMatchAriaSnapshot(`
      - main:
        - region "Transform your school with us":
          - heading "Transform your school with us" [level=1]
          - paragraph: Sign in to bring learning to life in every classroom.
          - list "Sign-in options":
            - listitem:
              - button "Continue with Google"
            - listitem:
              - button "Continue with Microsoft"
            - listitem:
              - button "Continue with Apple"
            - listitem:
              - button "Continue with Clever"
            - listitem:
              - button "Continue with ClassLink"
          - paragraph: or
          - link "Continue with Email":
            - /url: /email
          - paragraph:
            - link "Sign in with a class code":
              - /url: /access-code
          - paragraph:
            - text: Want this for your school?
            - link "Contact us":
              - /url: ${PORTAL_URL}${DEV_SP_PATH}/contact-us
    `);
  });

  test('/email', async ({ page }) => {
    await page.goto('/email');
    await expect(page.locator('main')).toMatchAriaSnapshot(`
      - main:
        - region "Continue with email":
          - heading "Continue with email" [level=1]
          - paragraph: Enter your email address. We will find the right next step for you.
          - text: Email
          - textbox "Email"
          - paragraph
          - button "Continue"
          - link "Continue with SSO":
            - /url: /log-in
    `);
  });

  test('/create-account', async ({ page }) => {
    await page.goto('/create-account');
    await expect(page.locator('main')).toMatchAriaSnapshot(`
      - main:
        - region "Create account with Email":
          - heading "Create account with Email" [level=1]
          - text: First name
          - textbox "First name"
          - paragraph
          - text: Last name
          - textbox "Last name"
          - paragraph
          - text: ""
          - textbox "Email"
          - paragraph
          - text: Password
          - textbox "Password"
          - button "Show password"
          - paragraph
          - status
          - paragraph: "Your password needs:"
          - list:
            - listitem: /At least \\d+ characters \\(still needed\\)/
            - listitem: An uppercase letter (still needed)
            - listitem: A lowercase letter (still needed)
            - listitem: A digit (still needed)
            - listitem: A special character (still needed)
          - text: Confirm password
          - textbox "Confirm password"
          - button "Show password"
          - paragraph
          - text: Which best describes you?
          - radiogroup "Which best describes you?":
            - radio "Teacher"
            - text: Teacher
            - radio "Student"
            - text: Student
            - radio "School administrator"
            - text: School administrator
            - radio "Parent or guardian"
            - text: Parent or guardian
            - radio "Other"
            - text: Other
          - paragraph
          - button "Create account"
          - text: Already have an account?
          - link "Sign in":
            - /url: /log-in
    `);
  });
});

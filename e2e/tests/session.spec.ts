import { apiPaths } from '@frontdoor/contract';
import { expectBackOnProduct, expectSignedInAs, expect, sessionOf, test } from '../fixtures/index.ts';
import { admin, createAccessCode, createUser } from '../fixtures/admin.ts';
import { STRONG_PASSWORD, uniqueEmail } from '../fixtures/emails.ts';
import { PORTAL_URL } from '../fixtures/env.ts';
import { en } from '../fixtures/text.ts';

test.describe('the session behind auth/sig (§3 session, §6 masquerade, §7 cognito/logout)', () => {
  test('masquerade appears as signature.masq; logout ends the session', async ({
    page,
    sp,
    loginRequest,
  }) => {
    const teacher = uniqueEmail('admin-teacher');
    const student = uniqueEmail('masq-student');
    await createUser({ email: teacher, password: STRONG_PASSWORD, roles: ['admin:1,2'] });
    await createUser({ email: student, password: STRONG_PASSWORD, first: 'Mo', last: 'Student' });
    // a quick way in: the teacher's own classroom code
    const { code } = await createAccessCode(sp.sp_id, teacher);
    const { csrf, returnUrl } = await loginRequest({ journey: 'masquerade' });
    await page.goto(`/access-code/${csrf}`);
    await page.getByLabel(en.accessCode.code_label).fill(code);
    await page.getByRole('button', { name: en.accessCode.submit }).click();
    await expectBackOnProduct(page, returnUrl);
    await expectSignedInAs(page, teacher);

    const sig = async () =>
      (await (await page.request.get(`${PORTAL_URL}/api/${apiPaths.sig}`)).json()) as {
        payload: {
          signature: { user: { email: string; roles: Record<string, number[]> }; masq?: { email: string } };
        };
      };
    expect((await sig()).payload.signature.user.roles).toEqual({ admin: [1, 2] });
    expect((await sig()).payload.signature.masq).toBeUndefined();

    expect(await admin('masquerade', 'start', '--admin', teacher, '--as', student)).toEqual({ sessions: 1 });
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
});

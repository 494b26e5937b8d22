import { messages } from '@frontdoor/contract';
import { expectBackOnProduct, expectSignedInAs, expect, savedLoginData, test } from '../fixtures/index.ts';
import { createAccessCode, createUser } from '../fixtures/admin.ts';
import { STRONG_PASSWORD, uniqueEmail } from '../fixtures/emails.ts';
import { registerProduct } from '../fixtures/product.ts';
import { en } from '../fixtures/text.ts';

test.describe('classroom access code (§2 access-code, §4, §5, §6, §8)', () => {
  test('a student enters the code → auth/cookie → back on the product, signed in, login data cleared', async ({
    page,
    sp,
    loginRequest,
  }) => {
    const student = uniqueEmail('student');
    await createUser({ email: student, password: STRONG_PASSWORD, first: 'Sam', last: 'Student' });
    const { code } = await createAccessCode(sp.sp_id, student);
    const { csrf, returnUrl } = await loginRequest();

    await page.goto(`/access-code/${csrf}`);
    await expect(page.getByRole('heading', { name: en.accessCode.title })).toBeVisible();
    await expect.poll(async () => (await savedLoginData(page)).csrf).toBe(csrf);
    const cookieCall = page.waitForRequest((r) => r.url().includes('/api/auth/cookie?'));
    await page.getByLabel(en.accessCode.code_label).fill(code);
    await page.getByRole('button', { name: en.accessCode.submit }).click();

    const url = new URL((await cookieCall).url());
    expect(url.searchParams.get('return_url')).toBe(returnUrl);
    expect(url.searchParams.get('hash')).toBeTruthy();
    expect(url.searchParams.get('token')).toBe(csrf);
    await expectBackOnProduct(page, returnUrl);
    await expectSignedInAs(page, student);

    // the saved login data is gone (checked on the portal origin)
    await page.goto('/log-in');
    expect(await savedLoginData(page)).toEqual({ csrf: null, params: null });
  });

  test('a student whose keyboard types Arabic-Indic digits signs in with the code (issue 12, finding 6)', async ({
    page,
    sp,
    loginRequest,
  }) => {
    const student = uniqueEmail('arabic-digits');
    await createUser({ email: student, password: STRONG_PASSWORD, first: 'Sami', last: 'Student' });
    const { code } = await createAccessCode(sp.sp_id, student);
    const { csrf, returnUrl } = await loginRequest();
    const arabicIndic = code.replace(/\d/g, (digit) => String.fromCodePoint(0x0660 + Number(digit)));

    await page.goto(`/access-code/${csrf}`);
    const field = page.getByLabel(en.accessCode.code_label);
    // typed key by key, as a phone keyboard set to Arabic sends them
    await field.pressSequentially(arabicIndic);
    await expect(field).toHaveValue(code);
    await page.getByRole('button', { name: en.accessCode.submit }).click();
    await expectBackOnProduct(page, returnUrl);
    await expectSignedInAs(page, student);
  });

  test('a student whose Japanese IME types full-width digits signs in with the code: the composition is never rewritten', async ({
    page,
    sp,
    loginRequest,
  }) => {
    const student = uniqueEmail('ime-digits');
    await createUser({ email: student, password: STRONG_PASSWORD, first: 'Taro', last: 'Student' });
    const { code } = await createAccessCode(sp.sp_id, student);
    const { csrf, returnUrl } = await loginRequest();
    const fullWidth = code.replace(/\d/g, (digit) => String.fromCodePoint(0xff10 + Number(digit)));

    await page.goto(`/access-code/${csrf}`);
    const field = page.getByRole('textbox', { name: en.accessCode.code_label });
    await field.focus();
    // the IME composes digit by digit, then commits (Enter): what Chromium's IME bridge sends
    const cdp = await page.context().newCDPSession(page);
    for (let end = 1; end <= fullWidth.length; end++) {
      const text = fullWidth.slice(0, end);
      await cdp.send('Input.imeSetComposition', { text, selectionStart: end, selectionEnd: end });
      await expect(field).toHaveValue(text);
    }
    await cdp.send('Input.insertText', { text: fullWidth });
    await expect(field).toHaveValue(code);
    await page.getByRole('button', { name: en.accessCode.submit }).click();
    await expectBackOnProduct(page, returnUrl);
    await expectSignedInAs(page, student);
  });

  test("a wrong code → 'The code you entered did not work. Try again or contact your teacher.'", async ({
    page,
    loginRequest,
  }) => {
    const { csrf } = await loginRequest();
    await page.goto(`/access-code/${csrf}`);
    await page.getByLabel(en.accessCode.code_label).fill('000000');
    await page.getByRole('button', { name: en.accessCode.submit }).click();
    await expect(page.getByText(messages.accessCodeFailed, { exact: true })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/access-code/${csrf}$`));
  });

  test("a code of another service provider → 'The code you entered is not for <the product signed into>'", async ({
    page,
    sp,
    loginRequest,
  }) => {
    const other = await registerProduct(sp.product, 'Robotics Lab');
    const student = uniqueEmail('other-student');
    await createUser({ email: student, password: STRONG_PASSWORD });
    const { code } = await createAccessCode(other.sp_id, student);
    const { csrf } = await loginRequest();

    await page.goto(`/access-code/${csrf}`);
    await page.getByLabel(en.accessCode.code_label).fill(code);
    await page.getByRole('button', { name: en.accessCode.submit }).click();
    await expect(page.getByText(`${messages.accessCodeWrongProviderPrefix} ${sp.name}`)).toBeVisible();
    // whose code it is stays unsaid
    await expect(page.getByText(other.name)).toHaveCount(0);
    await expect(page.getByText(messages.accessCodeFailed)).toHaveCount(0);
  });

  test("the input holds at most 6 digits, also from text inserted with spaces; fewer → 'Access Code must be exactly 6 digits!'", async ({
    page,
    loginRequest,
  }) => {
    const { csrf } = await loginRequest();
    await page.goto(`/access-code/${csrf}`);
    const input = page.getByLabel(en.accessCode.code_label);
    await input.pressSequentially('12345678');
    await expect(input).toHaveValue('123456');
    // inserted at once (dictation, a keyboard's clipboard suggestion, a drop), as the mail spaces it
    await input.clear();
    await page.keyboard.insertText('922 120');
    await expect(input).toHaveValue('922120');
    await input.fill('123');
    await page.getByRole('button', { name: en.accessCode.submit }).click();
    await expect(page.getByText(messages.accessCodeLength, { exact: true }).first()).toBeVisible();
  });
});

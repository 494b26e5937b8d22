import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiPaths, messages } from '@frontdoor/contract';
import { HttpResponse, api, fail, http, ok, renderRoute, server } from '../../test/render.tsx';
import { en } from './locales.ts';
import { getLoginCsrf, getLoginParams, saveLoginData } from '../../lib/storage.ts';
import { handOverLoginData } from '../../lib/login-handover.ts';

/** Opens the page as the mail's link does and presses Verify, as the person does. */
async function openAndVerify(url = '/validate?em=a%40b.org&vc=12345678') {
  renderRoute(url, { shell: false });
  await userEvent.click(await screen.findByRole('button', { name: en.submit }));
}

describe('ValidatePage (/validate?em&vc)', () => {
  it("em missing: 'Email parameter was missing or invalid!'", async () => {
    renderRoute('/validate?vc=12345678', { shell: false });
    expect(await screen.findByText(messages.verifyEmailParamMissing)).toBeInTheDocument();
    expect(screen.queryByText(messages.verifyCodeParamMissing)).not.toBeInTheDocument();
  });

  it("vc missing: 'Verification Code parameter was missing or invalid!'", async () => {
    renderRoute('/validate?em=a%40b.org', { shell: false });
    expect(await screen.findByText(messages.verifyCodeParamMissing)).toBeInTheDocument();
  });

  it('both missing: both messages', async () => {
    renderRoute('/validate', { shell: false });
    expect(await screen.findByText(messages.verifyEmailParamMissing)).toBeInTheDocument();
    expect(screen.getByText(messages.verifyCodeParamMissing)).toBeInTheDocument();
  });

  it("confirms with un=em, code=vc; success 'Your account has been verified, thank you!'", async () => {
    let body: unknown;
    server.use(
      http.post(api(apiPaths.confirm), async ({ request }) => {
        body = await request.json();
        return ok({ email: 'a@b.org', newPasswordNeeded: false });
      }),
    );
    await openAndVerify();
    expect(await screen.findByText(messages.verifyPageSuccess)).toBeInTheDocument();
    expect(body).toEqual({ un: 'a@b.org', code: '12345678' });
    expect(screen.queryByText(en.new_password_needed)).not.toBeInTheDocument();
  });

  it('a link mailed before codes became 8 digits (vc of 6) still confirms', async () => {
    let body: unknown;
    server.use(
      http.post(api(apiPaths.confirm), async ({ request }) => {
        body = await request.json();
        return ok({ email: 'a@b.org', newPasswordNeeded: false });
      }),
    );
    await openAndVerify('/validate?em=a%40b.org&vc=123456');
    expect(await screen.findByText(messages.verifyPageSuccess)).toBeInTheDocument();
    expect(body).toEqual({ un: 'a@b.org', code: '123456' });
  });

  it('a vc of 7 digits is no code', async () => {
    renderRoute('/validate?em=a%40b.org&vc=1234567', { shell: false });
    expect(await screen.findByText(messages.verifyCodeParamMissing)).toBeInTheDocument();
  });

  it('opened, it confirms nothing until Verify is pressed: a mail scanner or a link preview does not spend the code', async () => {
    let calls = 0;
    server.use(
      http.post(api(apiPaths.confirm), () => {
        calls += 1;
        return ok({ email: 'a@b.org', newPasswordNeeded: false });
      }),
    );
    renderRoute('/validate?em=a%40b.org&vc=12345678', { shell: false });
    expect(await screen.findByRole('button', { name: en.submit })).toBeInTheDocument();
    expect(screen.getByText(en.lead.replace('{{email}}', 'a@b.org'))).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toBe(0);
  });

  it("confirmed on another browser than the sign-up's: says a new password is chosen at sign-in", async () => {
    server.use(http.post(api(apiPaths.confirm), () => ok({ email: 'a@b.org', newPasswordNeeded: true })));
    await openAndVerify();
    expect(await screen.findByText(messages.verifyPageSuccess)).toBeInTheDocument();
    expect(screen.getByText(en.new_password_needed)).toBeInTheDocument();
  });

  it('the link opened again once the account is verified (a second tab, a reload) shows the success, not a refusal', async () => {
    server.use(http.post(api(apiPaths.confirm), () => fail(409, 'userAlreadyConfirmed')));
    await openAndVerify();
    expect(await screen.findByText(messages.verifyPageSuccess)).toBeInTheDocument();
    expect(screen.queryByText(messages.userAlreadyConfirmed)).not.toBeInTheDocument();
  });

  it('failure shows the server msg', async () => {
    server.use(http.post(api(apiPaths.confirm), () => fail(400, 'expiredCode')));
    await openAndVerify();
    expect(await screen.findByText(messages.expiredCode)).toBeInTheDocument();
  });

  it("failure without msg: 'Your access code could not be confirmed at this time.'", async () => {
    server.use(http.post(api(apiPaths.confirm), () => new HttpResponse(null, { status: 400 })));
    await openAndVerify();
    expect(await screen.findByText(messages.verifyPageFailure)).toBeInTheDocument();
  });

  it('a network failure says so on the page, and Verify pressed again goes on', async () => {
    let calls = 0;
    server.use(
      http.post(api(apiPaths.confirm), () => {
        calls += 1;
        return calls === 1 ? HttpResponse.error() : ok({ email: 'a@b.org', newPasswordNeeded: false });
      }),
    );
    await openAndVerify();
    expect(await screen.findByText(messages.networkError)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: en.submit }));
    expect(await screen.findByText(messages.verifyPageSuccess)).toBeInTheDocument();
  });

  it('a server failure goes to /error-generic', async () => {
    server.use(http.post(api(apiPaths.confirm), () => fail(500, 'internalError')));
    await openAndVerify();
    await vi.waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/error-generic'));
  });

  it("opened by the mail's link in a tab of its own, it goes on with the device's live sign-in request", async () => {
    server.use(http.post(api(apiPaths.confirm), () => ok({ email: 'a@b.org', newPasswordNeeded: false })));
    const request = { url: 'https://app.example/back', isTeacher: false, sp_id: 'sp-mail' };
    saveLoginData('lc-mail', request);
    // the tab that started it waited for this address's mail
    handOverLoginData('a@b.org');
    // the mail's tab: its own sessionStorage, the device's localStorage
    sessionStorage.clear();
    await openAndVerify();
    expect(await screen.findByText(messages.verifyPageSuccess)).toBeInTheDocument();
    expect(getLoginCsrf()).toBe('lc-mail');
    expect(getLoginParams()).toEqual(request);
  });
});

import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { apiPaths, messages } from '@frontdoor/contract';
import { HttpResponse, api, fail, http, ok, renderRoute, server } from '../../test/render.tsx';
import { getLoginCsrf, getLoginParams, saveLoginData } from '../../lib/storage.ts';
import { handOverLoginData } from '../../lib/login-handover.ts';

describe('ValidatePage (/validate?em&vc)', () => {
  it("em missing: 'Email parameter was missing or invalid!'", async () => {
    renderRoute('/validate?vc=123456', { shell: false });
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
        return ok(null);
      }),
    );
    renderRoute('/validate?em=a%40b.org&vc=123456', { shell: false });
    expect(await screen.findByText(messages.verifyPageSuccess)).toBeInTheDocument();
    expect(body).toEqual({ un: 'a@b.org', code: '123456' });
  });

  it('the link opened again once the account is verified (a second tab, a reload) shows the success, not a refusal', async () => {
    server.use(http.post(api(apiPaths.confirm), () => fail(409, 'userAlreadyConfirmed')));
    renderRoute('/validate?em=a%40b.org&vc=123456', { shell: false });
    expect(await screen.findByText(messages.verifyPageSuccess)).toBeInTheDocument();
    expect(screen.queryByText(messages.userAlreadyConfirmed)).not.toBeInTheDocument();
  });

  it('failure shows the server msg', async () => {
    server.use(http.post(api(apiPaths.confirm), () => fail(400, 'expiredCode')));
    renderRoute('/validate?em=a%40b.org&vc=123456', { shell: false });
    expect(await screen.findByText(messages.expiredCode)).toBeInTheDocument();
  });

  it("failure without msg: 'Your access code could not be confirmed at this time.'", async () => {
    server.use(http.post(api(apiPaths.confirm), () => new HttpResponse(null, { status: 400 })));
    renderRoute('/validate?em=a%40b.org&vc=123456', { shell: false });
    expect(await screen.findByText(messages.verifyPageFailure)).toBeInTheDocument();
  });

  it('a network failure goes to /error-generic', async () => {
    server.use(http.post(api(apiPaths.confirm), () => HttpResponse.error()));
    renderRoute('/validate?em=a%40b.org&vc=123456', { shell: false });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/error-generic'));
  });

  it("opened by the mail's link in a tab of its own, it goes on with the device's live sign-in request", async () => {
    server.use(http.post(api(apiPaths.confirm), () => ok(null)));
    const request = { url: 'https://app.example/back', isTeacher: false, sp_id: 'sp-mail' };
    saveLoginData('lc-mail', request);
    // the tab that started it waited for this address's mail
    handOverLoginData('a@b.org');
    // the mail's tab: its own sessionStorage, the device's localStorage
    sessionStorage.clear();
    renderRoute('/validate?em=a%40b.org&vc=123456', { shell: false });
    expect(await screen.findByText(messages.verifyPageSuccess)).toBeInTheDocument();
    expect(getLoginCsrf()).toBe('lc-mail');
    expect(getLoginParams()).toEqual(request);
  });
});

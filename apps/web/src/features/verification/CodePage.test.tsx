import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RESEND_COOLDOWN_SECONDS, STORAGE_KEYS, apiPaths, messages } from '@frontdoor/contract';
import { recordCodeSent } from '../shared/code-sent.ts';
import { postToUrl } from '../shared/browser.ts';
import { api, fail, http, ok, renderRoute, server } from '../../test/render.tsx';

vi.mock('../shared/browser.ts', () => ({ postToUrl: vi.fn() }));
const email = 'ana@school.org';
beforeEach(() => {
  vi.clearAllMocks();
  sessionStorage.setItem(STORAGE_KEYS.email, email);
});

async function enter(code: string) {
  const user = userEvent.setup();
  renderRoute('/code', { shell: false });
  await user.type(await screen.findByLabelText('Verification code'), code);
  await user.click(screen.getByRole('button', { name: 'Verify' }));
  return user;
}

describe('CodePage (/code)', () => {
  it("shows 'Verify your email' and the remembered email", async () => {
    renderRoute('/code', { shell: false });
    expect(await screen.findByRole('heading', { name: 'Verify your email' })).toBeInTheDocument();
    expect(screen.getByText(`We sent an 8-digit code to ${email}. Enter it below.`)).toBeInTheDocument();
  });

  it("'Didn't get the email?' describes the resend button, not the code field", async () => {
    renderRoute('/code', { shell: false });
    const resend = await screen.findByRole('button', { name: 'Send a new code' });
    expect(resend).toHaveAccessibleDescription("Didn't get the email?");
    expect(screen.getByLabelText('Verification code')).not.toHaveAccessibleDescription();
  });

  it('without a remembered email it goes to /email', async () => {
    sessionStorage.clear();
    renderRoute('/code', { shell: false });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/email'));
  });

  it('a short code is refused before any call: 7 digits are not the 8 of a mailed code', async () => {
    let called = false;
    server.use(
      http.post(api(apiPaths.confirm), () => {
        called = true;
        return ok({ email, newPasswordNeeded: false });
      }),
    );
    await enter('1234567');
    expect((await screen.findAllByText(messages.codeRequired)).length).toBeGreaterThan(0);
    expect(messages.codeRequired).toBe('Please enter the 8-digit code from your email.');
    expect(called).toBe(false);
  });

  it("a pasted code, spaced as a mail's groups of four, is sent as its 8 digits", async () => {
    let body: unknown;
    server.use(
      http.post(api(apiPaths.confirm), async ({ request }) => {
        body = await request.json();
        return ok({ email, newPasswordNeeded: false });
      }),
      http.get(api(apiPaths.getCsrf), () => ok({ csrf: 's-4' })),
    );
    const user = userEvent.setup();
    renderRoute('/code', { shell: false });
    await user.click(await screen.findByLabelText('Verification code'));
    await user.paste('6543 2109');
    expect(screen.getByLabelText('Verification code')).toHaveValue('65432109');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(body).toEqual({ un: email, code: '65432109' }));
  });

  it('POST cognito/confirm {un, code}; success goes to the identity-provider sign-in', async () => {
    let body: unknown;
    server.use(
      http.post(api(apiPaths.confirm), async ({ request }) => {
        body = await request.json();
        return ok({ email, newPasswordNeeded: false });
      }),
      http.get(api(apiPaths.getCsrf), () => ok({ csrf: 's-1' })),
    );
    await enter('65432109');
    await waitFor(() => expect(postToUrl).toHaveBeenCalled());
    expect(body).toEqual({ un: email, code: '65432109' });
    const url = new URL(vi.mocked(postToUrl).mock.calls[0]![0]);
    expect(url.searchParams.get('identity_provider')).toBe('COGNITO');
    expect(url.searchParams.get('login_hint')).toBe(email);
  });

  it('a code sent again after its answer was lost (verified already) goes on to the sign-in too', async () => {
    server.use(
      http.post(api(apiPaths.confirm), () => fail(409, 'userAlreadyConfirmed')),
      http.get(api(apiPaths.getCsrf), () => ok({ csrf: 's-2' })),
    );
    await enter('65432109');
    await waitFor(() => expect(postToUrl).toHaveBeenCalled());
    expect(new URL(vi.mocked(postToUrl).mock.calls[0]![0]).searchParams.get('login_hint')).toBe(email);
    expect(screen.queryByText(messages.userAlreadyConfirmed)).not.toBeInTheDocument();
  });

  it("a new code asked for once the account is verified (by the mail's link meanwhile) goes on to the sign-in", async () => {
    server.use(
      http.get(api(apiPaths.resendVerification(email)), () => fail(409, 'userAlreadyConfirmed')),
      http.get(api(apiPaths.getCsrf), () => ok({ csrf: 's-3' })),
    );
    const user = userEvent.setup();
    renderRoute('/code', { shell: false });
    await user.click(await screen.findByRole('button', { name: 'Send a new code' }));
    await waitFor(() => expect(postToUrl).toHaveBeenCalled());
    expect(new URL(vi.mocked(postToUrl).mock.calls[0]![0]).searchParams.get('login_hint')).toBe(email);
    expect(screen.queryByText(messages.userAlreadyConfirmed)).not.toBeInTheDocument();
  });

  it('a new code asked for when the mail server refused the address: the message and a way to sign up with another one', async () => {
    server.use(http.get(api(apiPaths.resendVerification(email)), () => fail(409, 'mailRejected')));
    const user = userEvent.setup();
    renderRoute('/code', { shell: false });
    await user.click(await screen.findByRole('button', { name: 'Send a new code' }));
    expect(await screen.findByText(messages.mailRejected)).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Create your account with another address' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/create-account$/));
  });

  it('a new code asked for while the first is still on its way (mail delayed): the message says to wait, no sign-up offered', async () => {
    server.use(http.get(api(apiPaths.resendVerification(email)), () => fail(409, 'mailDelayed')));
    const user = userEvent.setup();
    renderRoute('/code', { shell: false });
    await user.click(await screen.findByRole('button', { name: 'Send a new code' }));
    expect(await screen.findByText(messages.mailDelayed)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Create your account with another address' })).toBeNull();
  });

  it("a new code asked for once the account was verified in another browser: the popup 'A password reset code has been sent to your email!  Please check your email inbox.', then /forgot-password, where that code is typed", async () => {
    server.use(http.get(api(apiPaths.resendVerification(email)), () => ok('password_reset')));
    const user = userEvent.setup();
    renderRoute('/code', { shell: false });
    await user.click(await screen.findByRole('button', { name: 'Send a new code' }));
    const dialog = await screen.findByRole('dialog');
    // the double space of the spec is kept (toHaveTextContent would collapse it)
    expect(dialog.textContent).toContain(messages.passwordResetCodeSentPopup);
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() =>
      // the address stays in the tab, off the URL a shared device's history keeps
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/forgot-password$/),
    );
  });

  it('verified but the sign-in cannot start: the message and a link to the login page', async () => {
    server.use(
      http.post(api(apiPaths.confirm), () => ok({ email, newPasswordNeeded: false })),
      http.get(api(apiPaths.getCsrf), () => fail(429, 'tooManyRequests')),
    );
    const user = await enter('65432109');
    expect(await screen.findByText(messages.tooManyRequests)).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Your email is verified. Sign in' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/log-in$/));
    expect(postToUrl).not.toHaveBeenCalled();
  });

  it('a wrong code shows the server message, tied to the code field (issue 12)', async () => {
    server.use(http.post(api(apiPaths.confirm), () => fail(400, 'expiredCode')));
    await enter('65432109');
    expect(await screen.findByText(messages.expiredCode)).toBeInTheDocument();
    const field = screen.getByLabelText('Verification code');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(expect.stringContaining(messages.expiredCode));
    expect(postToUrl).not.toHaveBeenCalled();
  });

  it('a link resends the code, then counts down before another resend', async () => {
    let calls = 0;
    server.use(
      http.get(api(apiPaths.resendVerification(email)), () => {
        calls += 1;
        return ok('verify_email');
      }),
    );
    const user = userEvent.setup();
    renderRoute('/code', { shell: false });
    await user.click(await screen.findByRole('button', { name: 'Send a new code' }));
    expect(await screen.findByText('A new code is on its way. Please check your inbox.')).toBeInTheDocument();
    expect(screen.getByText(/You can ask for a new code in \d+ s\./)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send a new code' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('button', { name: 'Send a new code' }));
    expect(calls).toBe(1);
  });

  it('back on /code, or reloaded, 12 s after the code was mailed: the countdown shows the rest of the cooldown', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      recordCodeSent('verification', email, Date.now() - 12_000);
      renderRoute('/code', { shell: false });
      expect(await screen.findByRole('button', { name: 'Send a new code' })).toHaveAttribute(
        'aria-disabled',
        'true',
      );
      expect(
        screen.getByText(`You can ask for a new code in ${RESEND_COOLDOWN_SECONDS - 12} s.`),
      ).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });
});

import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RESEND_COOLDOWN_SECONDS, STORAGE_KEYS, apiPaths, embedMessage, messages } from '@frontdoor/contract';
import { resendWaitSeconds } from '../shared/code-sent.ts';
import { postToUrl } from '../shared/browser.ts';
import { HttpResponse, api, fail, http, ok, renderRoute, server } from '../../test/render.tsx';
import { passwordDescription } from '../../test/password-description.ts';

vi.mock('../shared/browser.ts', () => ({ postToUrl: vi.fn() }));
beforeEach(() => {
  vi.clearAllMocks();
  sessionStorage.clear();
});

const strong = 'N3w!Password99';
const page = `/password-reset?code=12345678&email=${encodeURIComponent('ana@school.org')}`;

async function submit(pw = strong, confirm = pw) {
  const user = userEvent.setup();
  renderRoute(page, { shell: false });
  if (pw) await user.type(await screen.findByLabelText('New password'), pw);
  if (confirm) await user.type(screen.getByLabelText('Confirm new password'), confirm);
  await user.click(await screen.findByRole('button', { name: 'Reset password' }));
  return user;
}
const resetFails = (msg: string | undefined) =>
  server.use(
    http.post(api(apiPaths.reset), () =>
      HttpResponse.json(msg === undefined ? { status: 'error' } : { status: 'error', msg }, { status: 400 }),
    ),
  );

describe('PasswordResetPage (/password-reset?code&email)', () => {
  it.each(['/password-reset?email=a%40b.org', '/password-reset?code=12345678', '/password-reset'])(
    'either query param missing sends the user to /email (%s)',
    async (path) => {
      renderRoute(path, { shell: false });
      expect(
        await screen.findByRole('heading', { name: 'Continue with email' }, { timeout: 5000 }),
      ).toBeInTheDocument();
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/email$/);
    },
  );

  it('an email param that is no address (a sentence anyone can put in a link) is as none: it goes to /email and shows nowhere', async () => {
    const phishing = 'locked. Call 555-0100 or mail help@evil.example to unlock';
    renderRoute(`/password-reset?code=12345678&email=${encodeURIComponent(phishing)}`, { shell: false });
    expect(
      await screen.findByRole('heading', { name: 'Continue with email' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/email$/);
    expect(document.body).not.toHaveTextContent(/evil\.example/);
  });

  it('a weak password is refused with the policy message', async () => {
    await submit('weakpass', 'weakpass');
    await waitFor(() =>
      expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
        expect.stringMatching(passwordDescription(messages.passwordPolicy)),
      ),
    );
  });

  it('applies the same password rules: required, policy, confirmation', async () => {
    await submit('', '');
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.formInvalid);
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
      expect.stringMatching(passwordDescription(messages.passwordRequired)),
    );
    expect(screen.getByLabelText('Confirm new password')).toHaveAccessibleDescription(
      messages.confirmPasswordRequired,
    );
  });

  it("a mismatch shows 'Passwords do not match'", async () => {
    await submit(strong, `${strong}x`);
    await waitFor(() =>
      expect(screen.getByLabelText('Confirm new password')).toHaveAccessibleDescription(
        messages.passwordsDoNotMatch,
      ),
    );
  });

  it('POST cognito/reset {un, code, pw, confirmPw}; success goes to the sign-in', async () => {
    let body: unknown;
    server.use(
      http.post(api(apiPaths.reset), async ({ request }) => {
        body = await request.json();
        return ok(null);
      }),
      http.get(api(apiPaths.getCsrf), () => ok({ csrf: 's' })),
    );
    await submit();
    await waitFor(() => expect(postToUrl).toHaveBeenCalled());
    expect(body).toEqual({ un: 'ana@school.org', code: '12345678', pw: strong, confirmPw: strong });
    const url = new URL(vi.mocked(postToUrl).mock.calls[0]![0]);
    expect(url.searchParams.get('identity_provider')).toBe('COGNITO');
    expect(url.searchParams.get('login_hint')).toBe('ana@school.org');
    // the password page reads the email from this tab, never from its own address
    expect(sessionStorage.getItem(STORAGE_KEYS.email)).toBe('ana@school.org');
  });

  it('failure shows the message taken from JSON embedded in msg', async () => {
    resetFails(embedMessage('Reset failed:', 'LimitExceededException', messages.attemptLimit));
    await submit();
    expect(await screen.findByText(messages.attemptLimit)).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: messages.requestNewVerificationCode }),
    ).not.toBeInTheDocument();
  });

  it.each(['passwordCommon', 'passwordPersonal'] as const)(
    "the server's refusal %s shows under the new password, which takes the focus",
    async (code) => {
      server.use(
        http.post(api(apiPaths.reset), () =>
          HttpResponse.json(
            {
              status: 'error',
              msg: embedMessage('Password reset failed:', 'InvalidPasswordException', messages[code]),
              code,
            },
            { status: 400 },
          ),
        ),
      );
      await submit();
      const password = screen.getByLabelText('New password');
      await waitFor(() =>
        expect(password).toHaveAccessibleDescription(
          expect.stringMatching(passwordDescription(messages[code])),
        ),
      );
      expect(password).toHaveFocus();
      expect(postToUrl).not.toHaveBeenCalled();
    },
  );

  it('refuses a password holding a part of the email before calling the server', async () => {
    await submit('School-Sunrise-42');
    await waitFor(() =>
      expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
        expect.stringMatching(passwordDescription(messages.passwordPersonal)),
      ),
    );
  });

  it('no answer at all (the Wi-Fi dropped a moment) says so on the page, both passwords kept', async () => {
    server.use(http.post(api(apiPaths.reset), () => HttpResponse.error()));
    await submit();
    expect(await screen.findByText(messages.networkError)).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toHaveValue(strong);
    expect(screen.getByLabelText('Confirm new password')).toHaveValue(strong);
    expect(postToUrl).not.toHaveBeenCalled();
  });

  it("failure without embedded JSON shows 'An unknown error occurred.'", async () => {
    resetFails('Reset failed');
    await submit();
    expect(await screen.findByText(messages.unknownError)).toBeInTheDocument();
  });

  it("'Invalid verification code provided, please try again.' becomes 'Invalid code provided, please request a code again.' with 'Request new verification code'; the link POSTs cognito/sendreset {un} and shows the resend success", async () => {
    resetFails(embedMessage('Reset failed:', 'CodeMismatchException', messages.invalidVerificationCode));
    let body: unknown;
    server.use(
      http.post(api(apiPaths.sendReset), async ({ request }) => {
        body = await request.json();
        return ok(null);
      }),
    );
    const user = await submit();
    expect(await screen.findByText(messages.invalidCodeRequestAgain)).toBeInTheDocument();
    expect(screen.queryByText(messages.invalidVerificationCode)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: messages.requestNewVerificationCode }));
    await waitFor(() => expect(body).toEqual({ un: 'ana@school.org' }));
    // textContent keeps the spec's double space, which the text matchers would collapse
    expect((await screen.findByText(/A new password reset code has been sent/)).textContent).toBe(
      messages.resetResendSuccess,
    );
    // back on /forgot-password, where the new code is entered, its resend waits for this code's cooldown
    expect(resendWaitSeconds('reset', 'ana@school.org')).toBeGreaterThan(RESEND_COOLDOWN_SECONDS - 2);
  });

  it("the refused code's message, with its 'Request new verification code' link, takes the focus above the form", async () => {
    resetFails(embedMessage('Reset failed:', 'CodeMismatchException', messages.invalidVerificationCode));
    const user = await submit();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(messages.invalidCodeRequestAgain);
    await waitFor(() => expect(alert).toHaveFocus());
    // the next Tab reaches the link inside it
    await user.tab();
    expect(screen.getByRole('button', { name: messages.requestNewVerificationCode })).toHaveFocus();
  });

  it('a refused new-code request shows its message and keeps offering a new code', async () => {
    resetFails(embedMessage('Reset failed:', 'CodeMismatchException', messages.invalidVerificationCode));
    server.use(http.post(api(apiPaths.sendReset), () => fail(429, 'tooManyRequests')));
    const user = await submit();
    await user.click(await screen.findByRole('button', { name: messages.requestNewVerificationCode }));
    expect(await screen.findByText(messages.tooManyRequests)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: messages.requestNewVerificationCode })).toBeInTheDocument();
  });

  it('when the sign-in cannot start after the reset, it says so and links to the login page', async () => {
    server.use(
      http.post(api(apiPaths.reset), () => ok(null)),
      http.get(api(apiPaths.getCsrf), () => fail(429, 'tooManyRequests')),
    );
    const user = await submit();
    expect(await screen.findByText(messages.tooManyRequests)).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Your password has been changed. Sign in with it' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/log-in$/));
    expect(postToUrl).not.toHaveBeenCalled();
  });

  it('password fields use new-password autocomplete and the email is offered as username', async () => {
    renderRoute(page, { shell: false });
    expect(await screen.findByLabelText('New password')).toHaveAttribute('autocomplete', 'new-password');
    expect(document.querySelector('input[autocomplete="username"]')).toHaveValue('ana@school.org');
  });
});

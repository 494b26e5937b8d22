import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RESEND_COOLDOWN_SECONDS, STORAGE_KEYS, apiPaths, messages } from '@frontdoor/contract';
import { postToUrl } from '../shared/browser.ts';
import { api, http, ok, renderRoute, server } from '../../test/render.tsx';
import { getLoginCsrf, getLoginParams, saveLoginData } from '../../lib/storage.ts';
import { handOverLoginData } from '../../lib/login-handover.ts';

vi.mock('../shared/browser.ts', () => ({ postToUrl: vi.fn() }));

const page = `/forgot-password?email=${encodeURIComponent('ana@school.org')}`;

/** The in-flow opening: the identity side mailed the code as it sent the tab here, its URL naming no address. */
function openedInFlow(): string {
  sessionStorage.setItem(STORAGE_KEYS.email, 'ana@school.org');
  return '/forgot-password';
}

/** Answers cognito/reset (and the sign-in after it), keeping what the page sent. */
function captureReset(): () => unknown {
  let sent: unknown;
  server.use(
    http.post(api(apiPaths.reset), async ({ request }) => {
      sent = await request.json();
      return ok(null);
    }),
    // after the reset the page signs in: the authorize URL is the end of these tests
    http.get(api(apiPaths.getCsrf), () => ok({ csrf: 's' })),
  );
  return () => sent;
}

async function setNewPassword(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('New password'), 'Brand-New-Passw0rd!');
  await user.type(screen.getByLabelText('Confirm new password'), 'Brand-New-Passw0rd!');
  await user.click(screen.getByRole('button', { name: 'Reset password' }));
}

describe('ForgotPasswordPage (/forgot-password)', () => {
  afterEach(() => sessionStorage.clear());

  it('reached from the forgotPassword url or the reset popup, its URL names no address: it reads the one this tab remembers, and the code goes on to /password-reset, which names none either', async () => {
    const sent = captureReset();
    sessionStorage.setItem(STORAGE_KEYS.email, 'ana@school.org');
    const user = userEvent.setup();
    renderRoute('/forgot-password', { shell: false });
    expect(await screen.findByText(/ana@school\.org/)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Reset code'), '12345678');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/password-reset$/));
    await setNewPassword(user);
    await waitFor(() => expect(sent()).toMatchObject({ un: 'ana@school.org', code: '12345678' }));
  });

  it("the reset mail's link, in a tab of its own, names the address: the tab remembers it from then on", async () => {
    renderRoute(page, { shell: false });
    await screen.findByRole('heading', { name: 'Check your email' });
    expect(sessionStorage.getItem(STORAGE_KEYS.email)).toBe('ana@school.org');
  });

  it("opened by the reset mail's link in a tab of its own, it goes on with the device's live sign-in request", async () => {
    const request = { url: 'https://app.example/back', isTeacher: false, sp_id: 'sp-mail' };
    saveLoginData('lc-reset', request);
    // the tab that started it waited for this address's mail
    handOverLoginData('ana@school.org');
    sessionStorage.clear();
    renderRoute(page, { shell: false });
    await screen.findByRole('button', { name: /Continue|Submit|Reset|Verify/ });
    expect(getLoginCsrf()).toBe('lc-reset');
    expect(getLoginParams()).toEqual(request);
  });

  it('noting its code in its history entry is no second arrival: the page is not mounted again, nor its heading focused', async () => {
    renderRoute(openedInFlow());
    const heading = await screen.findByRole('heading', { name: 'Check your email', level: 1 });
    // the entry's state is written by an effect after the first render: give it a few tasks
    await act(() => new Promise((done) => setTimeout(done, 100)));
    expect(heading.isConnected).toBe(true);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(heading).not.toHaveFocus();
  });

  it('without email it goes to /email', async () => {
    renderRoute('/forgot-password', { shell: false });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/email$/));
  });

  it('an email param that is no address (a sentence anyone can put in a link) is as none: it goes to /email and shows nowhere', async () => {
    const phishing = 'locked. Call 555-0100 or mail help@evil.example to unlock';
    renderRoute(`/forgot-password?email=${encodeURIComponent(phishing)}`, { shell: false });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/email$/));
    expect(document.body).not.toHaveTextContent(/evil\.example/);
  });

  it('an address whose spaces are invisible fillers (a sentence that passes as one address) is as none too', async () => {
    const filled = 'Your\u3164account\u3164is\u3164locked.\u3164Call\u3164555-0100@evil.example';
    renderRoute(`/forgot-password?email=${encodeURIComponent(filled)}`, { shell: false });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/email$/));
    expect(document.body).not.toHaveTextContent(/evil\.example/);
  });

  it("asks to check the email and enter the code; the code goes on to /password-reset in the navigation's state, never in the address a shared device's history keeps", async () => {
    const sent = captureReset();
    const user = userEvent.setup();
    renderRoute(page, { shell: false });
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    const input = screen.getByLabelText('Reset code');
    expect(input).toHaveAttribute('autocomplete', 'one-time-code');
    await user.type(input, '12a345678');
    expect(input).toHaveValue('12345678');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/password-reset$/));
    await setNewPassword(user);
    await waitFor(() => expect(sent()).toMatchObject({ un: 'ana@school.org', code: '12345678' }));
    await waitFor(() => expect(postToUrl).toHaveBeenCalled());
  });

  it("'Didn't get the email?' and the countdown describe the resend button, not the code field", async () => {
    renderRoute(openedInFlow(), { shell: false });
    const resend = await screen.findByRole('button', { name: 'Send a new code' });
    expect(resend).toHaveAccessibleDescription(
      /^Didn't get the email\? You can ask for a new code in \d+ s\.$/,
    );
    expect(screen.getByLabelText('Reset code')).not.toHaveAccessibleDescription();
  });

  it('an incomplete code is refused', async () => {
    const user = userEvent.setup();
    renderRoute(page, { shell: false });
    await user.type(await screen.findByLabelText('Reset code'), '12');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findAllByText(messages.codeRequired)).length).toBeGreaterThan(0);
  });

  afterEach(() => vi.useRealTimers());

  it('back from /password-reset 12 s later: the countdown goes on from the code mailed on arrival, not from the start', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const user = userEvent.setup();
    const { router } = renderRoute(openedInFlow(), { shell: false });
    expect(
      await screen.findByText(`You can ask for a new code in ${RESEND_COOLDOWN_SECONDS} s.`),
    ).toBeInTheDocument();
    await user.type(screen.getByLabelText('Reset code'), '12345678');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByLabelText('New password');
    vi.setSystemTime(Date.now() + 12_000);
    await act(() => router.navigate(-1));
    expect(
      await screen.findByText(`You can ask for a new code in ${RESEND_COOLDOWN_SECONDS - 12} s.`),
    ).toBeInTheDocument();
  });

  it("opened from the mail's link, which may be long after its mail, Send a new code is offered at once", async () => {
    renderRoute(page, { shell: false });
    const resend = await screen.findByRole('button', { name: 'Send a new code' });
    expect(resend).not.toHaveAttribute('aria-disabled');
    expect(screen.queryByText(/You can ask for a new code in \d+ s\./)).toBeNull();
  });

  it('the code was just mailed: resend waits for the countdown, then POSTs cognito/sendreset and shows the resend success', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let body: unknown;
    server.use(
      http.post(api(apiPaths.sendReset), async ({ request }) => {
        body = await request.json();
        return ok(null);
      }),
    );
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderRoute(openedInFlow(), { shell: false });
    const resend = await screen.findByRole('button', { name: 'Send a new code' });
    expect(resend).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByText(/You can ask for a new code in \d+ s\./)).toBeInTheDocument();
    // the countdown ticks once a second, each tick scheduled by the previous render
    for (let second = 0; second <= 30; second += 1) await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(resend).not.toHaveAttribute('aria-disabled');
    await user.click(resend);
    await waitFor(() => expect(body).toEqual({ un: 'ana@school.org' }));
    expect((await screen.findByText(/A new password reset code has been sent/)).textContent).toBe(
      messages.resetResendSuccess,
    );
    expect(screen.getByText(/You can ask for a new code in \d+ s\./)).toBeInTheDocument();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS, apiPaths, messages } from '@frontdoor/contract';
import { goToUrl, postToUrl } from '../shared/browser.ts';
import { api, fail, http, ok, renderRoute, server } from '../../test/render.tsx';

vi.mock('../shared/browser.ts', () => ({ goToUrl: vi.fn(), postToUrl: vi.fn() }));
beforeEach(() => vi.clearAllMocks());
afterEach(() => sessionStorage.clear());

/** The page as the authorization server's redirect opens it, in a tab whose flow holds the email. */
function renderSignIn() {
  sessionStorage.setItem(STORAGE_KEYS.email, 'ana@school.org');
  return renderRoute('/sign-in/uid-1', { shell: false });
}

async function signIn(password = 'Secret!Pass123') {
  const user = userEvent.setup();
  renderSignIn();
  await user.type(await screen.findByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('SignInPage (/sign-in/:uid)', () => {
  it('prefills the email this tab remembers (never from its address), with username/current-password autocomplete', async () => {
    renderSignIn();
    expect(await screen.findByLabelText('Email')).toHaveValue('ana@school.org');
    expect(screen.getByLabelText('Email')).toHaveAttribute('autocomplete', 'username');
    expect(screen.getByLabelText('Password')).toHaveAttribute('autocomplete', 'current-password');
    expect(screen.getByLabelText('Password')).toHaveFocus();
  });

  it('with the email known the password field has the focus; without it nothing is focused', async () => {
    const { unmount } = renderSignIn();
    expect(await screen.findByLabelText('Password')).toHaveFocus();
    unmount();
    sessionStorage.clear();
    renderRoute('/sign-in/uid-1', { shell: false });
    expect(await screen.findByLabelText('Password')).not.toHaveFocus();
    expect(screen.getByLabelText('Email')).not.toHaveFocus();
  });

  it("'Forgot password?' links to the forgotPassword url with the email, and sends it as a POST remembering the typed address in the tab (never in a URL the history keeps)", async () => {
    const user = userEvent.setup();
    renderSignIn();
    const link = await screen.findByRole('link', { name: 'Forgot password?' });
    const url = new URL(link.getAttribute('href') ?? '');
    expect(url.pathname).toBe('/oidc/forgotPassword');
    expect(url.searchParams.get('login_hint')).toBe('ana@school.org');
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'bea@school.org');
    await user.click(link);
    expect(postToUrl).toHaveBeenCalledTimes(1);
    expect(new URL(vi.mocked(postToUrl).mock.calls[0]![0]).searchParams.get('login_hint')).toBe(
      'bea@school.org',
    );
    expect(sessionStorage.getItem(STORAGE_KEYS.email)).toBe('bea@school.org');
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/sign-in\/uid-1$/);
  });

  it('POST cognito/login {email, password, uid} then follows payload.redirect', async () => {
    let body: unknown;
    server.use(
      http.post(api(apiPaths.cognitoLogin), async ({ request }) => {
        body = await request.json();
        return ok({ redirect: 'http://localhost/oidc/auth/resume' });
      }),
    );
    await signIn();
    await waitFor(() => expect(goToUrl).toHaveBeenCalledWith('http://localhost/oidc/auth/resume'));
    expect(body).toEqual({ email: 'ana@school.org', password: 'Secret!Pass123', uid: 'uid-1' });
  });

  it('a wrong password shows the server message', async () => {
    server.use(http.post(api(apiPaths.cognitoLogin), () => fail(401, 'incorrectCredentials')));
    await signIn();
    expect(await screen.findByText(messages.incorrectCredentials)).toBeInTheDocument();
    expect(goToUrl).not.toHaveBeenCalled();
  });

  it('a wrong password marks both fields invalid and describes them by the message (issue 12)', async () => {
    server.use(http.post(api(apiPaths.cognitoLogin), () => fail(401, 'incorrectCredentials')));
    await signIn();
    await screen.findByText(messages.incorrectCredentials);
    for (const label of ['Email', 'Password']) {
      const field = screen.getByLabelText(label);
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveAccessibleDescription(messages.incorrectCredentials);
    }
  });

  it("a new submit drops the last refusal: an emptied password shows 'Password is a required field.' alone", async () => {
    server.use(http.post(api(apiPaths.cognitoLogin), () => fail(401, 'incorrectCredentials')));
    const user = userEvent.setup();
    await signIn();
    await screen.findByText(messages.incorrectCredentials);
    await user.clear(screen.getByLabelText('Password'));
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findAllByText(messages.passwordRequired)).length).toBeGreaterThan(0);
    expect(screen.queryByText(messages.incorrectCredentials)).toBeNull();
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-invalid');
  });

  it('a refusal that is not about what was typed leaves the fields valid', async () => {
    server.use(http.post(api(apiPaths.cognitoLogin), () => fail(503, 'serverBusy')));
    await signIn();
    await screen.findByText(messages.serverBusy);
    expect(screen.getByLabelText('Password')).not.toHaveAttribute('aria-invalid');
  });

  it.each([
    [429, 'tooManyFailures'],
    [429, 'accountLocked'],
    [429, 'addressFailureLimit'],
    [403, 'accountDisabled'],
    [503, 'serverBusy'],
  ] as const)(
    'a %i %s answer shows its message on the page, whose form can be sent again',
    async (status, code) => {
      server.use(http.post(api(apiPaths.cognitoLogin), () => fail(status, code)));
      await signIn();
      expect(await screen.findByText(messages[code])).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    },
  );

  it('an unconfirmed account shows the message and a way to verify, remembering the address typed', async () => {
    server.use(http.post(api(apiPaths.cognitoLogin), () => fail(403, 'userNotConfirmed')));
    const user = userEvent.setup();
    renderRoute('/sign-in/uid-1', { shell: false });
    await user.type(await screen.findByLabelText('Email'), 'ana@school.org');
    await user.type(screen.getByLabelText('Password'), 'Secret!Pass123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(messages.userNotConfirmed)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Verify your email' })).toHaveAttribute(
      'href',
      '/send-verification-code',
    );
    expect(sessionStorage.getItem(STORAGE_KEYS.email)).toBe('ana@school.org');
  });

  it('a step past its hour (stateInvalid) offers to start again: a new password sign-in for the same email', async () => {
    let asked: URLSearchParams | undefined;
    server.use(
      http.post(api(apiPaths.cognitoLogin), () => fail(400, 'stateInvalid')),
      http.get(api(apiPaths.getCsrf), ({ request }) => {
        asked = new URL(request.url).searchParams;
        return ok({ csrf: 'state-2', code_challenge: 'pkce-2' });
      }),
    );
    const user = userEvent.setup();
    await signIn();
    expect(await screen.findByText(messages.stateInvalid)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Start again' }));
    await waitFor(() => expect(postToUrl).toHaveBeenCalledTimes(1));
    expect(asked?.get('p')).toBe('COGNITO');
    const url = new URL(String(vi.mocked(postToUrl).mock.calls[0]?.[0]));
    expect(url.pathname).toBe('/oidc/oauth2/authorize');
    expect(url.searchParams.get('identity_provider')).toBe('COGNITO');
    expect(url.searchParams.get('state')).toBe('state-2');
    expect(url.searchParams.get('login_hint')).toBe('ana@school.org');
  });

  it('a start again that fails says why on the page (it did nothing visible)', async () => {
    server.use(
      http.post(api(apiPaths.cognitoLogin), () => fail(400, 'stateInvalid')),
      http.get(api(apiPaths.getCsrf), () => fail(429, 'tooManyRequests')),
    );
    const user = userEvent.setup();
    await signIn();
    await user.click(await screen.findByRole('button', { name: 'Start again' }));
    expect(await screen.findByText(messages.tooManyRequests)).toBeInTheDocument();
    expect(postToUrl).not.toHaveBeenCalled();
  });

  it('no other refusal offers to start again', async () => {
    server.use(http.post(api(apiPaths.cognitoLogin), () => fail(401, 'incorrectCredentials')));
    await signIn();
    await screen.findByText(messages.incorrectCredentials);
    expect(screen.queryByRole('button', { name: 'Start again' })).not.toBeInTheDocument();
  });

  it('an empty password is refused before any call', async () => {
    const user = userEvent.setup();
    renderSignIn();
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect((await screen.findAllByText(messages.passwordRequired)).length).toBeGreaterThan(0);
  });
});

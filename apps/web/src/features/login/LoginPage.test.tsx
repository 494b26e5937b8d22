import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  LOGIN_BUTTON_PROVIDERS,
  PROVIDER_DISPLAY_NAMES,
  STORAGE_KEYS,
  apiPaths,
  messages,
} from '@frontdoor/contract';
import { goToUrl } from '../shared/browser.ts';
import { HttpResponse, api, fail, http, ok, renderRoute, server } from '../../test/render.tsx';
import { sessionQueryKey } from '../../lib/session.ts';
import { blockStorage, fillStorage } from '../../test/blocked-storage.ts';

vi.mock('../shared/browser.ts', () => ({ goToUrl: vi.fn() }));
beforeEach(() => vi.clearAllMocks());

const loginParams = { url: 'https://app.example/start', isTeacher: false, sp_id: 'sp-1' };

function captureCsrf() {
  const seen: URLSearchParams[] = [];
  server.use(
    http.get(api(apiPaths.getCsrf), ({ request }) => {
      seen.push(new URL(request.url).searchParams);
      return ok({ csrf: 'state-9', code_challenge: 'pkce' });
    }),
  );
  return seen;
}
const assigned = () => new URL(vi.mocked(goToUrl).mock.calls[0]![0]);

describe('LoginPage (/log-in, /log-in/{csrf}, unknown paths)', () => {
  it('has a heading about transforming a school and a contact-us link to the configured URL', async () => {
    renderRoute('/log-in', { shell: false });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Transform your school with us' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact us' })).toHaveAttribute(
      'href',
      'https://site.example/contact',
    );
  });

  it('has one button per external provider, in contract order', async () => {
    renderRoute('/log-in', { shell: false });
    const list = await screen.findByRole('list', { name: 'Sign-in options' });
    const names = within(list)
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(names).toEqual(LOGIN_BUTTON_PROVIDERS.map((p) => `Continue with ${PROVIDER_DISPLAY_NAMES[p]}`));
  });

  it("a 'Continue with Email' link goes to /email", async () => {
    renderRoute('/log-in', { shell: false });
    expect(await screen.findByRole('link', { name: 'Continue with Email' })).toHaveAttribute(
      'href',
      '/email',
    );
  });

  it('any unknown path also shows the login page', async () => {
    renderRoute('/no/such/page', { shell: false });
    expect(await screen.findByRole('heading', { name: 'Transform your school with us' })).toBeInTheDocument();
  });

  it('with a {csrf}: GET gateway/getCsrfLogin/{csrf} and saves login_csrf and login_params', async () => {
    server.use(http.get(api(apiPaths.getCsrfLogin('abc')), () => ok(loginParams)));
    renderRoute('/log-in/abc', { shell: false });
    await waitFor(() => expect(sessionStorage.getItem(STORAGE_KEYS.loginCsrf)).toBe('abc'));
    expect(JSON.parse(sessionStorage.getItem(STORAGE_KEYS.loginParams) ?? 'null')).toEqual(loginParams);
  });

  it('login params failure shows the server message', async () => {
    server.use(http.get(api(apiPaths.getCsrfLogin('old')), () => fail(404, 'loginRequestNotFound')));
    renderRoute('/log-in/old', { shell: false });
    expect(await screen.findByText(messages.loginRequestNotFound)).toBeInTheDocument();
  });

  it("login params failure without a message shows 'Unknown failure retrieving login params'", async () => {
    server.use(http.get(api(apiPaths.getCsrfLogin('old')), () => new HttpResponse(null, { status: 404 })));
    renderRoute('/log-in/old', { shell: false });
    expect(await screen.findByText(messages.loginParamsFailure)).toBeInTheDocument();
  });

  it.each([
    ['an error without msg', () => HttpResponse.json({ status: 'error' })],
    ['a body not JSON', () => HttpResponse.text('oops')],
  ])(
    "a 200 answer that breaks the contract (%s) shows 'Unknown failure retrieving login params', not a parser's words",
    async (_answer, answer) => {
      server.use(http.get(api(apiPaths.getCsrfLogin('odd')), answer));
      renderRoute('/log-in/odd', { shell: false });
      expect(await screen.findByText(messages.loginParamsFailure)).toBeInTheDocument();
      expect(screen.queryByText(/Unexpected|Unreadable/)).not.toBeInTheDocument();
    },
  );

  it.each([
    ['a timeout', '/error-timeout/lc-new', () => new Promise<Response>(() => undefined)],
    ['a network failure', '/error-generic/lc-new', () => HttpResponse.error()],
  ])(
    '%s of the first call of /log-in/{csrf} goes to the error page with that csrf (storage has none yet)',
    async (_failure, errorPage, answer) => {
      server.use(http.get(api(apiPaths.getCsrfLogin('lc-new')), answer));
      renderRoute('/log-in/lc-new', { shell: false, config: { requestTimeoutMs: 50 } });
      await waitFor(() =>
        expect(screen.getByTestId('location')).toHaveTextContent(new RegExp(`^${errorPage}$`)),
      );
      expect(sessionStorage.getItem(STORAGE_KEYS.loginCsrf)).toBeNull();
      // its Continue leads back to the product's sign-in request
      expect(await screen.findByRole('link', { name: 'Continue' })).toHaveAttribute('href', '/log-in/lc-new');
    },
  );

  it('social button: GET social/get_csrf with r (site root without login params) and p, then the authorize url', async () => {
    const seen = captureCsrf();
    const user = userEvent.setup();
    renderRoute('/log-in', { shell: false });
    await user.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    await waitFor(() => expect(goToUrl).toHaveBeenCalledTimes(1));
    expect(seen[0]?.get('r')).toBe('https://site.example/');
    expect(seen[0]?.get('p')).toBe('Google');
    expect(seen[0]?.has('c')).toBe(false);
    const url = assigned();
    expect(url.pathname).toBe('/oidc/oauth2/authorize');
    expect(url.searchParams.get('client_id')).toBe('portal-client');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('redirect_uri')).toBe('http://localhost/api/auth/callback');
    expect(url.searchParams.get('scope')).toBe('openid email profile');
    expect(url.searchParams.get('state')).toBe('state-9');
    expect(url.searchParams.get('identity_provider')).toBe('Google');
    expect(url.searchParams.get('code_challenge')).toBe('pkce');
  });

  it('social button with login params: r is loginParams.url and the login csrf travels as c', async () => {
    server.use(http.get(api(apiPaths.getCsrfLogin('lc-1')), () => ok(loginParams)));
    const seen = captureCsrf();
    const user = userEvent.setup();
    renderRoute('/log-in/lc-1', { shell: false });
    await waitFor(() => expect(sessionStorage.getItem(STORAGE_KEYS.loginCsrf)).toBe('lc-1'));
    await user.click(await screen.findByRole('button', { name: 'Continue with Clever' }));
    await waitFor(() => expect(goToUrl).toHaveBeenCalled());
    expect(seen[0]?.get('r')).toBe(loginParams.url);
    expect(seen[0]?.get('c')).toBe('lc-1');
    expect(assigned().searchParams.get('identity_provider')).toBe('Clever');
  });

  it.each([
    ['blocked', blockStorage],
    ['full', fillStorage],
  ])(
    "with storage %s a provider's button sends r and c of the address's sign-in request",
    async (_, breakStorage) => {
      breakStorage();
      server.use(http.get(api(apiPaths.getCsrfLogin('lc-1')), () => ok(loginParams)));
      const seen = captureCsrf();
      const user = userEvent.setup();
      renderRoute('/log-in/lc-1', { shell: false });
      await user.click(await screen.findByRole('button', { name: 'Continue with Google' }));
      await waitFor(() => expect(goToUrl).toHaveBeenCalled());
      expect(seen[0]?.get('r')).toBe(loginParams.url);
      expect(seen[0]?.get('c')).toBe('lc-1');
    },
  );

  it("on log-in/{csrf} whose request is gone, a provider's button sends that csrf, never the tab's other request", async () => {
    sessionStorage.setItem(STORAGE_KEYS.loginCsrf, 'lc-other');
    sessionStorage.setItem(
      STORAGE_KEYS.loginParams,
      JSON.stringify({ ...loginParams, url: 'https://other.example/' }),
    );
    server.use(http.get(api(apiPaths.getCsrfLogin('lc-gone')), () => fail(404, 'loginRequestNotFound')));
    const seen = captureCsrf();
    const user = userEvent.setup();
    renderRoute('/log-in/lc-gone', { shell: false });
    await screen.findByText(messages.loginRequestNotFound);
    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    await waitFor(() => expect(goToUrl).toHaveBeenCalled());
    expect(seen[0]?.get('c')).toBe('lc-gone');
    expect(seen[0]?.get('r')).toBe('https://site.example/');
  });

  it('a get_csrf 5xx goes to /error-generic', async () => {
    server.use(http.get(api(apiPaths.getCsrf), () => fail(500, 'internalError')));
    const user = userEvent.setup();
    renderRoute('/log-in', { shell: false });
    await user.click(await screen.findByRole('button', { name: 'Continue with Apple' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/error-generic'));
  });
});

describe('Signed-in notice (auth/sig loggedin, GET cognito/logout)', () => {
  const signedIn = {
    loggedin: true,
    payload: {
      token: 't',
      signature: { user: { id: 'u1', email: 'ana@school.org', first: 'Ana', last: 'Lima', roles: {} } },
    },
  };
  const visitor = { loggedin: false, payload: null };
  const NOTICE = 'Signed in as Ana Lima (ana@school.org)';

  /** auth/sig answers signed-in until cognito/logout has been called, then a visitor (like the server). */
  function sessionServer(logout: () => Response = () => ok(null)) {
    const calls = { sig: 0, logout: 0 };
    // the session ends only with a sign-out the server took (a refused one leaves it)
    let signedOut = false;
    server.use(
      http.get(api(apiPaths.sig), () => {
        calls.sig += 1;
        return HttpResponse.json(signedOut ? visitor : signedIn);
      }),
      http.get(api(apiPaths.cognitoLogout), () => {
        calls.logout += 1;
        const answer = logout();
        signedOut ||= answer.ok;
        return answer;
      }),
    );
    return calls;
  }

  it('a visitor (loggedin false) sees no notice', async () => {
    let sigCalls = 0;
    server.use(
      http.get(api(apiPaths.sig), () => {
        sigCalls += 1;
        return HttpResponse.json(visitor);
      }),
    );
    const { queryClient } = renderRoute('/log-in', { shell: false });
    await screen.findByRole('heading', { name: 'Transform your school with us' });
    await waitFor(() => expect(queryClient.getQueryState(sessionQueryKey)?.status).toBe('success'));
    expect(sigCalls).toBe(1);
    expect(screen.queryByText(/Signed in as/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign out' })).not.toBeInTheDocument();
  });

  it("a sign-in starts here: the address a flow left unfinished in this tab (the last person's, on a shared device) is forgotten, so the next /email starts empty", async () => {
    sessionStorage.setItem(STORAGE_KEYS.email, 'ana@school.org');
    const user = userEvent.setup();
    renderRoute('/log-in', { shell: false });
    await user.click(await screen.findByRole('link', { name: 'Continue with Email' }));
    expect(await screen.findByLabelText('Email')).toHaveValue('');
    expect(sessionStorage.getItem(STORAGE_KEYS.email)).toBeNull();
  });

  it("signed in: 'Signed in as <first> <last> (<email>)'; Sign out calls cognito/logout and the notice goes", async () => {
    const calls = sessionServer();
    const user = userEvent.setup();
    sessionStorage.setItem(STORAGE_KEYS.email, 'ana@school.org');
    sessionStorage.setItem(STORAGE_KEYS.loginCsrf, 'lc-teacher');
    sessionStorage.setItem(
      STORAGE_KEYS.loginParams,
      JSON.stringify({ url: 'https://app.example/', isTeacher: true, sp_id: 'sp' }),
    );
    renderRoute('/log-in', { shell: false });
    expect(await screen.findByText(NOTICE)).toBeInTheDocument();
    expect(screen.queryByText(/Acting as/)).not.toBeInTheDocument();
    expect(calls.logout).toBe(0);
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(screen.queryByText(NOTICE)).not.toBeInTheDocument());
    expect(calls.logout).toBe(1);
    // a shared device: the next person's /email is not filled with this one's address, nor their
    // post-login run with this one's sign-in request
    expect(sessionStorage.getItem(STORAGE_KEYS.email)).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEYS.loginCsrf)).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEYS.loginParams)).toBeNull();
    // the session was fetched again after the logout (invalidated), not merely hidden
    expect(calls.sig).toBe(2);
    expect(screen.queryByRole('button', { name: 'Sign out' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Transform your school with us' })).toBeInTheDocument();
  });

  it("signing out on a product's login page keeps its sign-in request: the next person is about to use it", async () => {
    const calls = sessionServer();
    server.use(
      http.get(api(apiPaths.getCsrfLogin('lc-next')), () =>
        ok({ url: 'https://app.example/', isTeacher: false, sp_id: 'sp' }),
      ),
    );
    const user = userEvent.setup();
    renderRoute('/log-in/lc-next', { shell: false });
    await waitFor(() => expect(sessionStorage.getItem(STORAGE_KEYS.loginCsrf)).toBe('lc-next'));
    await user.click(await screen.findByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(calls.logout).toBe(1));
    expect(sessionStorage.getItem(STORAGE_KEYS.loginCsrf)).toBe('lc-next');
    expect(sessionStorage.getItem(STORAGE_KEYS.loginParams)).not.toBeNull();
  });

  it('a failed sign-out shows the server message and keeps the notice', async () => {
    const calls = sessionServer(() => fail(429, 'tooManyRequests'));
    const user = userEvent.setup();
    renderRoute('/log-in', { shell: false });
    await user.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText(messages.tooManyRequests)).toBeInTheDocument();
    expect(calls.logout).toBe(1);
    expect(screen.getByText(NOTICE)).toBeInTheDocument();
  });

  it("masquerading: 'Acting as <first> <last> (<email>)' under the real user; none without masq", async () => {
    const masq = { id: 'u2', email: 'sam@school.org', first: 'Sam', last: 'Reyes', roles: {} };
    server.use(
      http.get(api(apiPaths.sig), () =>
        HttpResponse.json({
          ...signedIn,
          payload: { ...signedIn.payload, signature: { ...signedIn.payload.signature, masq } },
        }),
      ),
    );
    renderRoute('/log-in', { shell: false });
    expect(await screen.findByText(NOTICE)).toBeInTheDocument();
    expect(screen.getByText('Acting as Sam Reyes (sam@school.org)')).toBeInTheDocument();
  });

  it('the notice is translated (es)', async () => {
    sessionServer();
    renderRoute('/log-in', { shell: false, language: 'es' });
    expect(await screen.findByText('Sesión iniciada como Ana Lima (ana@school.org)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cerrar sesión' })).toBeInTheDocument();
  });
});

describe('Work/school email modal', () => {
  async function openModal() {
    const user = userEvent.setup();
    renderRoute('/log-in', { shell: false });
    await user.click(await screen.findByRole('button', { name: 'Continue with Microsoft' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign in with a work or school account' });
    return { user, dialog };
  }
  async function submitEmail(email: string) {
    const { user, dialog } = await openModal();
    await user.type(within(dialog).getByLabelText('Work or school email'), email);
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    return dialog;
  }
  const realm = (resolver: () => Response) =>
    server.use(http.post(api(apiPaths.microsoftUserRealm), resolver));

  it("pattern check: 'Please enter a valid email address', read where the focus goes back: the field", async () => {
    const { user, dialog } = await openModal();
    const field = within(dialog).getByLabelText('Work or school email');
    await user.type(field, 'teacher@school');
    // a screen reader reads a field's description as the field takes the focus
    let describedAtFocus: string | null = null;
    field.addEventListener('focus', () => (describedAtFocus = field.getAttribute('aria-describedby')));
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByText(messages.workEmailInvalid)).toBeInTheDocument();
    await waitFor(() => expect(field).toHaveFocus());
    expect(field).toHaveAccessibleDescription(messages.workEmailInvalid);
    expect(describedAtFocus).not.toBeNull();
  });

  it('a new submit drops the last refusal: a bad address then shows its own message alone', async () => {
    realm(() => fail(404, 'notFound'));
    const dialog = await submitEmail('t@school.org');
    await within(dialog).findByText(messages.workEmailNotFound);
    const user = userEvent.setup();
    const field = within(dialog).getByLabelText('Work or school email');
    await user.clear(field);
    await user.type(field, 'teacher@school');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByText(messages.workEmailInvalid)).toBeInTheDocument();
    expect(within(dialog).queryByText(messages.workEmailNotFound)).toBeNull();
  });

  it('Managed leads to the work/school provider with the email as login_hint', async () => {
    realm(() => ok({ accountType: 'Managed' }));
    captureCsrf();
    await submitEmail('t@school.org');
    await waitFor(() => expect(goToUrl).toHaveBeenCalled());
    expect(assigned().searchParams.get('identity_provider')).toBe('Microsoft');
    expect(assigned().searchParams.get('login_hint')).toBe('t@school.org');
  });

  it('Federated leads to the personal-accounts variant', async () => {
    realm(() => ok({ accountType: 'Federated' }));
    captureCsrf();
    await submitEmail('t@school.org');
    await waitFor(() => expect(goToUrl).toHaveBeenCalled());
    expect(assigned().searchParams.get('identity_provider')).toBe('MicrosoftPersonal');
  });

  it.each([
    ['Unknown', () => ok({ accountType: 'Unknown' })],
    ['a type the contract does not name', () => ok({ accountType: 'Weird' })],
    ['no account type', () => ok({})],
  ])('anything else falls back to the work/school provider: %s', async (_case, answer) => {
    realm(answer);
    captureCsrf();
    await submitEmail('t@school.org');
    await waitFor(() => expect(goToUrl).toHaveBeenCalled());
    expect(assigned().searchParams.get('identity_provider')).toBe('Microsoft');
  });

  it('reads realmInfo.account_type, the upstream shape, too', async () => {
    realm(() => HttpResponse.json({ status: 'success', realmInfo: { account_type: 'Federated' } }));
    captureCsrf();
    await submitEmail('t@school.org');
    await waitFor(() => expect(goToUrl).toHaveBeenCalled());
    expect(assigned().searchParams.get('identity_provider')).toBe('MicrosoftPersonal');
  });

  it("status 404 gives 'Email not found in our system. Please check and try again.'", async () => {
    realm(() => fail(404, 'notFound'));
    const dialog = await submitEmail('t@school.org');
    expect(await within(dialog).findByText(messages.workEmailNotFound)).toBeInTheDocument();
  });

  it("status 403 gives 'Access denied. Please contact your administrator.'", async () => {
    realm(() => fail(403, 'forbidden'));
    const dialog = await submitEmail('t@school.org');
    expect(await within(dialog).findByText(messages.workEmailAccessDenied)).toBeInTheDocument();
  });

  it('a validation failure shows the server msg', async () => {
    realm(() =>
      HttpResponse.json({ status: 'error', msg: 'This domain cannot sign in here.' }, { status: 400 }),
    );
    const dialog = await submitEmail('t@school.org');
    expect(await within(dialog).findByText('This domain cannot sign in here.')).toBeInTheDocument();
  });

  it("a validation failure without msg shows 'Email validation failed. Please try again.'", async () => {
    realm(() => new HttpResponse(null, { status: 400 }));
    const dialog = await submitEmail('t@school.org');
    expect(await within(dialog).findByText(messages.workEmailValidationFailed)).toBeInTheDocument();
  });

  it("otherwise 'An error occurred. Please try again later.'", async () => {
    realm(() => fail(502, 'upstreamFailed'));
    const dialog = await submitEmail('t@school.org');
    expect(await within(dialog).findByText(messages.workEmailOtherError)).toBeInTheDocument();
  });

  it('Escape closes the modal (keyboard)', async () => {
    const { user } = await openModal();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

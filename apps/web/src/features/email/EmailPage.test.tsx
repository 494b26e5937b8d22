import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS, apiPaths, messages } from '@frontdoor/contract';
import * as messageCatalogs from '@frontdoor/contract/message-catalogs';
import { HttpResponse, api, fail, http, ok, renderRoute, server } from '../../test/render.tsx';
import { goToUrl, postToUrl } from '../shared/browser.ts';
import { blockStorage } from '../../test/blocked-storage.ts';
import * as emailCatalogs from './locales.ts';

vi.mock('../shared/browser.ts', () => ({ goToUrl: vi.fn(), postToUrl: vi.fn() }));

beforeEach(() => vi.clearAllMocks());

const answer = (status: string) => http.post(api(apiPaths.validateEmail), () => ok(status));
const csrf = http.get(api(apiPaths.getCsrf), () => ok({ csrf: 'state-1', code_challenge: 'ch' }));
const EMAIL = 'ana@school.org';
const accountType = (methods: string[]) =>
  http.get(api(apiPaths.accountType(EMAIL)), () => ok({ exists: true, methods }));
/** How the page leaves for `provider`: the email sign-in as a form POST (its address off the history), an upstream provider as a GET. */
const leaveFor = (provider: string) => (provider === 'COGNITO' ? postToUrl : goToUrl);

/** The browser left for the authorize url of `provider`, with the email as login_hint and the state. */
async function expectSignInWith(provider: string, state: string) {
  await waitFor(() => expect(leaveFor(provider)).toHaveBeenCalledTimes(1));
  const url = new URL(vi.mocked(leaveFor(provider)).mock.calls[0]![0]);
  expect(url.pathname).toBe('/oidc/oauth2/authorize');
  expect(url.searchParams.get('identity_provider')).toBe(provider);
  expect(url.searchParams.get('login_hint')).toBe(EMAIL);
  expect(url.searchParams.get('state')).toBe(state);
}

async function submit(email: string) {
  const user = userEvent.setup();
  renderRoute('/email', { shell: false });
  const input = await screen.findByLabelText('Email');
  await user.type(input, email);
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  return user;
}

describe('EmailPage (/email)', () => {
  it("shows 'Invalid email format.' for a bad pattern and the summary takes focus", async () => {
    await submit('not-an-email');
    const alerts = await screen.findAllByText(messages.emailFormatInvalid);
    expect(alerts.length).toBeGreaterThan(0);
    expect(screen.getByRole('alert')).toHaveFocus();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
  });

  it("shows 'Invalid email format.' when the email is empty (required)", async () => {
    await submit(' ');
    expect((await screen.findAllByText(messages.emailFormatInvalid)).length).toBeGreaterThan(0);
  });

  it('trims the email before the pattern check and sends it', async () => {
    let sent: unknown;
    server.use(
      http.post(api(apiPaths.validateEmail), async ({ request }) => {
        sent = await request.json();
        return ok('create-account');
      }),
    );
    await submit('  Ana@School.org  ');
    await waitFor(() => expect(sent).toEqual({ email: 'ana@school.org' }));
  });

  it('login: goes to the identity provider sign-in with the email as login_hint', async () => {
    server.use(answer('login'), accountType(['password', 'Google']), csrf);
    await submit(EMAIL);
    await expectSignInWith('COGNITO', 'state-1');
  });

  it("with storage blocked, the password sign-in from a product's log-in/{csrf} carries that request (r and c)", async () => {
    blockStorage();
    const loginParams = { url: 'https://app.example/start', isTeacher: false, sp_id: 'sp-1' };
    const seen: URLSearchParams[] = [];
    server.use(
      http.get(api(apiPaths.getCsrfLogin('lc-1')), () => ok(loginParams)),
      answer('login'),
      accountType(['password']),
      http.get(api(apiPaths.getCsrf), ({ request }) => {
        seen.push(new URL(request.url).searchParams);
        return ok({ csrf: 'state-1', code_challenge: 'ch' });
      }),
    );
    const user = userEvent.setup();
    renderRoute('/log-in/lc-1', { shell: false });
    await user.click(await screen.findByRole('link', { name: 'Continue with Email' }));
    await user.type(await screen.findByLabelText('Email'), EMAIL);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await expectSignInWith('COGNITO', 'state-1');
    expect(seen[0]?.get('r')).toBe(loginParams.url);
    expect(seen[0]?.get('c')).toBe('lc-1');
  });

  it('login without a password: GET cognito/get_account_type sends the user to the first upstream provider', async () => {
    const asked: string[] = [];
    const csrfProviders: Array<string | null> = [];
    server.use(
      answer('login'),
      http.get(api(apiPaths.accountType(EMAIL)), ({ request }) => {
        asked.push(new URL(request.url).pathname);
        return ok({ exists: true, methods: ['Clever', 'Google'] });
      }),
      http.get(api(apiPaths.getCsrf), ({ request }) => {
        csrfProviders.push(new URL(request.url).searchParams.get('p'));
        return ok({ csrf: 'state-2', code_challenge: 'ch' });
      }),
    );
    await submit(EMAIL);
    await expectSignInWith('Clever', 'state-2');
    expect(asked).toEqual([`/api/${apiPaths.accountType(EMAIL)}`]);
    expect(csrfProviders).toEqual(['Clever']);
  });

  it('login: a failed get_account_type keeps the built-in sign-in (COGNITO)', async () => {
    server.use(
      answer('login'),
      http.get(api(apiPaths.accountType(EMAIL)), () => fail(500, 'internalError')),
      csrf,
    );
    await submit(EMAIL);
    await expectSignInWith('COGNITO', 'state-1');
  });

  it('create-account: goes to sign-up without asking get_account_type', async () => {
    let asked = 0;
    server.use(
      answer('create-account'),
      http.get(api(apiPaths.accountType(EMAIL)), () => {
        asked += 1;
        return ok({ exists: false, methods: [] });
      }),
    );
    await submit(EMAIL);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/create-account'));
    expect(asked).toBe(0);
  });

  it.each(['unconfirmed', 'verify'])('%s: goes to send-verification-code', async (status) => {
    server.use(answer(status));
    await submit('ana@school.org');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/send-verification-code'));
  });

  it("reset-password: goes to the provider's forgot-password url, as a POST (its address stays off the history), remembering the address in the tab", async () => {
    server.use(answer('reset-password'), csrf);
    await submit('ana@school.org');
    await waitFor(() => expect(postToUrl).toHaveBeenCalledTimes(1));
    expect(goToUrl).not.toHaveBeenCalled();
    expect(sessionStorage.getItem(STORAGE_KEYS.email)).toBe('ana@school.org');
    const url = new URL(vi.mocked(postToUrl).mock.calls[0]![0]);
    expect(url.pathname).toBe('/oidc/forgotPassword');
    expect(url.searchParams.get('login_hint')).toBe('ana@school.org');
    expect(url.searchParams.get('client_id')).toBe('portal-client');
  });

  it('any other status is logged and nothing happens', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    localStorage.clear();
    sessionStorage.clear();
    server.use(http.post(api(apiPaths.validateEmail), () => ok('banned')));
    await submit('ana@school.org');
    await waitFor(() => expect(warn).toHaveBeenCalled());
    expect(goToUrl).not.toHaveBeenCalled();
    expect(postToUrl).not.toHaveBeenCalled();
    expect(screen.getByTestId('location')).toHaveTextContent('/email');
    // nothing remembered: no email for the pages that need one (§2), no sign-in method under way
    expect({ ...localStorage }).toEqual({});
    expect({ ...sessionStorage }).toEqual({});
    warn.mockRestore();
  });

  it('shows the server message of a rejected check', async () => {
    server.use(http.post(api(apiPaths.validateEmail), () => fail(429, 'tooManyRequests')));
    await submit('ana@school.org');
    expect(await screen.findByText(messages.tooManyRequests)).toBeInTheDocument();
  });

  it('a browser blocking cookies (403 cookiesBlocked) is told so, not that it may not do this', async () => {
    server.use(http.post(api(apiPaths.validateEmail), () => fail(403, 'cookiesBlocked')));
    await submit('ana@school.org');
    expect(await screen.findByText(messages.cookiesBlocked)).toBeInTheDocument();
    expect(screen.queryByText(messages.forbidden)).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/email$/);
  });

  it('says so in the page language, by the code (the server writes English)', async () => {
    server.use(http.post(api(apiPaths.validateEmail), () => fail(403, 'cookiesBlocked')));
    const user = userEvent.setup();
    renderRoute('/email', { shell: false, language: 'de' });
    await user.type(await screen.findByLabelText(emailCatalogs.de.email_label), 'ana@school.org');
    await user.click(screen.getByRole('button', { name: emailCatalogs.de.submit }));
    expect(await screen.findByText(messageCatalogs.de.cookiesBlocked)).toBeInTheDocument();
  });

  it('a network failure (the Wi-Fi dropped a moment) says so on the page, the address kept: pressed again, it goes on', async () => {
    let down = true;
    server.use(
      http.post(api(apiPaths.validateEmail), () => (down ? HttpResponse.error() : ok('create-account'))),
    );
    const user = await submit('ana@school.org');
    expect(await screen.findByText(messages.networkError)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/email$/);
    expect(screen.getByLabelText('Email')).toHaveValue('ana@school.org');
    down = false;
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/create-account'));
  });

  it('a 5xx goes to /error-generic', async () => {
    server.use(http.post(api(apiPaths.validateEmail), () => fail(500, 'internalError')));
    await submit('ana@school.org');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/error-generic'));
  });

  it("has a 'Continue with SSO' link to log-in", async () => {
    renderRoute('/email', { shell: false });
    expect(await screen.findByRole('link', { name: 'Continue with SSO' })).toHaveAttribute('href', '/log-in');
  });
});

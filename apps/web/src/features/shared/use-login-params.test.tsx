import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS, apiPaths, messages } from '@frontdoor/contract';
import { goToUrl, postToUrl } from './browser.ts';
import { api, fail, http, ok, renderRoute, server } from '../../test/render.tsx';

vi.mock('./browser.ts', () => ({ goToUrl: vi.fn(), postToUrl: vi.fn() }));
beforeEach(() => vi.clearAllMocks());

const params = { url: 'https://app.example/after', isTeacher: false, sp_id: 'sp-1' };

/** Answers GET gateway/getCsrfLogin/{csrf} with params and counts the calls per csrf. */
function countParamsCalls(): Map<string, number> {
  const calls = new Map<string, number>();
  server.use(
    http.get(api('gateway/getCsrfLogin/:csrf'), ({ params: { csrf } }) => {
      calls.set(String(csrf), (calls.get(String(csrf)) ?? 0) + 1);
      return ok({ ...params, sp_id: `sp-${String(csrf)}` });
    }),
    http.get(api(apiPaths.getCsrf), () => ok({ csrf: 'state-1', code_challenge: 'pkce' })),
  );
  return calls;
}

const savedCsrf = () => sessionStorage.getItem(STORAGE_KEYS.loginCsrf);

describe("useLoginParams: the URL and the tab's storage are the one store of the login request", () => {
  it('log-in/{csrf} → an identity provider → post-login/{csrf} fetches the login params once', async () => {
    const calls = countParamsCalls();
    const user = userEvent.setup();
    const login = renderRoute('/log-in/lc-1', { shell: false });
    await waitFor(() => expect(savedCsrf()).toBe('lc-1'));
    await user.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    await waitFor(() => expect(goToUrl).toHaveBeenCalledTimes(1));
    // the provider's round trip is a full page load: a new app, the same tab's sessionStorage
    login.unmount();
    renderRoute('/post-login/lc-1', { shell: false });
    await user.click(await screen.findByRole('radio', { name: 'Yes' }));
    server.use(http.get(api('auth/setBasicUserRole/:flag'), () => ok(null)));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(goToUrl).toHaveBeenLastCalledWith(params.url));
    expect(calls.get('lc-1')).toBe(1);
  });

  it('a csrf the store does not hold is fetched and replaces the saved login request', async () => {
    sessionStorage.setItem(STORAGE_KEYS.loginCsrf, 'lc-old');
    sessionStorage.setItem(STORAGE_KEYS.loginParams, JSON.stringify({ ...params, sp_id: 'sp-lc-old' }));
    const calls = countParamsCalls();
    renderRoute('/post-login/lc-new', { shell: false });
    expect(await screen.findByRole('heading', { name: 'Are you a Student?' })).toBeInTheDocument();
    expect(calls.get('lc-new')).toBe(1);
    expect(savedCsrf()).toBe('lc-new');
    expect(JSON.parse(sessionStorage.getItem(STORAGE_KEYS.loginParams) ?? 'null')).toEqual({
      ...params,
      sp_id: 'sp-lc-new',
    });
  });

  it("a link whose request is not found acts for no request, not for the tab's earlier one", async () => {
    // the tab holds a teacher's request; the link names another, unknown or expired
    sessionStorage.setItem(STORAGE_KEYS.loginCsrf, 'lc-teacher');
    sessionStorage.setItem(
      STORAGE_KEYS.loginParams,
      JSON.stringify({ url: 'https://teacher.example/after', isTeacher: true, sp_id: 'sp-teacher' }),
    );
    server.use(http.get(api('gateway/getCsrfLogin/:csrf'), () => fail(404, 'loginRequestNotFound')));
    renderRoute('/post-login/lc-expired', { shell: false });
    expect(await screen.findByText(messages.loginRequestNotFound)).toBeInTheDocument();
    // the teacher's request would skip the student question and return to the teacher's product
    expect(screen.getByRole('heading', { name: 'Are you a Student?' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Email preferences' })).not.toBeInTheDocument();
  });

  it('back to a login request after another: storage follows the URL, never a stale answer', async () => {
    const calls = countParamsCalls();
    const { router } = renderRoute('/log-in/lc-a', { shell: false });
    await waitFor(() => expect(savedCsrf()).toBe('lc-a'));
    await act(() => router.navigate('/log-in/lc-b'));
    await waitFor(() => expect(savedCsrf()).toBe('lc-b'));
    await act(() => router.navigate(-1));
    await waitFor(() => expect(savedCsrf()).toBe('lc-a'));
    expect(JSON.parse(sessionStorage.getItem(STORAGE_KEYS.loginParams) ?? 'null')).toMatchObject({
      sp_id: 'sp-lc-a',
    });
    expect(Object.fromEntries(calls)).toEqual({ 'lc-a': 2, 'lc-b': 1 });
  });
});

/** A slow API: GET gateway/getCsrfLogin/{csrf} is answered only when the test says so. */
function slowParams() {
  let answer: (response: Response) => void = () => undefined;
  const answered = new Promise<Response>((resolve) => (answer = resolve));
  server.use(http.get(api('gateway/getCsrfLogin/:csrf'), () => answered));
  return { answer: (response: Response = ok(params)) => answer(response) };
}

const EMAIL = 'ana@school.org';
const busy = (name: string) => screen.getByRole('button', { name }).getAttribute('aria-busy') === 'true';
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

/** /log-in/lc-1 while its params are on their way → 'Continue with Email' → an email with a password. */
async function emailBeforeTheParams() {
  const asked: URLSearchParams[] = [];
  let accountAsked = false;
  server.use(
    http.post(api(apiPaths.validateEmail), () => ok('login')),
    http.get(api(apiPaths.accountType(EMAIL)), () => {
      accountAsked = true;
      return ok({ exists: true, methods: ['password'] });
    }),
    http.get(api(apiPaths.getCsrf), ({ request }) => {
      asked.push(new URL(request.url).searchParams);
      return ok({ csrf: 'state-1', code_challenge: 'pkce' });
    }),
  );
  const user = userEvent.setup();
  renderRoute('/log-in/lc-1', { shell: false });
  await user.click(await screen.findByRole('link', { name: 'Continue with Email' }));
  await user.type(await screen.findByLabelText('Email'), EMAIL);
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await waitFor(() => expect(accountAsked).toBe(true));
  await settle();
  return asked;
}

describe('a person faster than the login params (issue: the product lost on a slow API)', () => {
  it('a sign-in started before they arrive waits for them: social/get_csrf carries the csrf and the return url', async () => {
    const slow = slowParams();
    const asked = await emailBeforeTheParams();
    // busy, and nothing sent without the params
    expect(busy('Continue')).toBe(true);
    expect(asked).toEqual([]);
    // the way back to the login page is the product's too
    expect(screen.getByRole('link', { name: 'Continue with SSO' })).toHaveAttribute('href', '/log-in/lc-1');
    slow.answer();
    // the email sign-in leaves as a form POST
    await waitFor(() => expect(postToUrl).toHaveBeenCalledTimes(1));
    expect(asked).toHaveLength(1);
    expect(asked[0]?.get('c')).toBe('lc-1');
    expect(asked[0]?.get('r')).toBe(params.url);
  });

  it('when they fail, the sign-in that waited for them fails as any call: a 5xx → /error-generic', async () => {
    const slow = slowParams();
    const asked = await emailBeforeTheParams();
    slow.answer(fail(500, 'internalError'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/error-generic$/));
    expect(asked).toEqual([]);
    expect(postToUrl).not.toHaveBeenCalled();
  });

  it('/access-code opened before they arrive holds a code sent meanwhile, never sends it with older ones, then signs in with them', async () => {
    // an older sign-in request of another product, still in storage
    sessionStorage.setItem(STORAGE_KEYS.loginCsrf, 'lc-old');
    sessionStorage.setItem(STORAGE_KEYS.loginParams, JSON.stringify({ ...params, sp_id: 'sp-old' }));
    const slow = slowParams();
    server.use(
      http.get(api(apiPaths.accessCodeLogin('318264', 'sp-1')), () =>
        ok({ cookie_hash: 'h', sp_id: 'sp-1' }),
      ),
    );
    const user = userEvent.setup();
    renderRoute('/log-in/lc-1', { shell: false });
    await user.click(await screen.findByRole('link', { name: 'Sign in with a class code' }));
    await user.type(await screen.findByLabelText('Access code'), '318264');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(busy('Continue')).toBe(true);
    slow.answer(ok({ ...params, sp_id: 'sp-1' }));
    await waitFor(() => expect(goToUrl).toHaveBeenCalledTimes(1));
    const url = new URL(vi.mocked(goToUrl).mock.calls[0]![0]);
    expect(url.searchParams.get('token')).toBe('lc-1');
    expect(url.searchParams.get('return_url')).toBe(params.url);
  });
});

import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS, apiPaths } from '@frontdoor/contract';
import { goToUrl } from './browser.ts';
import { api, http, ok, renderRoute, server } from '../../test/render.tsx';

vi.mock('./browser.ts', () => ({ goToUrl: vi.fn() }));
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

const savedCsrf = () => localStorage.getItem(STORAGE_KEYS.loginCsrf);

describe('useLoginParams: the URL and localStorage are the one store of the login request', () => {
  it('log-in/{csrf} → an identity provider → post-login/{csrf} fetches the login params once', async () => {
    const calls = countParamsCalls();
    const user = userEvent.setup();
    const login = renderRoute('/log-in/lc-1', { shell: false });
    await waitFor(() => expect(savedCsrf()).toBe('lc-1'));
    await user.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    await waitFor(() => expect(goToUrl).toHaveBeenCalledTimes(1));
    // the provider's round trip is a full page load: a new app, the same localStorage
    login.unmount();
    renderRoute('/post-login/lc-1', { shell: false });
    await user.click(await screen.findByRole('radio', { name: 'Yes' }));
    server.use(http.get(api('auth/setBasicUserRole/:flag'), () => ok(null)));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(goToUrl).toHaveBeenLastCalledWith(params.url));
    expect(calls.get('lc-1')).toBe(1);
  });

  it('a csrf the store does not hold is fetched and replaces the saved login request', async () => {
    localStorage.setItem(STORAGE_KEYS.loginCsrf, 'lc-old');
    localStorage.setItem(STORAGE_KEYS.loginParams, JSON.stringify({ ...params, sp_id: 'sp-lc-old' }));
    const calls = countParamsCalls();
    renderRoute('/post-login/lc-new', { shell: false });
    expect(await screen.findByRole('heading', { name: 'Are you a Student?' })).toBeInTheDocument();
    expect(calls.get('lc-new')).toBe(1);
    expect(savedCsrf()).toBe('lc-new');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.loginParams) ?? 'null')).toEqual({
      ...params,
      sp_id: 'sp-lc-new',
    });
  });

  it('back to a login request after another: storage follows the URL, never a stale answer', async () => {
    const calls = countParamsCalls();
    const { router } = renderRoute('/log-in/lc-a', { shell: false });
    await waitFor(() => expect(savedCsrf()).toBe('lc-a'));
    await act(() => router.navigate('/log-in/lc-b'));
    await waitFor(() => expect(savedCsrf()).toBe('lc-b'));
    await act(() => router.navigate(-1));
    await waitFor(() => expect(savedCsrf()).toBe('lc-a'));
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.loginParams) ?? 'null')).toMatchObject({
      sp_id: 'sp-lc-a',
    });
    expect(Object.fromEntries(calls)).toEqual({ 'lc-a': 2, 'lc-b': 1 });
  });
});

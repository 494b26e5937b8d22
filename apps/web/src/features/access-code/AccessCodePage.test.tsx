import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS, apiPaths, messages } from '@frontdoor/contract';
import { goToUrl } from '../shared/browser.ts';
import { HttpResponse, api, fail, http, ok, renderRoute, server } from '../../test/render.tsx';
import { blockStorage, fillStorage } from '../../test/blocked-storage.ts';

vi.mock('../shared/browser.ts', () => ({ goToUrl: vi.fn() }));

const loginParams = { url: 'https://app.example/class', isTeacher: false, sp_id: 'sp-7' };
beforeEach(() => {
  vi.clearAllMocks();
  sessionStorage.setItem(STORAGE_KEYS.loginCsrf, 'lc-7');
  sessionStorage.setItem(STORAGE_KEYS.loginParams, JSON.stringify(loginParams));
});

async function enter(code: string, language: 'en' | 'fr' = 'en') {
  const user = userEvent.setup();
  renderRoute('/access-code', { shell: false, language });
  const input = await screen.findByLabelText(language === 'en' ? 'Access code' : 'Code d’accès');
  await user.type(input, code);
  await user.click(screen.getByRole('button', { name: language === 'en' ? 'Continue' : 'Continuer' }));
  return input;
}

describe('AccessCodePage (/access-code, /access-code/{csrf})', () => {
  it("shows 'Access Code must be exactly 6 digits!' when fewer than 6 characters", async () => {
    await enter('1234');
    expect((await screen.findAllByText(messages.accessCodeLength)).length).toBeGreaterThan(0);
    expect(screen.getByRole('alert')).toHaveFocus();
  });

  it('the input is limited to 6 characters', async () => {
    const user = userEvent.setup();
    renderRoute('/access-code', { shell: false });
    const input = await screen.findByLabelText('Access code');
    await user.type(input, '12345678');
    expect(input).toHaveValue('123456');
    expect(input).toHaveAttribute('autocomplete', 'one-time-code');
  });

  it('a six-digit code: a phone shows its number pad, and a letter typed by mistake (O for 0) is never sent as a guess', async () => {
    let asked = 0;
    server.use(
      http.get(api(apiPaths.accessCodeLogin(':code', ':sp_id')), () => {
        asked++;
        return fail(404, 'accessCodeNotFound');
      }),
    );
    const input = await enter('12345O');
    expect(input).toHaveAttribute('inputmode', 'numeric');
    expect(input).toHaveValue('12345');
    expect((await screen.findAllByText(messages.accessCodeLength)).length).toBeGreaterThan(0);
    expect(asked).toBe(0);
  });

  it('GET accessCodes/login/{code}/{sp_id} with the sp_id of the login params; success clears the saved login data and goes to auth/cookie with hash, return_url and token', async () => {
    server.use(
      http.get(api(apiPaths.accessCodeLogin('472913', 'sp-7')), () =>
        ok({ cookie_hash: 'hash-1', sp_id: 'sp-7' }),
      ),
    );
    await enter('472913');
    await waitFor(() => expect(goToUrl).toHaveBeenCalledTimes(1));
    const url = new URL(vi.mocked(goToUrl).mock.calls[0]![0]);
    expect(url.origin + url.pathname).toBe('http://localhost/api/auth/cookie');
    expect(url.searchParams.get('hash')).toBe('hash-1');
    expect(url.searchParams.get('return_url')).toBe(loginParams.url);
    expect(url.searchParams.get('token')).toBe('lc-7');
    expect(sessionStorage.getItem(STORAGE_KEYS.loginCsrf)).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEYS.loginParams)).toBeNull();
  });

  it("a server message beginning 'The code you entered is not for' is shown as is", async () => {
    const msg = 'The code you entered is not for Reading Lab';
    server.use(
      http.get(api(apiPaths.accessCodeLogin('472913', 'sp-7')), () =>
        fail(400, 'accessCodeWrongProviderPrefix', msg, { sp_name: 'Reading Lab' }),
      ),
    );
    await enter('472913');
    expect(await screen.findByText(msg)).toBeInTheDocument();
    expect(sessionStorage.getItem(STORAGE_KEYS.loginCsrf)).toBe('lc-7');
  });

  it('in another language the refusal naming the provider is in that language, the name as the server wrote it', async () => {
    server.use(
      http.get(api(apiPaths.accessCodeLogin('472913', 'sp-7')), () =>
        fail(400, 'accessCodeWrongProviderPrefix', 'The code you entered is not for Reading Lab', {
          sp_name: 'Reading Lab',
        }),
      ),
    );
    await enter('472913', 'fr');
    expect(await screen.findByText('Le code saisi n’est pas destiné à Reading Lab')).toBeInTheDocument();
  });

  it("other failure shows 'The code you entered did not work. Try again or contact your teacher.'", async () => {
    server.use(
      http.get(api(apiPaths.accessCodeLogin('472913', 'sp-7')), () =>
        fail(404, 'accessCodeNotFound', 'nope'),
      ),
    );
    const input = await enter('472913');
    expect(await screen.findByText(messages.accessCodeFailed)).toBeInTheDocument();
    // the refusal is tied to the field (issue 12)
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(messages.accessCodeFailed);
  });

  it.each([
    [429, 'accessCodesPaused'],
    [429, 'addressFailureLimit'],
    [429, 'tooManyRequests'],
    [503, 'serverBusy'],
    // a browser that keeps no cookies could redeem no code: said before any is looked at
    [403, 'cookiesBlocked'],
  ] as const)(
    'a %i %s refusal shows its own message, not the wrong-code one; the code stays valid and can be sent again',
    async (status, code) => {
      server.use(http.get(api(apiPaths.accessCodeLogin('472913', 'sp-7')), () => fail(status, code)));
      const input = await enter('472913');
      expect(await screen.findByText(messages[code])).toBeInTheDocument();
      expect(screen.queryByText(messages.accessCodeFailed)).toBeNull();
      expect(input).not.toHaveAttribute('aria-invalid');
      expect(screen.getByRole('button', { name: 'Continue' })).not.toHaveAttribute('aria-disabled');
    },
  );

  it('no answer at all (the Wi-Fi dropped a moment) says so on the page, the code kept and not called wrong', async () => {
    server.use(http.get(api(apiPaths.accessCodeLogin('472913', 'sp-7')), () => HttpResponse.error()));
    const input = await enter('472913');
    expect(await screen.findByText(messages.networkError)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/access-code$/);
    expect(input).toHaveValue('472913');
    expect(input).not.toHaveAttribute('aria-invalid');
  });

  it('a 5xx goes to /error-generic, as on every page', async () => {
    server.use(http.get(api(apiPaths.accessCodeLogin('472913', 'sp-7')), () => fail(500, 'internalError')));
    await enter('472913');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/error-generic\/lc-7$/));
  });

  it("a timeout of the {csrf}'s login params goes to /error-timeout with the route's csrf, not the one held before", async () => {
    server.use(http.get(api(apiPaths.getCsrfLogin('new-2')), () => new Promise<Response>(() => undefined)));
    renderRoute('/access-code/new-2', { shell: false, config: { requestTimeoutMs: 50 } });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/error-timeout\/new-2$/));
  });

  it('without the sign-in request token it stays and says the link has expired (auth/cookie needs it)', async () => {
    sessionStorage.removeItem(STORAGE_KEYS.loginCsrf);
    server.use(
      http.get(api(apiPaths.accessCodeLogin('472913', 'sp-7')), () =>
        ok({ cookie_hash: 'h', sp_id: 'sp-7' }),
      ),
    );
    const input = await enter('472913');
    expect(await screen.findByText(messages.loginRequestNotFound)).toBeInTheDocument();
    expect(goToUrl).not.toHaveBeenCalled();
    // the code was accepted: the lost sign-in request is not the field's fault
    expect(input).not.toHaveAttribute('aria-invalid');
  });

  it('with a {csrf}: loads and saves the login params first', async () => {
    localStorage.clear();
    server.use(
      http.get(api(apiPaths.getCsrfLogin('new-1')), () => ok(loginParams)),
      http.get(api(apiPaths.accessCodeLogin('318264', 'sp-7')), () =>
        ok({ cookie_hash: 'h', sp_id: 'sp-7' }),
      ),
    );
    const user = userEvent.setup();
    renderRoute('/access-code/new-1', { shell: false });
    await waitFor(() => expect(sessionStorage.getItem(STORAGE_KEYS.loginCsrf)).toBe('new-1'));
    await user.type(screen.getByLabelText('Access code'), '318264');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(goToUrl).toHaveBeenCalled());
    expect(new URL(vi.mocked(goToUrl).mock.calls[0]![0]).searchParams.get('token')).toBe('new-1');
  });

  it.each([
    ['blocked', blockStorage],
    ['full', fillStorage],
  ])(
    "with storage %s a right code on /access-code/{csrf} signs in with the address's csrf as the token",
    async (_, breakStorage) => {
      sessionStorage.clear();
      breakStorage();
      server.use(
        http.get(api(apiPaths.getCsrfLogin('new-1')), () => ok(loginParams)),
        http.get(api(apiPaths.accessCodeLogin('318264', 'sp-7')), () =>
          ok({ cookie_hash: 'h', sp_id: 'sp-7' }),
        ),
      );
      const user = userEvent.setup();
      renderRoute('/access-code/new-1', { shell: false });
      await user.type(await screen.findByLabelText('Access code'), '318264');
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      await waitFor(() => expect(goToUrl).toHaveBeenCalledTimes(1));
      const url = new URL(vi.mocked(goToUrl).mock.calls[0]![0]);
      expect(url.searchParams.get('token')).toBe('new-1');
      expect(url.searchParams.get('return_url')).toBe(loginParams.url);
      expect(screen.queryByText(messages.loginRequestNotFound)).not.toBeInTheDocument();
    },
  );

  it('a code sent while the {csrf} sign-in request is still on its way is sent once it is in, not dropped (a slow Chromebook)', async () => {
    localStorage.clear();
    sessionStorage.clear();
    let answerParams = () => {};
    const paramsIn = new Promise<void>((resolve) => (answerParams = resolve));
    let guesses = 0;
    server.use(
      http.get(api(apiPaths.getCsrfLogin('slow-1')), async () => {
        await paramsIn;
        return ok(loginParams);
      }),
      http.get(api(apiPaths.accessCodeLogin('318264', 'sp-7')), () => {
        guesses += 1;
        return ok({ cookie_hash: 'h', sp_id: 'sp-7' });
      }),
    );
    const user = userEvent.setup();
    renderRoute('/access-code/slow-1', { shell: false });
    await user.type(await screen.findByLabelText('Access code'), '318264');
    await user.keyboard('{Enter}');
    const button = screen.getByRole('button', { name: 'Continue' });
    expect(button).toHaveAttribute('aria-busy', 'true');
    await user.keyboard('{Enter}');
    expect(guesses).toBe(0);
    answerParams();
    await waitFor(() => expect(goToUrl).toHaveBeenCalledTimes(1));
    expect(guesses).toBe(1);
  });

  it('without login params it asks for the teacher link and sends nothing', async () => {
    sessionStorage.clear();
    await enter('318264');
    const instruction = screen.getByText(
      'Open the sign-in link your teacher gave you, then enter the code here.',
    );
    // an instruction, not an error: read with the page, never interrupting (issue 12)
    expect(instruction.closest('[role="alert"], [role="status"]')).toBeNull();
    expect(goToUrl).not.toHaveBeenCalled();
    // the press is seen to do something: the instruction takes the focus, again at the next press
    expect(instruction.closest('[tabindex="-1"]')).toHaveFocus();
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Access code'));
    await user.keyboard('{Enter}');
    expect(instruction.closest('[tabindex="-1"]')).toHaveFocus();
  });
});

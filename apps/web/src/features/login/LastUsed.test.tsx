import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { TranslatorProvider } from '../../lib/i18n/use-translation.tsx';
import {
  LOGIN_BUTTON_PROVIDERS,
  PROVIDER_DISPLAY_NAMES,
  SIGN_IN_METHODS,
  STORAGE_KEYS,
  apiPaths,
  type SignInMethod,
} from '@frontdoor/contract';
import { goToUrl } from '../shared/browser.ts';
import { testI18n } from '../../test/i18n.ts';
import { api, http, ok, renderRoute, server } from '../../test/render.tsx';
import { useLastUsed } from './LastUsed.tsx';
import { ar, en } from './locales.ts';

vi.mock('../shared/browser.ts', () => ({ goToUrl: vi.fn() }));
beforeEach(() => vi.clearAllMocks());

const LABELS: Record<SignInMethod, { role: 'button' | 'link'; name: string }> = {
  ...(Object.fromEntries(
    LOGIN_BUTTON_PROVIDERS.map((p) => [
      p,
      { role: 'button', name: `Continue with ${PROVIDER_DISPLAY_NAMES[p]}` },
    ]),
  ) as Record<(typeof LOGIN_BUTTON_PROVIDERS)[number], { role: 'button'; name: string }>),
  email: { role: 'link', name: 'Continue with Email' },
  classCode: { role: 'link', name: 'Sign in with a class code' },
};
const control = (method: SignInMethod) =>
  screen.getByRole(LABELS[method].role, { name: LABELS[method].name });
const described = () => [
  ...screen.queryAllByRole('button').filter((b) => b.hasAttribute('aria-describedby')),
  ...screen.queryAllByRole('link').filter((a) => a.hasAttribute('aria-describedby')),
];
const lastUsed = () => localStorage.getItem(STORAGE_KEYS.lastSignInMethod);
const pending = () => sessionStorage.getItem(STORAGE_KEYS.pendingSignInMethod);

async function openLogin(language?: string) {
  renderRoute('/log-in', { shell: false, ...(language ? { language } : {}) });
  await screen.findByRole('list', { name: language === 'ar' ? ar.providers_label : en.providers_label });
}

describe("the login page's 'Last used' marker", () => {
  it('nothing stored: no marker and no described button or link', async () => {
    await openLogin();
    expect(screen.queryByText(en.last_used)).toBeNull();
    expect(described()).toEqual([]);
  });

  it('a stored value that is not a method shows no marker', async () => {
    localStorage.setItem(STORAGE_KEYS.lastSignInMethod, 'ana@school.org');
    await openLogin();
    expect(screen.queryByText(en.last_used)).toBeNull();
  });

  it.each(SIGN_IN_METHODS)(
    "%s stored: only its control is described as 'Last used', its name unchanged",
    async (method) => {
      localStorage.setItem(STORAGE_KEYS.lastSignInMethod, method);
      await openLogin();
      const marked = control(method);
      expect(marked).toHaveAccessibleName(LABELS[method].name);
      expect(marked).toHaveAccessibleDescription(en.last_used);
      expect(within(marked).getByText(en.last_used)).toBeVisible();
      expect(described()).toEqual([marked]);
    },
  );

  it('is translated (Arabic)', async () => {
    localStorage.setItem(STORAGE_KEYS.lastSignInMethod, 'Clever');
    await openLogin('ar');
    const clever = screen.getByRole('button', { name: /Clever/ });
    expect(clever).toHaveAccessibleDescription(ar.last_used);
  });

  it("follows another tab's sign-in (storage event)", async () => {
    await openLogin();
    act(() => {
      localStorage.setItem(STORAGE_KEYS.lastSignInMethod, 'Google');
      window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.lastSignInMethod }));
    });
    expect(control('Google')).toHaveAccessibleDescription(en.last_used);
  });

  it('a prerendered page has no marker; it appears after hydration without a mismatch', async () => {
    localStorage.setItem(STORAGE_KEYS.lastSignInMethod, 'Google');
    const i18n = testI18n('en');
    function GoogleButton() {
      const mark = useLastUsed();
      return (
        <button type="button" {...mark.props('Google')}>
          Continue with Google
          {mark.badge('Google')}
        </button>
      );
    }
    const ui = (
      <TranslatorProvider value={i18n}>
        <GoogleButton />
      </TranslatorProvider>
    );
    const html = renderToString(ui);
    expect(html).not.toContain(en.last_used);
    expect(html).not.toContain('aria-describedby');

    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const onRecoverableError = vi.fn();
    const root = await act(async () => hydrateRoot(container, ui, { onRecoverableError }));
    expect(within(container).getByRole('button')).toHaveAccessibleDescription(en.last_used);
    expect(onRecoverableError).not.toHaveBeenCalled();
    act(() => root.unmount());
    container.remove();
  });
});

describe("what 'Last used' remembers: the method of a sign-in that succeeded, never who", () => {
  const csrf = () =>
    server.use(http.get(api(apiPaths.getCsrf), () => ok({ csrf: 's', code_challenge: 'c' })));

  it('a provider button starts its method in this tab only; the device keeps the last successful one', async () => {
    localStorage.setItem(STORAGE_KEYS.lastSignInMethod, 'email');
    csrf();
    const user = userEvent.setup();
    await openLogin();
    await user.click(control('Google'));
    await waitFor(() => expect(goToUrl).toHaveBeenCalled());
    expect(pending()).toBe('Google');
    expect(lastUsed()).toBe('email');
  });

  it("the work/school modal's personal-account answer counts as the Microsoft button", async () => {
    server.use(http.post(api(apiPaths.microsoftUserRealm), () => ok({ accountType: 'Federated' })));
    csrf();
    const user = userEvent.setup();
    await openLogin();
    await user.click(control('Microsoft'));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(en.work_email_label), 't@school.org');
    await user.click(within(dialog).getByRole('button', { name: en.work_email_submit }));
    await waitFor(() => expect(goToUrl).toHaveBeenCalled());
    expect(pending()).toBe('Microsoft');
  });

  it('the email page starts email, also for an account that then signs in at its linked provider', async () => {
    server.use(
      http.post(api(apiPaths.validateEmail), () => ok('login')),
      http.get(api(apiPaths.accountType('ana@school.org')), () => ok({ exists: true, methods: ['Google'] })),
    );
    csrf();
    const user = userEvent.setup();
    renderRoute('/email', { shell: false });
    await user.type(await screen.findByLabelText('Email'), 'ana@school.org');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(goToUrl).toHaveBeenCalled());
    expect(pending()).toBe('email');
  });

  it("/post-login (reached only signed in) makes the tab's method the device's", async () => {
    sessionStorage.setItem(STORAGE_KEYS.pendingSignInMethod, 'ClassLink');
    localStorage.setItem(STORAGE_KEYS.lastSignInMethod, 'Google');
    renderRoute('/post-login', { shell: false });
    await waitFor(() => expect(lastUsed()).toBe('ClassLink'));
    expect(pending()).toBeNull();
  });

  it('/post-login without a sign-in started in this tab (e.g. Clever Instant Login) keeps the last one', async () => {
    localStorage.setItem(STORAGE_KEYS.lastSignInMethod, 'Google');
    renderRoute('/post-login', { shell: false });
    await screen.findByRole('radiogroup');
    expect(lastUsed()).toBe('Google');
  });

  it('an accepted class code is remembered as classCode; nothing else about the person is stored', async () => {
    sessionStorage.setItem(STORAGE_KEYS.loginCsrf, 'lc-1');
    sessionStorage.setItem(
      STORAGE_KEYS.loginParams,
      JSON.stringify({ url: 'https://app.example/', isTeacher: false, sp_id: 'sp-1' }),
    );
    sessionStorage.setItem(STORAGE_KEYS.pendingSignInMethod, 'Google');
    server.use(
      http.get(api(apiPaths.accessCodeLogin('472913', 'sp-1')), () =>
        ok({ cookie_hash: 'h', sp_id: 'sp-1' }),
      ),
    );
    const user = userEvent.setup();
    renderRoute('/access-code', { shell: false });
    await user.type(await screen.findByLabelText('Access code'), '472913');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(goToUrl).toHaveBeenCalled());
    expect(lastUsed()).toBe('classCode');
    expect(pending()).toBeNull();
    expect(Object.keys(localStorage)).toEqual([STORAGE_KEYS.lastSignInMethod]);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { CONFIG_ELEMENT_ID, CONFIG_PATH, SESSION_CACHE_MS, apiPaths } from '@frontdoor/contract';
import { HttpResponse, api, http, server } from './test/server.ts';
import { testConfig } from './test/config.ts';
import { boot } from './boot.tsx';
import { reloadPage } from './lib/reload.ts';
import { handingOn } from './lib/back-forward-cache.ts';
import type { SentryImporter } from './lib/telemetry.ts';
import { AppProviders } from './App.tsx';
import { testI18n } from './test/i18n.ts';
import { createQueryClient } from './lib/query.ts';
import { builtInTranslationService } from './lib/i18n/service.ts';

vi.mock('./lib/reload.ts', () => ({ reloadPage: vi.fn() }));

const configUrl = new URL(CONFIG_PATH, window.location.origin).href;
const signedInAs = {
  loggedin: true,
  payload: {
    token: 't',
    signature: { user: { id: 'u1', email: 'ana@school.org', first: 'Ana', last: 'Lima', roles: {} } },
  },
};
let root: Root | undefined;

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
  vi.clearAllMocks();
});

function mount(): HTMLElement {
  const container = document.createElement('div');
  document.body.append(container);
  return container;
}

async function started(booting: ReturnType<typeof boot>) {
  const result = await booting;
  root = result.root;
  return result.outcome;
}

describe('boot (issue 2 §2, §8)', () => {
  it('a missing config.json renders a clear full-page message, never a blank page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(http.get(configUrl, () => new HttpResponse(null, { status: 404 })));
    const result = await act(() => started(boot(mount())));
    expect(result).toBe('config-error');
    expect(screen.getByRole('heading', { name: 'This page cannot load right now' })).toBeInTheDocument();
    expect(screen.getByText('The configuration file could not be loaded.')).toBeInTheDocument();
    // English inside a page answered in another language, under its own title
    expect(screen.getByRole('main')).toHaveAttribute('lang', 'en');
    expect(screen.getByRole('main')).toHaveAttribute('dir', 'ltr');
    expect(document.title).toBe('This page cannot load right now');
    vi.mocked(console.error).mockRestore();
  });

  it('a malformed config.json renders the message too', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(http.get(configUrl, () => HttpResponse.json({ env: 'x' })));
    await act(() => started(boot(mount())));
    expect(screen.getByText('The configuration file is malformed.')).toBeInTheDocument();
    vi.mocked(console.error).mockRestore();
  });

  it('a valid config renders the shell; without a DSN error reporting is never loaded', async () => {
    server.use(
      http.get(configUrl, () => HttpResponse.json(testConfig)),
      http.get(api(apiPaths.sig), () => HttpResponse.json({ loggedin: false, payload: null })),
    );
    const loadSentry = vi.fn<SentryImporter>();
    await act(() => started(boot(mount(), { loadSentry })));
    expect(await screen.findByRole('link', { name: 'Frontdoor home' })).toBeInTheDocument();
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(loadSentry).not.toHaveBeenCalled();
  });

  /** Boots showing Ana signed in, whose session then ends at the server; counts the calls of auth/sig. */
  async function bootSignedInThenSignedOutElsewhere() {
    let signedIn = true;
    let calls = 0;
    server.use(
      http.get(configUrl, () => HttpResponse.json(testConfig)),
      http.get(api(apiPaths.sig), () => {
        calls += 1;
        return HttpResponse.json(signedIn ? signedInAs : { loggedin: false, payload: null });
      }),
    );
    await act(() => started(boot(mount())));
    expect(await screen.findByText(/Signed in as Ana Lima/)).toBeInTheDocument();
    signedIn = false;
    return { calls: () => calls };
  }

  it('a page from the back/forward cache asks again who is signed in: Back on a shared device names no one signed out since', async () => {
    const { calls } = await bootSignedInThenSignedOutElsewhere();
    // shown again as it was left (not from the cache): the 30-minute session cache holds
    act(() => void window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: false })));
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(calls()).toBe(1);
    act(() => void window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true })));
    await waitFor(() => expect(screen.queryByText(/Signed in as/)).not.toBeInTheDocument());
    expect(calls()).toBe(2);
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('a tab come back to after the 30-minute session cache asks again who is signed in; sooner it does not', async () => {
    const { calls } = await bootSignedInThenSignedOutElsewhere();
    const back = () => act(() => void document.dispatchEvent(new Event('visibilitychange')));
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now');
    try {
      clock.mockReturnValue(now + SESSION_CACHE_MS - 1000);
      back();
      await act(() => new Promise((r) => setTimeout(r, 50)));
      expect(calls()).toBe(1);
      expect(screen.getByText(/Signed in as Ana Lima/)).toBeInTheDocument();
      // the lid closed over lunch: the session idled out at the server meanwhile
      clock.mockReturnValue(now + SESSION_CACHE_MS + 1000);
      back();
      await waitFor(() => expect(screen.queryByText(/Signed in as/)).not.toBeInTheDocument());
      expect(calls()).toBe(2);
    } finally {
      clock.mockRestore();
    }
  });

  it('only the session is asked again from the back/forward cache: a verification link confirmed is not sent twice', async () => {
    let confirms = 0;
    server.use(
      http.get(configUrl, () => HttpResponse.json(testConfig)),
      http.get(api(apiPaths.sig), () => HttpResponse.json({ loggedin: false, payload: null })),
      http.post(api(apiPaths.confirm), () => {
        confirms += 1;
        return HttpResponse.json({
          status: 'success',
          payload: { email: 'a@b.org', newPasswordNeeded: false },
        });
      }),
    );
    window.history.replaceState(null, '', '/validate?em=a%40b.org&vc=12345678');
    try {
      await act(() => started(boot(mount())));
      fireEvent.click(await within(screen.getByRole('main')).findByRole('button', { name: 'Verify' }));
      expect(
        await within(screen.getByRole('main')).findByText('Your account has been verified, thank you!'),
      ).toBeInTheDocument();
      act(() => void window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true })));
      await act(() => new Promise((r) => setTimeout(r, 50)));
      expect(confirms).toBe(1);
      expect(
        within(screen.getByRole('main')).getByText('Your account has been verified, thank you!'),
      ).toBeInTheDocument();
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });
  it('with a DSN error reporting is loaded after the first paint', async () => {
    server.use(
      http.get(configUrl, () =>
        HttpResponse.json({ ...testConfig, sentryDsn: 'https://k@errors.example/1' }),
      ),
    );
    const init = vi.fn();
    const loadSentry = vi.fn<SentryImporter>(
      async () =>
        ({
          init,
          browserTracingIntegration: () => ({}),
          replayIntegration: () => ({}),
        }) as unknown as Awaited<ReturnType<SentryImporter>>,
    );
    // hold the frames back, so "not before the first paint" does not depend on the machine's speed
    const frames: FrameRequestCallback[] = [];
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((frame) => frames.push(frame));
    await act(() => started(boot(mount(), { loadSentry })));
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(loadSentry).not.toHaveBeenCalled();
    act(() => frames.splice(0).forEach((frame) => frame(performance.now())));
    await waitFor(() => expect(init).toHaveBeenCalledOnce());
    vi.mocked(window.requestAnimationFrame).mockRestore();
  });

  it('goes on in a task of its own: the task that evaluated the script ends before the config is read', async () => {
    server.use(
      http.get(configUrl, () => HttpResponse.json(testConfig)),
      http.get(api(apiPaths.sig), () => HttpResponse.json({ loggedin: false, payload: null })),
    );
    const lookups = vi.spyOn(document, 'getElementById');
    const booting = boot(mount());
    await Promise.resolve();
    expect(lookups).not.toHaveBeenCalledWith(CONFIG_ELEMENT_ID);
    await act(() => started(booting));
    expect(lookups).toHaveBeenCalledWith(CONFIG_ELEMENT_ID);
    lookups.mockRestore();
  });

  // last: the window stays handed on for the rest of the file
  it('a page the sign-in handed on is loaded anew from the back/forward cache: nothing typed, no button still busy', async () => {
    server.use(
      http.get(configUrl, () => HttpResponse.json(testConfig)),
      http.get(api(apiPaths.sig), () => HttpResponse.json({ loggedin: false, payload: null })),
    );
    await act(() => started(boot(mount())));
    handingOn();
    act(() => void window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true })));
    expect(reloadPage).toHaveBeenCalled();
  });
});

describe('the error boundary around the providers', () => {
  it('shows the friendly page when a provider fails outside the router', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    function Broken(): never {
      throw new Error('boom');
    }
    const i18n = testI18n('en');
    render(
      <AppProviders
        cfg={testConfig}
        i18n={i18n}
        translation={builtInTranslationService(i18n)}
        queryClient={createQueryClient()}
      >
        <Broken />
      </AppProviders>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the sign-in page' })).toHaveAttribute('href', '/log-in');
    vi.mocked(console.error).mockRestore();
  });
});

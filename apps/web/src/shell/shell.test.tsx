import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { lazy, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '../lib/query.ts';
import type { RouteObject } from 'react-router';
import { LANGUAGE_COOKIE, MOBILE_MAX_WIDTH, STORAGE_KEYS } from '@frontdoor/contract';
import { renderRoutes } from '../test/render.tsx';
import { setWindowWidth } from '../test/match-media.ts';
import { applyDocumentLanguage } from '../lib/i18n/index.ts';
import { hostedTranslationService } from '../lib/i18n/hosted.ts';
import type { HostedWidget } from '../lib/i18n/hosted.ts';
import { ShellLayout } from './ShellLayout.tsx';
import { nextTopBarHidden } from './top-bar-visibility.ts';
import { nextPageKey } from './page-key.ts';
import { useStepArrival } from './page-arrival.tsx';
import { PageCard } from '../ui/PageCard.tsx';
import { Alert } from '../ui/Alert.tsx';

let mounts = 0;
let dataLoads = 0;
function CountingPage({ name }: { name: string }) {
  const counted = useRef(false);
  // page data cached for good, like the login params: only a reload fetches it again
  useQuery({ queryKey: ['page-data', name], queryFn: async () => ++dataLoads, staleTime: Infinity });
  useEffect(() => {
    if (counted.current) return;
    counted.current = true;
    mounts += 1;
  }, []);
  return (
    <div>
      <h1>{name}</h1>
      <Link to="/one">same page</Link>
      <Link to="/two">other page</Link>
      <Link to="/one#details">details anchor</Link>
      <div id="details">Details</div>
    </div>
  );
}

const pages: RouteObject[] = [
  { path: 'one', element: <CountingPage name="Page one" /> },
  { path: 'two', element: <CountingPage name="Page two" /> },
];
const shellRoutes: RouteObject[] = [{ element: <ShellLayout />, children: pages }];

beforeEach(() => {
  mounts = 0;
  setWindowWidth(1440);
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => applyDocumentLanguage('en'));

describe('top bar visibility (§2)', () => {
  it('hides on scroll down away from the top, shows on scroll up and at the top', () => {
    expect(nextTopBarHidden(0, 200, false)).toBe(true);
    expect(nextTopBarHidden(200, 150, true)).toBe(false);
    expect(nextTopBarHidden(200, 0, true)).toBe(false);
    expect(nextTopBarHidden(0, 30, false)).toBe(false);
    expect(nextTopBarHidden(300, 300, true)).toBe(true);
  });

  it('moves the bar up 60 px with a 0.3 s transition while scrolling down', async () => {
    renderRoutes(shellRoutes, { path: '/one' });
    const bar = await screen.findByTestId('top-bar');
    expect(bar.style.transition).toBe('transform 0.3s');
    expect(bar.style.transform).toBe('translateY(0px)');
    await act(async () => {
      Object.defineProperty(window, 'scrollY', { configurable: true, value: 400 });
      window.dispatchEvent(new Event('scroll'));
      await new Promise((r) => requestAnimationFrame(() => r(null)));
    });
    expect(bar.style.transform).toBe('translateY(-60px)');
    await act(async () => {
      Object.defineProperty(window, 'scrollY', { configurable: true, value: 100 });
      window.dispatchEvent(new Event('scroll'));
      await new Promise((r) => requestAnimationFrame(() => r(null)));
    });
    expect(bar.style.transform).toBe('translateY(0px)');
    Object.defineProperty(window, 'scrollY', { configurable: true, value: 0 });
  });
});

describe('shell', () => {
  it('has a logo link to the site root, a language menu, the routed page and footer links', async () => {
    renderRoutes(shellRoutes, { path: '/one' });
    expect(await screen.findByRole('heading', { name: 'Page one' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Frontdoor home' })).toHaveAttribute(
      'href',
      'https://site.example/',
    );
    expect(screen.getByRole('button', { name: 'Language: English' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toContainElement(screen.getByRole('heading', { name: 'Page one' }));
    expect(screen.getByRole('link', { name: 'Privacy' })).toHaveAttribute(
      'href',
      'https://site.example/privacy',
    );
  });

  it('desktop menu: opens, marks the current language, switches language and <html lang dir>', async () => {
    const user = userEvent.setup();
    renderRoutes(shellRoutes, { path: '/one' });
    await user.click(await screen.findByRole('button', { name: 'Language: English' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitemradio', { name: 'English' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await user.click(within(menu).getByRole('menuitemradio', { name: 'العربية' }));
    await waitFor(() => expect(document.documentElement.lang).toBe('ar'));
    expect(document.documentElement.dir).toBe('rtl');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'اللغة: \u2068العربية\u2069' }));
    const reopened = await screen.findByRole('menu');
    expect(within(reopened).getByRole('menuitemradio', { name: 'العربية' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    expect(within(reopened).getByRole('menuitemradio', { name: 'English' })).toHaveAttribute(
      'aria-checked',
      'false',
    );
  });

  it('desktop menu trigger opens the menu; Escape closes it and gives the focus back to the trigger', async () => {
    const user = userEvent.setup();
    renderRoutes(shellRoutes, { path: '/one' });
    const trigger = await screen.findByRole('button', { name: 'Language: English' });
    await user.click(trigger);
    expect(await screen.findByRole('menu')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    // the first click downloaded the menu, whose own trigger took the place of the one clicked
    expect(screen.getByRole('button', { name: 'Language: English' })).toHaveFocus();
    expect(trigger).not.toBeInTheDocument();
  });

  it('at 1107 px or less a globe opens a full-screen modal that closes after choosing', async () => {
    setWindowWidth(1107);
    const user = userEvent.setup();
    renderRoutes(shellRoutes, { path: '/one' });
    expect(screen.queryByRole('button', { name: 'Language: English' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Choose a language' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose a language' });
    expect(within(dialog).getByRole('button', { name: /English/ })).toHaveAttribute('aria-current', 'true');
    await user.click(within(dialog).getByRole('button', { name: 'Français' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(document.documentElement.lang).toBe('fr');
    await user.click(screen.getByRole('button', { name: 'Choisir une langue' }));
    const again = await screen.findByRole('dialog');
    expect(within(again).getByRole('button', { name: /Français/ })).toHaveAttribute('aria-current', 'true');
    expect(within(again).getByRole('button', { name: 'English' })).not.toHaveAttribute('aria-current');
  });

  it("until hydrated, the stylesheet shows the trigger the script will choose, at the contract's width", () => {
    const css = readFileSync(path.join(import.meta.dirname, 'Shell.module.css'), 'utf8');
    expect(css).toMatch(
      new RegExp(`@media \\(max-width: ${MOBILE_MAX_WIDTH}px\\) \\{\\s*\\.desktopOnly \\{`),
    );
  });

  it('switches between the two menus when the window is resized across 1107/1108 px', async () => {
    renderRoutes(shellRoutes, { path: '/one' });
    expect(await screen.findByRole('button', { name: 'Language: English' })).toBeInTheDocument();
    act(() => setWindowWidth(1000));
    expect(screen.getByRole('button', { name: 'Choose a language' })).toBeInTheDocument();
    act(() => setWindowWidth(1108));
    expect(screen.getByRole('button', { name: 'Language: English' })).toBeInTheDocument();
  });

  it('hides the language menu on paths the translation service excludes', async () => {
    const widget = {
      initialize: vi.fn(),
      on: vi.fn(),
      switchTo: vi.fn(),
      getCurrentLang: () => 'en',
      options: {
        languages: [{ language_to: 'es' }],
        excluded_paths: [{ value: '/two', type: 'IS_EXACTLY' }],
      },
    } as unknown as HostedWidget;
    const { router } = renderRoutes(shellRoutes, {
      path: '/one',
      translation: () => hostedTranslationService(widget),
    });
    expect(await screen.findByRole('button', { name: 'Language: English' })).toBeInTheDocument();
    await act(() => router.navigate('/two'));
    expect(await screen.findByRole('heading', { name: 'Page two' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Language/ })).not.toBeInTheDocument();
  });

  it('?locale=xx on any page switches the language', async () => {
    const { router } = renderRoutes(shellRoutes, { path: '/one?locale=es' });
    expect(await screen.findByRole('button', { name: 'Idioma: Español' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('es');
    await act(() => router.navigate('/two?locale=zh'));
    await waitFor(() => expect(document.documentElement.lang).toBe('zh'));
    expect(localStorage.getItem(STORAGE_KEYS.language)).toBe('zh');
  });

  it('?locale of the language already shown is kept like a choice in the menu; a regional one is its language', async () => {
    const { router } = renderRoutes(shellRoutes, { path: '/one?locale=es', language: 'es' });
    expect(await screen.findByRole('button', { name: 'Idioma: Español' })).toBeInTheDocument();
    await waitFor(() => expect(localStorage.getItem(STORAGE_KEYS.language)).toBe('es'));
    // the cookie the server answers the next page in
    expect(document.cookie).toContain(`${LANGUAGE_COOKIE}=es`);
    await act(() => router.navigate('/two?locale=pt-BR'));
    await waitFor(() => expect(document.documentElement.lang).toBe('pt'));
    expect(localStorage.getItem(STORAGE_KEYS.language)).toBe('pt');
    await act(() => router.navigate('/one?locale=xx'));
    expect(document.documentElement.lang).toBe('pt');
    expect(localStorage.getItem(STORAGE_KEYS.language)).toBe('pt');
  });

  it('navigating to the URL you are on remounts the page and reloads its data; another page scrolls to the top', async () => {
    const user = userEvent.setup();
    dataLoads = 0;
    renderRoutes(shellRoutes, { path: '/one' });
    await screen.findByRole('heading', { name: 'Page one' });
    expect(mounts).toBe(1);
    await waitFor(() => expect(dataLoads).toBe(1));
    vi.mocked(window.scrollTo).mockClear();
    await user.click(screen.getByRole('link', { name: 'same page' }));
    await waitFor(() => expect(mounts).toBe(2));
    await waitFor(() => expect(dataLoads).toBe(2));
    expect(window.scrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: 0 }));
    vi.mocked(window.scrollTo).mockClear();
    await user.click(screen.getByRole('link', { name: 'other page' }));
    expect(await screen.findByRole('heading', { name: 'Page two' })).toBeInTheDocument();
    expect(window.scrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: 0 }));
  });

  it('#anchor links scroll to their target without reloading the page', async () => {
    const user = userEvent.setup();
    renderRoutes(shellRoutes, { path: '/one' });
    await screen.findByRole('heading', { name: 'Page one' });
    await user.click(screen.getByRole('link', { name: 'details anchor' }));
    await waitFor(() => expect(Element.prototype.scrollIntoView).toHaveBeenCalled());
    expect(vi.mocked(Element.prototype.scrollIntoView).mock.contexts[0]).toBe(
      document.getElementById('details'),
    );
    expect(mounts).toBe(1);
  });
});

function TitledPage({ title, next }: { title: string; next: string }) {
  return (
    <PageCard title={title}>
      <Link to={next}>Next page</Link>
    </PageCard>
  );
}
const LaterPage = lazy(async () => ({ default: () => <TitledPage title="Later page" next="/first" /> }));
function StepsPage() {
  const [step, setStep] = useState(1);
  const arriveAtStep = useStepArrival();
  useEffect(() => {
    if (step === 2) arriveAtStep();
  }, [step, arriveAtStep]);
  return (
    <PageCard title={`Step ${step}`}>
      <button onClick={() => setStep(2)}>Next step</button>
    </PageCard>
  );
}
function NoticePage() {
  const [sent, setSent] = useState(false);
  return (
    <PageCard title="Notice page">
      {sent && <Alert tone="success">A new code has been sent.</Alert>}
      <button onClick={() => setSent(true)}>Send a new code</button>
    </PageCard>
  );
}
const arrivalRoutes: RouteObject[] = [
  {
    element: <ShellLayout />,
    children: [
      { path: 'first', element: <TitledPage title="First page" next="/second" /> },
      { path: 'second', element: <TitledPage title="Second page" next="/later" /> },
      { path: 'later', element: <LaterPage /> },
      {
        path: 'known',
        element: (
          <PageCard title="Password page">
            <input aria-label="Password" autoFocus />
          </PageCard>
        ),
      },
      { path: 'steps', element: <StepsPage /> },
      { path: 'notice', element: <NoticePage /> },
    ],
  },
];
/** What the live regions of the page say (the shell's, one node per announcement, and the snack bar's). */
const announced = () =>
  screen
    .getAllByRole('status')
    .flatMap((region) => (region.children.length ? [...region.children] : [region]))
    .map((node) => node.textContent);

describe('arriving on a page (WCAG 2.4.3, 4.1.3)', () => {
  it('a navigation focuses the new h1 and announces the title; the first load does neither', async () => {
    const user = userEvent.setup();
    renderRoutes(arrivalRoutes, { path: '/first' });
    const first = await screen.findByRole('heading', { name: 'First page', level: 1 });
    expect(first).not.toHaveFocus();
    expect(announced()).not.toContain('First page · Frontdoor');

    await user.click(screen.getByRole('link', { name: 'Next page' }));
    const second = await screen.findByRole('heading', { name: 'Second page', level: 1 });
    await waitFor(() => expect(second).toHaveFocus());
    expect(announced()).toContain('Second page · Frontdoor');

    // a lazily loaded page: its heading is waited for
    await user.click(screen.getByRole('link', { name: 'Next page' }));
    const later = await screen.findByRole('heading', { name: 'Later page', level: 1 });
    await waitFor(() => expect(later).toHaveFocus());
    expect(announced()).toContain('Later page · Frontdoor');
  });

  it('a page that focuses its own control keeps it; the title is still announced', async () => {
    const { router } = renderRoutes(arrivalRoutes, { path: '/first' });
    await screen.findByRole('heading', { name: 'First page', level: 1 });
    await act(() => router.navigate('/known'));
    await waitFor(() => expect(announced()).toContain('Password page · Frontdoor'));
    expect(screen.getByRole('textbox', { name: 'Password' })).toHaveFocus();
  });

  it("a page's next step focuses its heading and is announced", async () => {
    const user = userEvent.setup();
    renderRoutes(arrivalRoutes, { path: '/steps' });
    await user.click(await screen.findByRole('button', { name: 'Next step' }));
    expect(screen.getByRole('heading', { name: 'Step 2', level: 1 })).toHaveFocus();
    expect(announced()).toContain('Step 2 · Frontdoor');
  });

  it("a notice that appears after a click is read by the shell's region, there from the first paint (not a new region), after the title", async () => {
    const user = userEvent.setup();
    const { router } = renderRoutes(arrivalRoutes, { path: '/first' });
    await screen.findByRole('heading', { name: 'First page', level: 1 });
    const regions = screen.getAllByRole('status');
    await act(() => router.navigate('/notice'));
    await waitFor(() => expect(announced()).toContain('Notice page · Frontdoor'));
    await user.click(screen.getByRole('button', { name: 'Send a new code' }));
    await waitFor(() => expect(announced()).toContain('A new code has been sent.'));
    expect(announced()).toContain('Notice page · Frontdoor');
    expect(screen.getAllByRole('status')).toEqual(regions);
  });
});

// a page whose chunk never arrives (a frozen server)
const NeverLoadedPage = lazy(() => new Promise<never>(() => undefined));

describe('a page whose chunk is still on its way (the server froze)', () => {
  it('shows the loading spinner under its URL, never the page before with its form still working', async () => {
    const sent = vi.fn();
    const user = userEvent.setup();
    renderRoutes(
      [
        {
          element: <ShellLayout />,
          children: [
            {
              path: 'form',
              element: (
                <PageCard title="Form page">
                  <form onSubmit={sent}>
                    <button type="submit">Continue</button>
                  </form>
                  <Link to="/later">Later page</Link>
                </PageCard>
              ),
            },
            { path: 'later', element: <NeverLoadedPage /> },
          ],
        },
      ],
      { path: '/form' },
    );
    await user.click(await screen.findByRole('link', { name: 'Later page' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/later$/));
    expect(within(screen.getByRole('main')).getByRole('status')).toHaveTextContent('Loading');
    expect(screen.queryByRole('heading', { name: 'Form page' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
  });
});

describe('a page whose chunk never arrives', () => {
  const hanging = (path: string) =>
    renderRoutes(
      [
        {
          element: <ShellLayout />,
          children: [
            { path: 'later', element: <NeverLoadedPage /> },
            { path: 'later/:csrf', element: <NeverLoadedPage /> },
            { path: 'error-timeout', element: <h1>Timed out</h1> },
            { path: 'error-timeout/:csrf', element: <h1>Timed out</h1> },
          ],
        },
      ],
      { path, config: { requestTimeoutMs: 30_000 } },
    );

  it('goes to /error-timeout after the request timeout, keeping the csrf of the route', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      hanging('/later/lc-5');
      expect(within(screen.getByRole('main')).getByRole('status')).toHaveTextContent('Loading');
      await act(() => vi.advanceTimersByTimeAsync(29_999));
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/later\/lc-5$/);
      await act(() => vi.advanceTimersByTimeAsync(1));
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/error-timeout\/lc-5$/);
      expect(screen.getByRole('heading', { name: 'Timed out' })).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('without a csrf in the route, to /error-timeout', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      hanging('/later');
      await act(() => vi.advanceTimersByTimeAsync(30_000));
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/error-timeout$/);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('environment stamp (§2)', () => {
  it('outside production: a red rotated stamp outside the app root, aria-hidden, no pointer events, hidden in print', async () => {
    const { container } = renderRoutes(shellRoutes, { path: '/one', config: { env: 'staging' } });
    const stamp = await screen.findByTestId('env-stamp');
    expect(container).not.toContainElement(stamp);
    expect(stamp.parentElement).toBe(document.body);
    expect(stamp).toHaveAttribute('aria-hidden', 'true');
    expect(stamp).toHaveTextContent('staging');
    // set by an effect after the stamp is in the page: a busy machine can look in between
    await waitFor(() => expect(stamp.style.getPropertyValue('pointer-events')).toBe('none'));
    expect(stamp.style.getPropertyPriority('pointer-events')).toBe('important');
    expect(stamp.style.getPropertyValue('transform')).toMatch(/rotate/);
    expect(stamp.style.getPropertyValue('background')).toMatch(/rgba\(200, 16, 46/);
    const printRule = [...document.querySelectorAll('style')].map((s) => s.textContent).join('\n');
    expect(printRule).toContain('@media print { [data-env-stamp] { display: none !important; } }');
    // an inline display would win over the print rule
    expect(stamp.style.getPropertyValue('display')).toBe('');
  });

  it('is smaller at phone and tablet widths', async () => {
    setWindowWidth(390);
    renderRoutes(shellRoutes, { path: '/one' });
    const stamp = await screen.findByTestId('env-stamp');
    await waitFor(() => expect(stamp.style.getPropertyValue('font')).toMatch(/10px/));
    act(() => setWindowWidth(1440));
    expect(stamp.style.getPropertyValue('font')).toMatch(/12px/);
  });

  it('is absent in production', async () => {
    renderRoutes(shellRoutes, { path: '/one', config: { env: 'production' } });
    await screen.findByRole('heading', { name: 'Page one' });
    expect(screen.queryByTestId('env-stamp')).not.toBeInTheDocument();
  });
});

describe('nextPageKey', () => {
  it('a new location key remounts; a hash-only change keeps the page', () => {
    const first = nextPageKey(null, { key: 'a', pathname: '/one', search: '', hash: '' });
    expect(first.pageKey).toBe('a');
    expect(nextPageKey(first, { key: 'b', pathname: '/one', search: '', hash: '' }).pageKey).toBe('b');
    const anchored = nextPageKey(first, { key: 'c', pathname: '/one', search: '', hash: '#x' });
    expect(anchored).toMatchObject({ pageKey: 'a', seenKey: 'c' });
    expect(nextPageKey(anchored, { key: 'd', pathname: '/one', search: '', hash: '#x' }).pageKey).toBe('d');
  });

  it('a page noting a state in the entry of the URL you are on keeps the page; a link to it (no state) remounts', () => {
    const first = nextPageKey(null, { key: 'a', pathname: '/one', search: '?e=1', hash: '' });
    const noted = nextPageKey(first, {
      key: 'b',
      pathname: '/one',
      search: '?e=1',
      hash: '',
      state: { codeSentAt: 1 },
    });
    expect(noted).toMatchObject({ pageKey: 'a', seenKey: 'b' });
    expect(nextPageKey(noted, { key: 'c', pathname: '/one', search: '?e=1', hash: '' }).pageKey).toBe('c');
    // another URL is another page, whatever its state
    expect(
      nextPageKey(noted, { key: 'd', pathname: '/two', search: '', hash: '', state: { codeSentAt: 1 } })
        .pageKey,
    ).toBe('d');
  });
});

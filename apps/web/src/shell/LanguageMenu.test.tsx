import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { renderRoutes } from '../test/render.tsx';
import { setWindowWidth } from '../test/match-media.ts';
import { applyDocumentLanguage } from '../lib/i18n/index.ts';
import { ShellLayout } from './ShellLayout.tsx';
import { STAMP_CLEARANCE_PX } from './EnvStamp.tsx';
import styles from './Shell.module.css';
import { messages } from '@frontdoor/contract';
import { reloadPage } from '../lib/reload.ts';
import type * as LoadModule from '../lib/i18n/load.ts';

vi.mock('../lib/reload.ts', () => ({ reloadPage: vi.fn() }));
// a language's texts that do not download when a test says so
const catalogs = vi.hoisted(() => ({ fail: false }));
vi.mock('../lib/i18n/load.ts', async (importOriginal) => {
  const load = await importOriginal<typeof LoadModule>();
  return {
    ...load,
    loadLanguage: (...args: Parameters<typeof load.loadLanguage>) =>
      catalogs.fail
        ? Promise.reject(new TypeError('Failed to fetch dynamically imported module: /static/fr-0a1b2c.js'))
        : load.loadLanguage(...args),
  };
});

const routes: RouteObject[] = [
  { element: <ShellLayout />, children: [{ path: 'one', element: <h1>One</h1> }] },
];

beforeEach(() => {
  setWindowWidth(1440);
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
});
afterEach(() => {
  applyDocumentLanguage('en');
  vi.restoreAllMocks();
  vi.mocked(reloadPage).mockClear();
  catalogs.fail = false;
});

describe('language menu (issue 12)', () => {
  it.each([
    ['fr', 'Langue : Français'],
    ['zh', '语言：中文'],
    // right to left, the value stands apart in its own direction (translator.ts interpolate)
    ['ar', 'اللغة: \u2068العربية\u2069'],
  ])('the trigger in %s is named by one catalog string, not by concatenation: %s', async (language, name) => {
    renderRoutes(routes, { path: '/one', language });
    expect(await screen.findByRole('button', { name })).toBeInTheDocument();
  });

  it("a language whose texts did not download is said, not silently ignored; with the server answering (an old tab after an upgrade) the page loads again for the new build's", async () => {
    catalogs.fail = true;
    const user = userEvent.setup();
    const probe = vi.spyOn(window, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    renderRoutes(routes, { path: '/one' });
    await user.click(await screen.findByRole('button', { name: 'Language: English' }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Français' }));
    expect(await screen.findByText(messages.networkError)).toBeInTheDocument();
    expect(reloadPage).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Language: English' })).toBeInTheDocument();

    probe.mockResolvedValue(new Response('<!doctype html>'));
    await user.click(screen.getByRole('button', { name: 'Language: English' }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Français' }));
    await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1));
  });

  it('the language name is the text of the trigger and of every choice; flags are decoration', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, { path: '/one' });
    const trigger = await screen.findByRole('button', { name: 'Language: English' });
    expect(trigger).toHaveTextContent('English');
    await user.click(trigger);
    const choices = await screen.findAllByRole('menuitemradio');
    for (const choice of choices) {
      expect(choice.textContent?.trim()).not.toBe('');
      for (const flag of choice.querySelectorAll('img')) expect(flag).toHaveAttribute('alt', '');
    }
    expect(screen.getByRole('menuitemradio', { name: 'Français' })).toBeInTheDocument();
  });

  it('opened by a key before it was downloaded, the menu focuses the chosen language, as a key opening it does later', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, { path: '/one', language: 'fr' });
    const trigger = await screen.findByRole('button', { name: 'Langue : Français' });
    trigger.focus();
    await user.keyboard('{Enter}');
    const chosen = await screen.findByRole('menuitemradio', { name: 'Français' });
    await waitFor(() => expect(chosen).toHaveFocus());
  });

  it('the open menu stays inside the top bar’s navigation landmark (no portal to <body>)', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, { path: '/one' });
    await user.click(await screen.findByRole('button', { name: 'Language: English' }));
    const menu = await screen.findByRole('menu');
    const landmark = screen.getByRole('navigation', { name: 'Language' });
    expect(landmark).toContainElement(menu);
    expect(screen.getByRole('banner')).toContainElement(menu);
  });

  it('the mobile modal scrolls the control it focuses into view, as Tab wraps around too (400% zoom)', async () => {
    setWindowWidth(320);
    const user = userEvent.setup();
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView');
    renderRoutes(routes, { path: '/one' });
    await user.click(await screen.findByRole('button', { name: 'Choose a language' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose a language' });
    const close = within(dialog).getByRole('button', { name: 'Close the language menu' });
    expect(close).toHaveFocus();
    // Radix focused it with preventScroll: only the modal's own call brings it into view
    expect(scrolled.mock.contexts).toEqual([close]);
    expect(scrolled).toHaveBeenLastCalledWith({ block: 'nearest' });
    // through every language, then once more: around to the close button
    const choices = within(dialog).getAllByRole('listitem');
    for (let tabs = 0; tabs <= choices.length; tabs++) await user.tab();
    expect(close).toHaveFocus();
    expect(scrolled.mock.contexts.at(-1)).toBe(close);
  });
});

describe('environment stamp clearance (issue 12)', () => {
  it('outside production the footer ends above the stamp and focus scrolls clear of it', async () => {
    renderRoutes(routes, { path: '/one', config: { env: 'staging' } });
    await screen.findByTestId('env-stamp');
    expect(styles.footer).toBeTruthy();
    const rules = [...document.querySelectorAll('style')].map((s) => s.textContent).join('\n');
    expect(rules).toContain(`scroll-padding-block-end: ${STAMP_CLEARANCE_PX}px`);
    expect(rules).toContain(`.${styles.footer} { padding-block-end: ${STAMP_CLEARANCE_PX}px; }`);
    expect(screen.getByRole('navigation', { name: 'Site links' })).toHaveClass(styles.footer!);
  });
});

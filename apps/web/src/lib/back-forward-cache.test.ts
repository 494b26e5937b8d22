import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadAnewFromBackForwardCache } from './back-forward-cache.ts';
import { reloadPage } from './reload.ts';

vi.mock('./reload.ts', () => ({ reloadPage: vi.fn() }));
afterEach(() => {
  vi.clearAllMocks();
  document.body.innerHTML = '';
});

/** A window of its own, so that the listeners of one test never hear another's events. */
function freshWindow(): Window {
  const frame = document.createElement('iframe');
  document.body.append(frame);
  return frame.contentWindow!;
}

const pageEvent = (type: 'pagehide' | 'pageshow', persisted: boolean) =>
  new PageTransitionEvent(type, { persisted });

describe('loadAnewFromBackForwardCache', () => {
  it('empties what was typed as the page goes into the cache, and only then', () => {
    const win = freshWindow();
    win.document.body.innerHTML = `
      <input type="email" value="ana@school.org">
      <input type="password" value="Maple-Orbit-2718">
      <input autocomplete="one-time-code" inputmode="numeric" value="584959">
      <textarea>a note</textarea>
      <input type="checkbox" value="k12" checked>
      <input type="hidden" value="csrf-token">`;
    loadAnewFromBackForwardCache(win);
    const values = () =>
      [...win.document.querySelectorAll<HTMLInputElement>('input,textarea')].map((f) => f.value);
    // leaving for good (no cache): nothing to hide
    win.dispatchEvent(pageEvent('pagehide', false));
    expect(values()).toEqual(['ana@school.org', 'Maple-Orbit-2718', '584959', 'a note', 'k12', 'csrf-token']);
    win.dispatchEvent(pageEvent('pagehide', true));
    expect(values()).toEqual(['', '', '', '', 'k12', 'csrf-token']);
  });

  it('loads anew a page shown from the cache, not a page shown by a load', () => {
    const win = freshWindow();
    loadAnewFromBackForwardCache(win);
    win.dispatchEvent(pageEvent('pageshow', false));
    expect(reloadPage).not.toHaveBeenCalled();
    win.dispatchEvent(pageEvent('pageshow', true));
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });
});

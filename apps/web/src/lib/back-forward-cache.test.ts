import { afterEach, describe, expect, it, vi } from 'vitest';
import { handingOn, loadAnewFromBackForwardCache } from './back-forward-cache.ts';
import { reloadPage } from './reload.ts';

vi.mock('./reload.ts', () => ({ reloadPage: vi.fn() }));
afterEach(() => {
  vi.clearAllMocks();
  document.body.innerHTML = '';
});

/** A window of its own: the listeners and the handing on of one test never reach another's. */
function freshWindow(): Window {
  const frame = document.createElement('iframe');
  document.body.append(frame);
  return frame.contentWindow!;
}

const pageEvent = (type: 'pagehide' | 'pageshow', persisted: boolean) =>
  new PageTransitionEvent(type, { persisted });

/** A page whose form holds a typed address, password, class code and note, a ticked box, a hidden field. */
function formPage() {
  const win = freshWindow();
  win.document.body.innerHTML = `
    <form>
      <input type="email">
      <input type="password">
      <input autocomplete="one-time-code" inputmode="numeric">
      <textarea></textarea>
      <input type="checkbox" value="k12">
      <input type="hidden" value="csrf-token">
    </form>`;
  const fields = [...win.document.querySelectorAll<HTMLInputElement>('input,textarea')];
  ['ana@school.org', 'Maple-Orbit-2718', '584959', 'a note'].forEach(
    (typed, i) => (fields[i]!.value = typed),
  );
  fields[4]!.checked = true;
  const values = () => fields.map((f) => (f.type === 'checkbox' ? String(f.checked) : f.value));
  return { win, values };
}

const TYPED = ['ana@school.org', 'Maple-Orbit-2718', '584959', 'a note', 'true', 'csrf-token'];

describe('loadAnewFromBackForwardCache', () => {
  it('a page the sign-in handed on resets its forms as it goes into the cache, and only then', () => {
    const { win, values } = formPage();
    loadAnewFromBackForwardCache(() => undefined, win);
    handingOn(win);
    // leaving for good (no cache): nothing to hide
    win.dispatchEvent(pageEvent('pagehide', false));
    expect(values()).toEqual(TYPED);
    win.dispatchEvent(pageEvent('pagehide', true));
    expect(values()).toEqual(['', '', '', '', 'false', 'csrf-token']);
  });

  it('a page the sign-in handed on is loaded anew when shown from the cache, not when shown by a load', () => {
    const { win } = formPage();
    const asked = vi.fn();
    loadAnewFromBackForwardCache(asked, win);
    handingOn(win);
    win.dispatchEvent(pageEvent('pageshow', false));
    expect(reloadPage).not.toHaveBeenCalled();
    win.dispatchEvent(pageEvent('pageshow', true));
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('offline, it is loaded anew once the network is back, not into the browser’s error page', () => {
    const { win } = formPage();
    loadAnewFromBackForwardCache(() => undefined, win);
    handingOn(win);
    const online = vi.spyOn(win.navigator, 'onLine', 'get').mockReturnValue(false);
    win.dispatchEvent(pageEvent('pageshow', true));
    expect(reloadPage).not.toHaveBeenCalled();
    online.mockReturnValue(true);
    win.dispatchEvent(new Event('online'));
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('a page left another way (a footer link) keeps its half-filled form and only asks again who is signed in', () => {
    const { win, values } = formPage();
    const asked = vi.fn();
    loadAnewFromBackForwardCache(asked, win);
    win.dispatchEvent(pageEvent('pagehide', true));
    win.dispatchEvent(pageEvent('pageshow', true));
    expect(values()).toEqual(TYPED);
    expect(reloadPage).not.toHaveBeenCalled();
    expect(asked).toHaveBeenCalledTimes(1);
  });
});

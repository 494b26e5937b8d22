import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CSP_NONCE_PLACEHOLDER,
  HELD_PRESSES_GLOBAL,
  PRERENDER_DIR,
  type HeldPresses,
} from '@frontdoor/contract';
import * as entry from '../src/prerender.tsx';
import { NOSCRIPT_NOTICE } from '../src/lib/i18n/noscript-notice.ts';
import {
  hydrateAfterFirstPaint,
  inlineStylesheets,
  prerenderPages,
  withNoscriptNotice,
} from './prerender.ts';

const nonce = `nonce="${CSP_NONCE_PLACEHOLDER}"`;
const built = `<!doctype html><html><head><title>Sign in</title>
    <script type="module" crossorigin src="/static/index-abc.js" ${nonce}></script>
    <link rel="modulepreload" crossorigin ${nonce} href="/static/en-def.js">
    <link rel="stylesheet" crossorigin href="/static/style-123.css" ${nonce}>
  </head><body><div id="root"><h1>Sign in</h1></div></body></html>`;

describe('inlineStylesheets', () => {
  it('puts the stylesheet into the page under the nonce and removes the file nothing links any more', () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'fd-inline-'));
    mkdirSync(path.join(dist, 'static'));
    writeFileSync(path.join(dist, 'static', 'style-123.css'), 'h1{color:#1f4e8c}\n');
    const html = inlineStylesheets(built, dist);
    expect(html).toContain(`<style ${nonce}>h1{color:#1f4e8c}</style>`);
    expect(html).not.toContain('rel="stylesheet"');
    expect(existsSync(path.join(dist, 'static', 'style-123.css'))).toBe(false);
  });
});

describe('hydrateAfterFirstPaint', () => {
  const html = hydrateAfterFirstPaint(built);
  const globals = window as unknown as Record<string, HeldPresses | undefined>;
  // each run of the page's script holds presses until stopped, as the app stops it
  afterEach(() => globals[HELD_PRESSES_GLOBAL]?.stop());

  it("replaces the page's script and preloads with one inline module under the nonce", () => {
    expect(html).not.toMatch(/<script[^>]* src=/);
    expect(html).not.toContain('modulepreload');
    const inline = [...html.matchAll(/<script type="module" ([^>]*)>([^<]*)<\/script>/g)];
    expect(inline).toHaveLength(1);
    expect(inline[0]?.[1]).toBe(nonce);
    // every script is asked for at once, the entry first
    expect(inline[0]?.[2]).toContain('["/static/index-abc.js","/static/en-def.js"]');
  });

  /**
   * Runs the page's inline code with the browser's scheduling and paint timing replaced by recorders:
   * what it asked for, and the frame, timer and paint observer it is waiting on.
   */
  const runLoader = (visibilityState: string, paintTiming = true) => {
    const code = /<script type="module"[^>]*>([^<]*)<\/script>/.exec(html)?.[1] ?? '';
    const asked: string[] = [];
    const frames: (() => void)[] = [];
    const timers: { run: () => void; ms: number }[] = [];
    const observers: { deliver: (names: string[]) => void; disconnected: boolean }[] = [];
    class PerformanceObserver {
      static supportedEntryTypes = paintTiming ? ['paint', 'largest-contentful-paint'] : ['resource'];
      constructor(callback: (list: unknown, observer: unknown) => void) {
        const observer = {
          disconnected: false,
          deliver: (names: string[]) =>
            callback({ getEntriesByName: (name: string) => names.filter((n) => n === name) }, this),
        };
        observers.push(observer);
        Object.assign(this, { disconnect: () => (observer.disconnected = true) });
      }
      observe(options: { type: string; buffered: boolean }) {
        expect(options).toEqual({ type: 'paint', buffered: true });
      }
    }
    // a module script element for each, added to the document: what Chromium compiles as it streams in
    const document = {
      visibilityState,
      createElement: (tag: string) => ({ tag }),
      head: {
        append: (element: { tag: string; type?: string; src?: string }) =>
          asked.push(
            element.tag === 'script' && element.type === 'module' ? element.src! : 'not a module script',
          ),
      },
    };
    new Function('document', 'requestAnimationFrame', 'setTimeout', 'self', code)(
      document,
      (frame: () => void) => frames.push(frame),
      (run: () => void, ms: number) => timers.push({ run, ms }),
      { PerformanceObserver },
    );
    globals[HELD_PRESSES_GLOBAL]?.stop();
    return { asked, frames, timers, observers };
  };
  const SCRIPTS = ['/static/index-abc.js', '/static/en-def.js'];

  it('asks for them once the first contentful paint is on screen, once only', () => {
    const page = runLoader('visible');
    page.frames.forEach((frame) => frame());
    expect(page.asked).toEqual([]);
    // the first paint of the background alone is not the page
    page.observers[0]?.deliver(['first-paint']);
    expect(page.asked).toEqual([]);
    page.observers[0]?.deliver(['first-paint', 'first-contentful-paint']);
    expect(page.asked).toEqual(SCRIPTS);
    expect(page.observers[0]?.disconnected).toBe(true);
    // the fallback timer, still pending, asks for nothing more
    page.timers.forEach((timer) => timer.run());
    expect(page.asked).toEqual(SCRIPTS);
  });

  it('asks for them a second after the first frame when no paint is reported, after the frame where paint timing is missing, at once in a hidden tab', () => {
    const silent = runLoader('visible');
    silent.frames.forEach((frame) => frame());
    expect(silent.timers.map((timer) => timer.ms)).toEqual([1000]);
    silent.timers.forEach((timer) => timer.run());
    expect(silent.asked).toEqual(SCRIPTS);

    const older = runLoader('visible', false);
    expect(older.observers).toEqual([]);
    expect(older.asked).toEqual([]);
    older.frames.forEach((frame) => frame());
    expect(older.timers.map((timer) => timer.ms)).toEqual([0]);
    older.timers.forEach((timer) => timer.run());
    expect(older.asked).toEqual(SCRIPTS);

    expect(runLoader('hidden').asked).toEqual(SCRIPTS);
  });

  it('holds button presses, radio choices and form submissions until the app takes over, so no form submits natively', () => {
    const code = /<script type="module"[^>]*>([^<]*)<\/script>/.exec(html)?.[1] ?? '';
    new Function('requestAnimationFrame', 'self', code)(() => undefined, {});
    const held = globals[HELD_PRESSES_GLOBAL]!;
    const form = document.body.appendChild(document.createElement('form'));
    const button = form.appendChild(document.createElement('button'));
    const label = button.appendChild(document.createElement('span'));
    const press = () => label.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    const submit = () => form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));

    const radio = Object.assign(form.appendChild(document.createElement('input')), { type: 'radio' });
    const choose = () => radio.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));

    expect(press()).toBe(false);
    expect(submit()).toBe(false);
    // a radio choice too: React would uncheck it as it hydrates; the app makes it again
    expect(choose()).toBe(false);
    expect(held.targets).toEqual([button, form, radio]);
    held.stop();
    expect(press()).toBe(true);
    expect(held.targets).toHaveLength(3);
  });

  it("holds a plain click on a link within the portal (a link followed natively would leave a product's /log-in/{csrf} before its request is fetched), not one to a new tab or another site", () => {
    const code = /<script type="module"[^>]*>([^<]*)<\/script>/.exec(html)?.[1] ?? '';
    new Function('requestAnimationFrame', 'self', code)(() => undefined, {});
    const held = globals[HELD_PRESSES_GLOBAL]!;
    const link = (href: string, target?: string) => {
      const a = Object.assign(document.body.appendChild(document.createElement('a')), { href });
      if (target) a.target = target;
      return a;
    };
    const email = link('/email');
    const label = email.appendChild(document.createElement('span'));
    // whether the browser would follow the link (the page's script did not hold it); then it is not
    // followed here, where there is no other document to go to
    const followed = (element: Element, init: MouseEventInit = {}) => {
      let free = false;
      const look = (event: Event) => {
        free = !event.defaultPrevented;
        event.preventDefault();
      };
      document.addEventListener('click', look);
      element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, ...init }));
      document.removeEventListener('click', look);
      return free;
    };

    expect(followed(label)).toBe(false);
    // a new tab, another site, or a link that opens elsewhere: the browser's own
    expect(followed(email, { ctrlKey: true })).toBe(true);
    expect(followed(email, { metaKey: true })).toBe(true);
    expect(followed(email, { shiftKey: true })).toBe(true);
    expect(followed(link('https://example.org/contact'))).toBe(true);
    expect(followed(link('//example.org/contact'))).toBe(true);
    expect(followed(link('/terms', '_blank'))).toBe(true);
    expect(held.targets).toEqual([email]);
    held.stop();
  });

  it('lets the links work as plain links again if a script cannot load, following the last one pressed', () => {
    const code = /<script type="module"[^>]*>([^<]*)<\/script>/.exec(html)?.[1] ?? '';
    const scripts: { onerror?: () => void }[] = [];
    const followed: string[] = [];
    // a hidden tab asks for the scripts at once
    const page = {
      visibilityState: 'hidden',
      createElement: () => ({}),
      head: { append: (element: { onerror?: () => void }) => scripts.push(element) },
    };
    new Function('document', 'location', 'requestAnimationFrame', 'self', code)(
      page,
      { assign: (href: string) => followed.push(href) },
      () => undefined,
      {},
    );
    const held = globals[HELD_PRESSES_GLOBAL]!;
    const email = Object.assign(document.body.appendChild(document.createElement('a')), { href: '/email' });
    email.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    expect(held.targets).toEqual([email]);
    expect(scripts.length).toBeGreaterThan(0);
    scripts[0]?.onerror?.();
    expect(followed).toEqual([email.href]);
    // no longer held: the next click is the browser's own
    const again = new MouseEvent('click', { bubbles: true, cancelable: true });
    document.addEventListener('click', (event) => event.preventDefault(), { once: true });
    email.dispatchEvent(again);
    expect(held.targets).toEqual([email]);
  });

  it('leaves a page without scripts as it is', () => {
    const plain = '<html><head></head><body></body></html>';
    expect(hydrateAfterFirstPaint(plain)).not.toContain('<script');
  });
});

describe('the notice without JavaScript', () => {
  const noticeOf = (html: string) => /<p class="noscript-notice">([^<]*)<\/p>/.exec(html)?.[1];

  it("is in every page's language, in the prerendered pages and the shells alike (a screen reader reads it in the page's voice)", async () => {
    // index.html as Vite builds it, with the two chunks its manifest names
    const dist = mkdtempSync(path.join(tmpdir(), 'fd-noscript-'));
    mkdirSync(path.join(dist, '.vite'));
    copyFileSync(path.join(import.meta.dirname, '..', 'index.html'), path.join(dist, 'index.html'));
    const chunks = [
      'index.html',
      ...entry.BUNDLED_LANGUAGES.map((language) => `virtual:fd-catalogs/${language}`),
    ];
    const vite = Object.fromEntries(chunks.map((key, i) => [key, { file: `static/chunk-${i}.js` }]));
    writeFileSync(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(vite));

    const manifest = await prerenderPages(dist, { ...entry, renderPage: async () => '<h1>Sign in</h1>' });
    const read = (...parts: string[]) => readFileSync(path.join(dist, ...parts), 'utf8');
    // the answer with a hosted translation widget, which starts in English
    expect(noticeOf(read('index.html'))).toBe(NOSCRIPT_NOTICE.en);
    for (const language of entry.BUNDLED_LANGUAGES) {
      for (const file of [manifest.shell, ...new Set(Object.values(manifest.pages))]) {
        const html = read(PRERENDER_DIR, language, file);
        expect(html).toContain(`<html lang="${language}"`);
        expect(noticeOf(html), `${language}/${file}`).toBe(NOSCRIPT_NOTICE[language]);
      }
    }
  });

  it('refuses a page without it, and writes its text as text', () => {
    const page = '<noscript><p class="noscript-notice">old</p></noscript>';
    expect(withNoscriptNotice(page, 'JavaScript <needed> & on')).toBe(
      '<noscript><p class="noscript-notice">JavaScript &lt;needed> &amp; on</p></noscript>',
    );
    expect(() => withNoscriptNotice('<noscript></noscript>', 'JavaScript')).toThrow(/noscript-notice/);
  });
});

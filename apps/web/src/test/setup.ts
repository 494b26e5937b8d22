// first: react-dom looks for the DevTools hook once, when it loads
import './react-commits.ts';
import './web-streams.ts';
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { server } from './server.ts';
import { installMatchMedia } from './match-media.ts';
import { unblockStorage } from './blocked-storage.ts';
import { unstored } from '../lib/storage.ts';

installMatchMedia();

// Pages are lazy routes: their first import under a full parallel run can take longer than the 1 s default wait.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no ResizeObserver, which Radix radio groups and checkboxes use to measure themselves.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// jsdom has no scrollIntoView, which the modals call as a control inside takes the focus (ui/reveal-focus.ts).
Element.prototype.scrollIntoView ??= () => undefined;

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  unblockStorage();
  // what storage did not take (lib/storage.ts) is the page load's: the next test is a new one
  unstored.clear();
  localStorage.clear();
  sessionStorage.clear();
  document.cookie.split('; ').forEach((c) => {
    const name = c.split('=')[0];
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
});
afterAll(() => server.close());

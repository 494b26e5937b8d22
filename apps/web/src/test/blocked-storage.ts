import { vi } from 'vitest';

const spies: { mockRestore(): void }[] = [];

/**
 * Storage as a browser that blocks it gives it (site data off, some private modes): reading
 * window.localStorage or window.sessionStorage throws a SecurityError. Until the test ends (setup.ts).
 */
export function blockStorage(): void {
  for (const area of ['localStorage', 'sessionStorage'] as const)
    spies.push(
      vi.spyOn(window, area, 'get').mockImplementation(() => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      }),
    );
}

/** Storage that is full: every setItem throws a QuotaExceededError. Until the test ends (setup.ts). */
export function fillStorage(): void {
  spies.push(
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    }),
  );
}

/** Storage as it was: setup.ts, after each test, before it empties storage. */
export function unblockStorage(): void {
  spies.splice(0).forEach((spy) => spy.mockRestore());
}

/**
 * jsdom has no matchMedia. This one answers (max-width/min-width: Npx) from window.innerWidth and
 * (prefers-reduced-motion: reduce) from `reducedMotion`, so tests can drive both by setting them
 * and dispatching 'resize'.
 */
export const mediaState = { reducedMotion: false };

function matches(query: string): boolean {
  const max = /max-width:\s*(\d+)px/.exec(query);
  if (max) return window.innerWidth <= Number(max[1]);
  const min = /min-width:\s*(\d+)px/.exec(query);
  if (min) return window.innerWidth >= Number(min[1]);
  if (query.includes('prefers-reduced-motion: reduce')) return mediaState.reducedMotion;
  return false;
}

export function installMatchMedia(): void {
  window.matchMedia = (query: string): MediaQueryList => {
    const listeners = new Set<(e: MediaQueryListEvent) => void>();
    const mql = {
      media: query,
      get matches() {
        return matches(query);
      },
      onchange: null,
      addEventListener: (_: string, l: (e: MediaQueryListEvent) => void) => listeners.add(l),
      removeEventListener: (_: string, l: (e: MediaQueryListEvent) => void) => listeners.delete(l),
      addListener: (l: (e: MediaQueryListEvent) => void) => listeners.add(l),
      removeListener: (l: (e: MediaQueryListEvent) => void) => listeners.delete(l),
      dispatchEvent: () => true,
    };
    window.addEventListener('resize', () =>
      listeners.forEach((l) => l({ matches: matches(query), media: query } as MediaQueryListEvent)),
    );
    return mql as unknown as MediaQueryList;
  };
}

/** Sets the jsdom window width and tells listeners. */
export function setWindowWidth(width: number): void {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
  window.dispatchEvent(new Event('resize'));
}

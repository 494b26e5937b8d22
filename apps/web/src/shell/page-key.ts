import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useQueryClient } from '../lib/query.ts';
import { sessionQueryKey } from '../lib/session.ts';

export interface PageKeyState {
  /** The key the page is mounted under. */
  pageKey: string;
  /** The last location key seen. */
  seenKey: string;
  path: string;
  hash: string;
}

interface KeyedLocation {
  key: string;
  pathname: string;
  search: string;
  hash: string;
  /** A page's own note in its history entry (a link to a URL carries none). */
  state?: unknown;
}

/**
 * The key the routed page is mounted under. Every navigation gets a new location key, so
 * navigating to the URL you are on remounts the page (its data loads again, §2). A change of the
 * #anchor alone keeps the key: following an in-page link must not reload the page. Nor does a page
 * noting a state in its own history entry (a code page, when its code was mailed): that is no visit.
 * A link to the URL you are on carries no state.
 */
export function nextPageKey(previous: PageKeyState | null, location: KeyedLocation): PageKeyState {
  const path = location.pathname + location.search;
  if (previous && previous.path === path && (previous.hash !== location.hash || location.state != null)) {
    return { ...previous, seenKey: location.key, hash: location.hash };
  }
  return { pageKey: location.key, seenKey: location.key, path, hash: location.hash };
}

export function usePageKey(): string {
  const location = useLocation();
  const [state, setState] = useState(() => nextPageKey(null, location));
  if (state.seenKey !== location.key) {
    // derived state from the previous render (React's documented pattern)
    const next = nextPageKey(state, location);
    setState(next);
    return next.pageKey;
  }
  return state.pageKey;
}

/**
 * Navigating to the URL you are on also reloads the page's data (§2): the remounted page's cached
 * queries are refetched. The session keeps its own 30-minute cache (§3).
 */
export function useReloadPageData(pageKey: string): void {
  const location = useLocation();
  const queryClient = useQueryClient();
  const previous = useRef<{ pageKey: string; path: string } | null>(null);
  const path = location.pathname + location.search;
  useEffect(() => {
    const before = previous.current;
    previous.current = { pageKey, path };
    if (before && before.pageKey !== pageKey && before.path === path) {
      void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
    }
  }, [pageKey, path, queryClient]);
}

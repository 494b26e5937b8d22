import { useSyncExternalStore } from 'react';
import { MOBILE_MAX_WIDTH } from '@frontdoor/contract';

/** §9 script check: mobile/tablet is a window width of 1107 px or less (inclusive). */
const MOBILE_QUERY = `(max-width: ${MOBILE_MAX_WIDTH}px)`;

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(MOBILE_QUERY);
  query.addEventListener('change', onChange);
  window.addEventListener('resize', onChange);
  return () => {
    query.removeEventListener('change', onChange);
    window.removeEventListener('resize', onChange);
  };
}

const isMobileNow = (): boolean => window.matchMedia(MOBILE_QUERY).matches;

export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, isMobileNow, () => false);
}

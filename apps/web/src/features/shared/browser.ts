import { handingOn } from '../../lib/back-forward-cache.ts';

/** Full-page navigation away from the SPA (authorize url, cookie endpoint, return url). One seam for tests. */
export function goToUrl(url: string): void {
  handingOn();
  window.location.assign(url);
}

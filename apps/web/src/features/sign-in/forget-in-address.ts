/**
 * Takes a query parameter the page has read out of the browser's address and its history entry (the
 * email of a sign-in would stay in the history of a shared computer). The entry is replaced as it
 * is, its state kept, without the router: no navigation, so the page stays as the person sees it.
 */
export function forgetInAddress(name: string): void {
  const url = new URL(window.location.href);
  if (!url.searchParams.has(name)) return;
  url.searchParams.delete(name);
  window.history.replaceState(window.history.state, '', url);
}

/** Loads the page again from the server: one seam for tests (jsdom's location cannot be spied on). */
export function reloadPage(): void {
  window.location.reload();
}

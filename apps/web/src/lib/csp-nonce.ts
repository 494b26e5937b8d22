import { setNonce } from 'get-nonce';

/**
 * The style nonce the server wrote into index.html's <meta property="csp-nonce"> for this page. The
 * CSP refuses every <style> element without it. Browsers hide a nonce attribute once the page has
 * loaded; the `nonce` property keeps it.
 */
export function pageNonce(): string | undefined {
  const meta = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]');
  return meta?.nonce || meta?.getAttribute('nonce') || undefined;
}

/** Radix's scroll lock (react-remove-scroll-bar) injects a <style> with the nonce get-nonce hands it. */
export function shareStyleNonce(): void {
  const nonce = pageNonce();
  if (nonce) setNonce(nonce);
}

import { reloadPage } from './reload.ts';

/** The windows whose page has handed the browser on to the next step of a sign-in. */
const handedOn = new WeakSet<Window>();

/**
 * The page hands the browser on to the next step of a sign-in: a provider, the authorization server,
 * the product (features/shared/browser.ts goToUrl). Kept in memory, which the back/forward cache
 * keeps too: a page shown from it again still knows how it was left.
 */
export function handingOn(target: Window = window): void {
  handedOn.add(target);
}

/**
 * Back can show a page from the browser's back/forward cache exactly as it was left. Left by the
 * sign-in (handingOn), it would hold what was typed (on a shared classroom device, the last person's
 * password, class code or new password) and a pressed button still busy with an answer that already
 * took the browser on, which takes no press again: so its forms are reset as it goes into the cache,
 * and it is loaded anew when shown from it (once the network is back, if it is not). Left any other
 * way (a footer link), it keeps a half-filled form, and only asks again who is signed in.
 */
export function loadAnewFromBackForwardCache(askWhoIsSignedIn: () => void, target: Window = window): void {
  target.addEventListener('pagehide', (event) => {
    if (event.persisted && handedOn.has(target)) for (const form of target.document.forms) form.reset();
  });
  target.addEventListener('pageshow', (event) => {
    if (!event.persisted) return;
    if (!handedOn.has(target)) askWhoIsSignedIn();
    // offline, a reload would show the browser's own error page instead of this one
    else if (target.navigator.onLine) reloadPage();
    else target.addEventListener('online', reloadPage, { once: true });
  });
}

import { reloadPage } from './reload.ts';

/** The fields a person types into; boxes, buttons and hidden fields hold nothing typed. */
const TYPED_FIELDS =
  'input:not([type=hidden],[type=checkbox],[type=radio],[type=button],[type=submit],[type=reset],[type=file],[type=image]),textarea';

/**
 * A page left for another document (a provider, the authorization server's sign-in page, the product)
 * comes back on Back from the browser's back/forward cache exactly as it was left: a typed password or
 * class code in its fields, a pressed button still busy with an answer that already took the browser
 * on (it takes no press again), whoever was signed in then. On a shared classroom device that is the
 * last person's. So a page going into the cache empties what was typed into it, and the cache's copy
 * holds none of it while it shows for a moment; a page shown from the cache is loaded anew, and the
 * server says again who is signed in and where the sign-in stands.
 */
export function loadAnewFromBackForwardCache(target: Window = window): void {
  target.addEventListener('pagehide', (event) => {
    if (!event.persisted) return;
    for (const field of target.document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(
      TYPED_FIELDS,
    ))
      field.value = '';
  });
  target.addEventListener('pageshow', (event) => {
    if (event.persisted) reloadPage();
  });
}

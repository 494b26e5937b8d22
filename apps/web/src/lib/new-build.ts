import { reloadPage } from './reload.ts';

const RELOADED_AT = 'fd_build_reload';
/** A second failure this soon after the reload is the error page's: never a loop of reloads. */
const RELOAD_GUARD_MS = 60_000;

/**
 * A page's script or texts did not download while the server answers: an upgrade replaced the build
 * this tab was loaded from, and its old files are gone. Loads the page again, for the new build's,
 * once a minute at most; true when it does. False when the server does not answer either (the
 * connection is the trouble) or the page was reloaded for this a moment ago.
 */
export async function reloadForNewBuild(): Promise<boolean> {
  try {
    if (Date.now() - Number(sessionStorage.getItem(RELOADED_AT)) < RELOAD_GUARD_MS) return false;
    const page = await fetch(window.location.href, { cache: 'no-store' });
    if (!page.ok) return false;
    sessionStorage.setItem(RELOADED_AT, String(Date.now()));
  } catch {
    // offline, or storage blocked (no guard against a loop): the error page's words hold
    return false;
  }
  reloadPage();
  return true;
}

import { apiPaths } from '@frontdoor/contract';
import type { PortalConfig } from '@frontdoor/contract';

/**
 * §4: after a good access code the browser goes to the cookie-setting endpoint. token is the login csrf
 * of the sign-in request this browser holds: the server redeems the hash only with it, in this browser.
 */
export function buildCookieUrl(
  cfg: Pick<PortalConfig, 'apiUrl'>,
  args: { hash: string; returnUrl: string; token: string },
): string {
  const query = new URLSearchParams({ hash: args.hash, return_url: args.returnUrl, token: args.token });
  return `${cfg.apiUrl}${apiPaths.cookie}?${query.toString()}`;
}

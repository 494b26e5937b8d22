import { apiPaths } from '@frontdoor/contract';
import type { PortalConfig } from '@frontdoor/contract';

/**
 * §4: after a good access code the browser goes to the cookie-setting endpoint. token is the login csrf
 * when one is held (the server ties the cookie hash to that sign-in request); without one it is left out.
 */
export function buildCookieUrl(
  cfg: Pick<PortalConfig, 'apiUrl'>,
  args: { hash: string; returnUrl: string; token?: string | null | undefined },
): string {
  const query = new URLSearchParams({ hash: args.hash, return_url: args.returnUrl });
  if (args.token) query.set('token', args.token);
  return `${cfg.apiUrl}${apiPaths.cookie}?${query.toString()}`;
}

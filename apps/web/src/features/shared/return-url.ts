import type { LoginParams, PortalConfig } from '@frontdoor/contract';

/** Where a finished flow sends the user: the login params' return address, else the site root. */
export function chooseReturnUrl(
  loginParams: Pick<LoginParams, 'url'> | null | undefined,
  cfg: Pick<PortalConfig, 'siteUrls'>,
): string {
  return loginParams?.url ?? cfg.siteUrls.root;
}

import { API_PREFIX, DEFAULT_REQUEST_TIMEOUT_MS, type PortalConfig } from '@frontdoor/contract';
import type { AppConfig } from '../config.ts';

/** The portal's client id at the bundled authorization server. */
export const PORTAL_CLIENT_ID = 'frontdoor-portal';

/** assets/cfg/config.json, written from the environment (§3). */
export function portalConfig(config: AppConfig): PortalConfig {
  return {
    env: config.env,
    // relative: the page works on whatever name or address it is reached by (127.0.0.1, a LAN name)
    apiUrl: API_PREFIX,
    loginUrl: `${config.publicUrl}/oidc`,
    siteUrls: config.siteUrls,
    clientIds: { portal: PORTAL_CLIENT_ID },
    redirectUri: `${config.publicUrl}${API_PREFIX}auth/callback`,
    translation: { key: config.translationKey, scriptUrl: config.translationScriptUrl },
    sentryDsn: config.sentryDsn,
    requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
    providerName: config.providerName,
  };
}

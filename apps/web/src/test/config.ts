import type { PortalConfig } from '@frontdoor/contract';

/** A complete, valid config.json for tests (non-production, no translation key, no DSN). */
export const testConfig: PortalConfig = {
  env: 'test',
  apiUrl: 'http://localhost/api/',
  loginUrl: 'http://localhost/oidc',
  siteUrls: {
    root: 'https://site.example/',
    contactUs: 'https://site.example/contact',
    privacy: 'https://site.example/privacy',
    terms: 'https://site.example/terms',
    help: 'https://site.example/help',
  },
  clientIds: { portal: 'portal-client' },
  redirectUri: 'http://localhost/api/auth/callback',
  translation: { key: null, scriptUrl: null },
  sentryDsn: null,
  requestTimeoutMs: 30_000,
  providerName: 'Frontdoor',
};

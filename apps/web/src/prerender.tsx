import { prerender } from 'react-dom/static';
import { MemoryRouter } from 'react-router';
import type { ReactNode } from 'react';
import { DEFAULT_REQUEST_TIMEOUT_MS, configPlaceholder } from '@frontdoor/contract';
import type { PortalConfig } from '@frontdoor/contract';
import { App } from './App.tsx';
import { createI18n } from './lib/i18n/index.ts';
import { directionOf } from '@frontdoor/contract';
import { NOSCRIPT_NOTICE } from './lib/i18n/noscript-notice.ts';
import { BUNDLED_LANGUAGES, SOURCE_LANGUAGE } from './lib/i18n/languages.ts';
import type { BundledLanguage } from './lib/i18n/languages.ts';
import { buildResources } from './lib/i18n/resources.ts';
import { builtInTranslationService } from './lib/i18n/service.ts';
import { createQueryClient } from './lib/query.ts';

/**
 * The build's server-side entry (build/prerender.ts runs it): renders a page of the app, as the
 * browser's first render would, for the server to answer before any script has run.
 */

/**
 * The pages prerendered: the routes the router renders each at and the file it is written to in each
 * language's folder. Their modules are in the first bundle (features/routes.tsx), so a page needs
 * what index.html loads and its language's catalogs. A {csrf} route is rendered once, for every csrf:
 * as it shows before its login params arrive (the server answers it for any csrf; web-pages.ts).
 */
export const PRERENDERED_PAGES = [
  { paths: ['/log-in', '/'], file: 'log-in.html' },
  { paths: ['/log-in/:csrf'], file: 'log-in-csrf.html' },
  { paths: ['/email'], file: 'email.html' },
  { paths: ['/create-account'], file: 'create-account.html' },
  { paths: ['/create-account/:csrf'], file: 'create-account-csrf.html' },
  { paths: ['/access-code'], file: 'access-code.html' },
  { paths: ['/access-code/:csrf'], file: 'access-code-csrf.html' },
];

/**
 * The value of a route's parameter while its page is prerendered. The page answers for every value, so
 * none may show in its markup: renderPage refuses a page that shows it.
 */
export const ROUTE_PARAM_STAND_IN = 'fd-route-param';

export { BUNDLED_LANGUAGES, SOURCE_LANGUAGE, directionOf };

/** index.html's notice to a browser without JavaScript, in a language (build/prerender.ts writes it in). */
export const noscriptNotice = (language: BundledLanguage): string => NOSCRIPT_NOTICE[language];

/** config.json with a placeholder for each string the server fills in (it knows the deployment). */
const templateConfig: PortalConfig = {
  env: configPlaceholder('env'),
  apiUrl: configPlaceholder('apiUrl'),
  loginUrl: configPlaceholder('loginUrl'),
  siteUrls: {
    root: configPlaceholder('siteUrls.root'),
    contactUs: configPlaceholder('siteUrls.contactUs'),
    privacy: configPlaceholder('siteUrls.privacy'),
    terms: configPlaceholder('siteUrls.terms'),
    help: configPlaceholder('siteUrls.help'),
  },
  clientIds: { portal: configPlaceholder('clientIds.portal') },
  redirectUri: configPlaceholder('redirectUri'),
  // pages are not prerendered for a deployment with the hosted widget (the server checks)
  translation: { key: null, scriptUrl: null },
  sentryDsn: null,
  requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
  providerName: configPlaceholder('providerName'),
};

/** The markup of #root for a page in a language, its lazy page loaded (react-dom/static waits). */
export async function renderPage(route: string, language: BundledLanguage): Promise<string> {
  const path = route.replace(/:[^/]+/g, ROUTE_PARAM_STAND_IN);
  const i18n = createI18n(language, { [language]: buildResources()[language] });
  const queryClient = createQueryClient();
  const AtPath = ({ children }: { children: ReactNode }) => (
    <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
  );
  const { prelude } = await prerender(
    <App
      cfg={templateConfig}
      i18n={i18n}
      translation={builtInTranslationService(i18n)}
      queryClient={queryClient}
      Router={AtPath}
    />,
  );
  // the queries a page started would hold the build open with their garbage-collection timers
  queryClient.clear();
  const markup = await new Response(prelude).text();
  if (markup.includes(ROUTE_PARAM_STAND_IN)) {
    throw new Error(`${route} shows its route parameter, which its page is served for every value of`);
  }
  return markup;
}

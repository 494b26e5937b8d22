import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyHelmetOptions } from '@fastify/helmet';
import { CSP_NONCE_PLACEHOLDER } from '@frontdoor/contract';
import { ConfigError, type AppConfig } from '../config.ts';
import { IDENTITY_PAGE_STYLE } from '../identity/html.ts';
import { PAGE_STYLE } from './html.ts';

/**
 * What the hosted translation widget (Weglot, apps/web/src/lib/i18n/service.ts) calls besides its
 * script's origin (which serves its script, project settings and stylesheet): the translation API and
 * the page-view counter. Its own error logging (Datadog) stays refused: it would send page URLs away.
 */
export const TRANSLATION_WIDGET_ENDPOINTS = ['https://cdn-api-weglot.com', 'https://api.weglot.com'];

const nonces = new WeakMap<ServerResponse, string>();

/** The style nonce of one response: its CSP header and its index.html carry the same one. */
export function styleNonce(res: ServerResponse): string {
  let nonce = nonces.get(res);
  if (!nonce) {
    nonce = randomBytes(16).toString('base64');
    nonces.set(res, nonce);
  }
  return nonce;
}

/** A CSP hash source for the text of one <style> element. */
export const styleHash = (css: string): string =>
  `'sha256-${createHash('sha256').update(css).digest('base64')}'`;

function originOf(name: string, value: string): string {
  const url = URL.parse(value);
  if (!url || !['https:', 'http:'].includes(url.protocol))
    throw new ConfigError(`${name} must be an http(s) URL, got ${value}`);
  return url.origin;
}

/** The CSP: the portal's own origin, and another origin only for a widget that is configured. */
export function cspDirectives(config: AppConfig) {
  // the SPA loads the widget only with both a key and a script (lib/i18n/index.ts)
  const widget =
    config.translationKey && config.translationScriptUrl
      ? originOf('TRANSLATION_SCRIPT_URL', config.translationScriptUrl)
      : null;
  const errorReporting = config.sentryDsn ? originOf('SENTRY_DSN', config.sentryDsn) : null;
  const widgetOrigin = widget ? [widget] : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...widgetOrigin],
    // No 'unsafe-inline': the SPA's <style> elements carry this response's nonce (index.html's meta),
    // the server's own pages have one fixed stylesheet each. The widget's injected <style> elements
    // (dashboard custom CSS, its text-hiding transition) are refused; its stylesheet is allowed.
    styleSrc: [
      "'self'",
      (_req: IncomingMessage, res: ServerResponse) => `'nonce-${styleNonce(res)}'`,
      styleHash(PAGE_STYLE),
      styleHash(IDENTITY_PAGE_STYLE),
      ...widgetOrigin,
    ],
    // React's style props go through the CSSOM, which CSP does not govern; no markup needs style="…"
    styleSrcAttr: ["'none'"],
    // data: for the images Vite inlines into the bundle
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'"],
    connectSrc: [
      "'self'",
      ...(widget ? [widget, ...TRANSLATION_WIDGET_ENDPOINTS] : []),
      ...(errorReporting ? [errorReporting] : []),
    ],
    // session replay compresses in a worker started from a blob: URL
    ...(errorReporting ? { workerSrc: ["'self'", 'blob:'] } : {}),
    // every form of the portal posts to itself; sign-ins leave for providers by GET redirects
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    ...(config.cookieSecure ? { upgradeInsecureRequests: [] } : {}),
  };
}

/** @fastify/helmet's options: the CSP above and the headers agreeing with it. */
export function securityHeaders(config: AppConfig): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config) },
    // the same as frame-ancestors 'none', for browsers that only know X-Frame-Options
    frameguard: { action: 'deny' },
    // the authorization server and providers are other origins reached by top-level navigation
    crossOriginEmbedderPolicy: false,
    hsts: config.cookieSecure,
  };
}

/** index.html as built, read once: each answer puts its response's nonce in place of the placeholder. */
export function indexHtmlTemplate(html: string): (nonce: string) => string {
  const parts = html.split(CSP_NONCE_PLACEHOLDER);
  return (nonce) => parts.join(nonce);
}

import { createHash, randomBytes } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import { CSP_NONCE_PLACEHOLDER } from '@frontdoor/contract';
import { ConfigError, type AppConfig } from '../config.ts';
import { IDENTITY_PAGE_STYLE } from '../identity/pages.ts';
import { PAGE_STYLE } from './html.ts';

/**
 * What the hosted translation widget (Weglot, apps/web/src/lib/i18n/service.ts) calls besides its
 * script's origin (which serves its script, project settings and stylesheet): the translation API and
 * the page-view counter. Its own error logging (Datadog) stays refused: it would send page URLs away.
 */
export const TRANSLATION_WIDGET_ENDPOINTS = ['https://cdn-api-weglot.com', 'https://api.weglot.com'];

const nonces = new WeakMap<ServerResponse, string>();
const CSP = 'content-security-policy';
/** How the CSP's style-src and script-src start (cspDirectives): the nonce goes right after each. */
const NONCED_DIRECTIVES = ["style-src 'self'", "script-src 'self'"];

/**
 * The nonce of one page answer: its CSP header (style-src and script-src) and its page's <style> and
 * <script> elements carry the same one. Only pages ask for one, so only they pay for it; every other
 * answer keeps the CSP computed at start, without one.
 */
export function pageNonce(res: ServerResponse): string {
  let nonce = nonces.get(res);
  if (!nonce) {
    nonce = randomBytes(16).toString('base64');
    nonces.set(res, nonce);
    let policy = res.getHeader(CSP);
    // without the header (none set yet) the page's styles and inline script are refused: it fails closed
    if (typeof policy === 'string') {
      for (const directive of NONCED_DIRECTIVES)
        policy = policy.replace(directive, `${directive} 'nonce-${nonce}'`);
      res.setHeader(CSP, policy);
    }
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
    // No 'unsafe-inline': the SPA's <style> elements carry their page's nonce (index.html's meta,
    // added by pageNonce), the server's own pages have one fixed stylesheet each. The widget's injected
    // <style> elements (dashboard custom CSS, its text-hiding transition) are refused; its stylesheet is allowed.
    styleSrc: ["'self'", styleHash(PAGE_STYLE), styleHash(IDENTITY_PAGE_STYLE), ...widgetOrigin],
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

/**
 * Every response's security headers, computed once at start: helmet's, with the CSP above and the
 * headers agreeing with it. Nothing in them depends on the request; a page adds its nonce (pageNonce).
 */
export function securityHeaders(config: AppConfig): [name: string, value: string][] {
  const res = new ServerResponse(new IncomingMessage(new Socket()));
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config) },
    // the same as frame-ancestors 'none', for browsers that only know X-Frame-Options
    frameguard: { action: 'deny' },
    // the authorization server and providers are other origins reached by top-level navigation
    crossOriginEmbedderPolicy: false,
    hsts: config.cookieSecure,
  })(res.req, res, () => undefined);
  return Object.entries(res.getHeaders()).map(([name, value]) => [name, String(value)]);
}

/**
 * The headers of a built, hashed file (a script, a stylesheet, an image): CSP, framing and referrer
 * rules govern documents, not files a document loads, so only what still applies is sent (no MIME
 * sniffing, same-origin loads, HSTS). Each of the first visit's files is smaller by about 1 kB.
 */
export function hashedFileHeaders(
  documentHeaders: [name: string, value: string][],
): [name: string, value: string][] {
  const kept = new Set([
    'x-content-type-options',
    'cross-origin-resource-policy',
    'strict-transport-security',
  ]);
  return documentHeaders.filter(([name]) => kept.has(name));
}

/** index.html as built, read once: each answer puts its response's nonce in place of the placeholder. */
export function indexHtmlTemplate(html: string): (nonce: string) => string {
  const parts = html.split(CSP_NONCE_PLACEHOLDER);
  return (nonce) => parts.join(nonce);
}

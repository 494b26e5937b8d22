import type { FastifyRequest } from 'fastify';
import { API_PREFIX, HASHED_DIR, apiPaths } from '@frontdoor/contract';
import type { AppConfig } from '../config.ts';

/**
 * Each request's policy (API or not, CSRF, cross-site check), decided from the route Fastify matched.
 * The raw URL is never trusted for this: the router decodes `/%61pi/` to `/api/`, so a check on the
 * raw URL would let the API run without its protections.
 */
export interface RoutePolicy {
  /** An API route: JSON only, counted by the flood guard. */
  api: boolean;
  /** A state-changing API call: the double-submit CSRF header is required. */
  csrf: boolean;
  /**
   * A GET that changes state (§7 keeps them GETs), or a page's form POST (the forgotPassword url):
   * refused when another site sends the browser.
   */
  sameSiteOnly: boolean;
  /** A call a product's pages make with the person's cookies (PRODUCT_CALLS): CORS_ORIGINS may. */
  productCall: boolean;
}

/**
 * The calls a product's pages make with the person's cookies (docs/identity.md, "Integrating a
 * product"): who is signed in, and signing out. No other call answers another origin, so a product's
 * page, or a script injected into it, cannot act as the person in the portal.
 */
export const PRODUCT_CALLS: ReadonlySet<string> = new Set([
  `${API_PREFIX}${apiPaths.sig}`,
  `${API_PREFIX}${apiPaths.cognitoLogout}`,
]);

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const isApiPath = (path: string): boolean => path.startsWith(API_PREFIX) || path === API_PREFIX.slice(0, -1);

/** The path as the router sees it (decoded, slashes collapsed), for requests no route matched. */
export function routedPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    decoded = path;
  }
  return decoded.replace(/\/{2,}/g, '/');
}

/**
 * A request for one of the build's hashed files (\`/static/…\`), as the router sees the path: it gets a
 * file's headers, no CSRF cookie, and never a page in place of a missing file.
 */
export function isHashedFile(request: FastifyRequest): boolean {
  return !routePolicy(request).api && routedPath(request.url).startsWith(`/${HASHED_DIR}/`);
}

export function routePolicy(request: FastifyRequest): RoutePolicy {
  const pattern = request.routeOptions.url;
  const api = isApiPath(pattern ?? routedPath(request.url));
  return {
    api,
    csrf: api && UNSAFE_METHODS.has(request.method) && request.routeOptions.config?.csrf !== false,
    // the GETs of §7 (and of the identity side) that change something, and the identity side's form
    // POST, are marked where they are routed; HEAD runs the GET's handler (Fastify answers it for
    // every GET route): it is refused alike
    sameSiteOnly: request.routeOptions.config?.sameSiteOnly === true,
    productCall: pattern !== undefined && PRODUCT_CALLS.has(pattern),
  };
}

const originOf = (value: string | undefined): string | null => {
  if (!value || value === 'null') return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
};

/**
 * Whether a browser was sent by this portal (or a configured SPA origin) rather than another site.
 * Sec-Fetch-Site decides when the browser sends it; Origin, then Referer, otherwise. A request with
 * none of them (a non-browser client, an old browser) cannot be a cross-site forgery and passes.
 */
export function sentBySameSite(
  request: FastifyRequest,
  config: Pick<AppConfig, 'publicUrl' | 'corsOrigins'>,
  productCall = false,
): boolean {
  const trusted = new Set([new URL(config.publicUrl).origin, ...(productCall ? config.corsOrigins : [])]);
  const header = (name: string) => {
    const value = request.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const claimed = originOf(header('origin')) ?? originOf(header('referer'));
  const site = header('sec-fetch-site');
  if (site === 'same-origin' || site === 'none') return true;
  // another site, or another app of the same site (a sibling subdomain, another port): only a
  // product's origin (CORS_ORIGINS) on a product call passes, and only when the browser names it (a
  // top-level navigation sends no Origin and a page can drop its Referer, so naming nothing is no proof)
  if (site === 'cross-site' || site === 'same-site') return claimed !== null && trusted.has(claimed);
  return claimed === null || trusted.has(claimed);
}

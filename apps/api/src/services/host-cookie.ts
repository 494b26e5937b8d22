import type { FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_COOKIE } from '@frontdoor/contract';
import type { AppConfig } from '../config.ts';

/**
 * A cookie of this very host (SameSite=Lax, path '/', httpOnly unless `readableByScript`), named
 * `__Host-<name>` wherever cookies are Secure: a browser then takes it only from this host, so a
 * sibling subdomain (a district's other sites) cannot plant one (a session the person never started,
 * a sign-up browser that keeps a stranger's password, a CSRF token it knows). Without a ttl it lasts
 * as long as the browser's session.
 */
export function hostCookie(
  name: string,
  config: Pick<AppConfig, 'cookieSecure'>,
  {
    readableByScript = false,
    accepts = (_value: string): boolean => true,
  }: { readableByScript?: boolean; accepts?: (value: string) => boolean } = {},
) {
  const cookieName = config.cookieSecure ? `__Host-${name}` : name;
  const options = {
    path: '/',
    httpOnly: !readableByScript,
    sameSite: 'lax',
    secure: config.cookieSecure,
  } as const;
  return {
    /** The name the browser keeps it under (`__Host-<name>` where cookies are Secure). */
    name: cookieName,
    read: (request: FastifyRequest): string | undefined => {
      const value = request.cookies[cookieName];
      return value !== undefined && accepts(value) ? value : undefined;
    },
    /** Whether the browser sent this cookie at all, a token or not. */
    sent: (request: FastifyRequest): boolean => request.cookies[cookieName] !== undefined,
    set: (reply: FastifyReply, value: string, ttlMs?: number): void =>
      void reply.setCookie(
        cookieName,
        value,
        ttlMs === undefined ? options : { ...options, maxAge: Math.floor(ttlMs / 1000) },
      ),
    clear: (reply: FastifyReply): void => void reply.clearCookie(cookieName, options),
  };
}

/**
 * The double-submit CSRF token's cookie, which the SPA reads: it also names the browser an access
 * code's sign-in is bound to (services/cookie-hashes.ts), so no sibling subdomain may choose it.
 */
export const csrfCookie = (config: Pick<AppConfig, 'cookieSecure'>) =>
  hostCookie(CSRF_COOKIE, config, { readableByScript: true, accepts: isCsrfToken });

/**
 * A token as randomToken writes it (base64url). Any other value (a sibling site's cookie, a hand
 * edit, a byte no header may carry, which the answer's echo of it would turn into a 500 on every
 * page) is no token: the browser gets a new one.
 */
const isCsrfToken = (value: string): boolean => /^[\w-]{1,128}$/.test(value);

/**
 * Whether a refused request is a browser's that keeps none of this site's cookies (cookies blocked
 * for it, as a school's DefaultCookiesSetting=2 policy does): it sent no fd_csrf at all, which every
 * answer of the portal sets (one present but no token is no sign of that), though it follows a page
 * of the portal (Sec-Fetch-Site same-origin: a call of the SPA, a navigation it started) or, for a
 * sign-in step's `navigation`, a redirect chain that began on another site (a provider's answer, a
 * launch from a school's portal). Never a typed or pasted address (none) or a client that names
 * nothing. It names a refusal's cause (cookiesBlocked), or refuses a step whose outcome such a
 * browser could never use (accessCodes/login's hash); it lets nothing through.
 */
export function keepsNoCookies(
  request: FastifyRequest,
  config: Pick<AppConfig, 'cookieSecure'>,
  { navigation = false }: { navigation?: boolean } = {},
): boolean {
  const site = request.headers['sec-fetch-site'];
  const followsPage =
    site === 'same-origin' || (navigation && (site === 'cross-site' || site === 'same-site'));
  return followsPage && !csrfCookie(config).sent(request);
}

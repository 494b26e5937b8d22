import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config.ts';

/**
 * A cookie only this server reads (httpOnly, SameSite=Lax, path '/'), named `__Host-<name>` wherever
 * cookies are Secure: a browser then takes it only from this very host, so a sibling subdomain (a
 * district's other sites) cannot plant one (a session the person never started, a sign-up browser
 * that keeps a stranger's password).
 */
export function hostCookie(name: string, config: Pick<AppConfig, 'cookieSecure'>) {
  const cookieName = config.cookieSecure ? `__Host-${name}` : name;
  const options = { path: '/', httpOnly: true, sameSite: 'lax', secure: config.cookieSecure } as const;
  return {
    read: (request: FastifyRequest): string | undefined => request.cookies[cookieName],
    set: (reply: FastifyReply, value: string, ttlMs: number): void =>
      void reply.setCookie(cookieName, value, { ...options, maxAge: Math.floor(ttlMs / 1000) }),
    clear: (reply: FastifyReply): void => void reply.clearCookie(cookieName, options),
  };
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AS_ROUTES } from './authorization-server.ts';

type FormBody = Record<string, unknown> | undefined;

/**
 * POST <mountPath>/oauth2/authorize: the authorization request as a form (OpenID Connect Core
 * §3.1.2.1), as the portal's own pages send it, so the address a login_hint names stays out of every
 * URL a shared device's history keeps. oidc-provider takes a POST there only with SameSite=None
 * cookies (a POST from another site carries no Lax cookie, so it would not see the browser's
 * session): the portal takes it from its own pages only (sameSiteOnly) and hands it to the
 * authorization server as the GET of the same params, which answers 303. A product's authorize link
 * stays a GET, from any site.
 */
export function authorizeByForm(
  scope: FastifyInstance,
  mountPath: string,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): void {
  scope.post(
    `${mountPath}${AS_ROUTES.authorization}`,
    { config: { sameSiteOnly: true } },
    async (request: FastifyRequest<{ Body: FormBody }>, reply) => {
      const query = new URLSearchParams();
      // a repeated param stays repeated: the authorization server refuses it as for the GET
      for (const [name, value] of Object.entries(request.body ?? {}))
        for (const one of [value].flat()) if (typeof one === 'string') query.append(name, one);
      const url = `${AS_ROUTES.authorization}?${query.toString()}`;
      // oidc-provider reads its mount path from originalUrl, as middie hands every other request on
      Object.assign(request.raw, { method: 'GET', url, originalUrl: `${mountPath}${url}` });
      reply.hijack();
      await handle(request.raw, reply.raw);
    },
  );
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createCsrfLoginBody, gatewaySessionParams, loginCsrfParams } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { ApiError, ok, parseWith } from '../services/http.ts';
import { allowsReturnUrl, authenticateServiceProvider } from '../services/service-providers.ts';
import { createLoginRequest, findLoginParams } from '../services/login-requests.ts';
import { isSessionActive } from '../services/sessions.ts';
import { addressGuessFailed, assertServiceProviderCall, reserveAddressGuess } from '../services/limits.ts';

/**
 * A server-to-server call: HTTP Basic clientId:clientSecret instead of the browser's CSRF cookie,
 * limited per client id. Credentials naming no provider count as failures of the address; a known
 * provider's wrong secret does not (a product deployed with an old secret would otherwise lock out
 * its network, a school's sign-ins included): it counts per client id apart from the right ones, and
 * is logged for the operator.
 */
async function authenticatedProvider(ctx: AppContext, request: FastifyRequest, reply: FastifyReply) {
  const { sp, staleSecret } = await authenticateServiceProvider(ctx.db, request.headers.authorization);
  if (sp) {
    await assertServiceProviderCall(ctx, sp);
    return sp;
  }
  if (staleSecret) await assertServiceProviderCall(ctx, staleSecret, true);
  else addressGuessFailed(ctx, await reserveAddressGuess(ctx, request.ip));
  reply.header('www-authenticate', 'Basic realm="frontdoor-gateway"');
  throw new ApiError(401, 'serviceProviderAuthFailed');
}

export const gatewayRoutes =
  (ctx: AppContext) =>
  async (app: FastifyInstance): Promise<void> => {
    const serverToServer = { csrf: false, serverToServer: true };
    app.post('/gateway/createCsrfLogin', { config: serverToServer }, async (request, reply) => {
      const sp = await authenticatedProvider(ctx, request, reply);
      const body = parseWith(createCsrfLoginBody, request.body);
      if (!allowsReturnUrl(sp, body.url)) throw new ApiError(400, 'returnUrlNotAllowed');
      const csrf = await createLoginRequest(
        ctx.db,
        // kept percent-encoded, as every redirect to it must be sent
        { spId: sp.spId, url: new URL(body.url).href, isTeacher: body.isTeacher },
        ctx.now(),
      );
      return ok({ csrf });
    });

    // a product checks that the session its token names (`sid`) is still signed in
    app.get('/gateway/session/:sid', { config: serverToServer }, async (request, reply) => {
      await authenticatedProvider(ctx, request, reply);
      const { sid } = parseWith(gatewaySessionParams, request.params);
      return ok({ active: await isSessionActive(ctx.db, sid, ctx.now(), ctx.config.sessionIdleMs) });
    });

    app.get('/gateway/getCsrfLogin/:csrf', async (request) => {
      const { csrf } = parseWith(loginCsrfParams, request.params);
      const params = await findLoginParams(ctx.db, csrf, ctx.now());
      if (!params) throw new ApiError(404, 'loginRequestNotFound');
      return ok(params);
    });
  };

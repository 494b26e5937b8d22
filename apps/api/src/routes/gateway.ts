import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createCsrfLoginBody, gatewaySessionParams } from '@frontdoor/contract';
import * as z from 'zod/mini';
import type { AppContext } from '../context.ts';
import { ApiError, ok, parseWith } from '../services/http.ts';
import { allowsReturnUrl, authenticateServiceProvider } from '../services/service-providers.ts';
import { createLoginRequest, findLoginParams } from '../services/login-requests.ts';
import { isSessionActive } from '../services/sessions.ts';
import {
  addressGuessFailed,
  assertServiceProviderCall,
  releaseAddressGuess,
  reserveAddressGuess,
} from '../services/limits.ts';

const csrfParams = z.object({ csrf: z.string().check(z.minLength(1), z.maxLength(200)) });

/**
 * A server-to-server call: HTTP Basic clientId:clientSecret instead of the browser's CSRF cookie;
 * limited per client id, and wrong credentials count as failures of the address.
 */
async function authenticatedProvider(ctx: AppContext, request: FastifyRequest, reply: FastifyReply) {
  const guess = await reserveAddressGuess(ctx, request.ip);
  const sp = await authenticateServiceProvider(ctx.db, request.headers.authorization);
  if (!sp) {
    addressGuessFailed(ctx, guess);
    reply.header('www-authenticate', 'Basic realm="frontdoor-gateway"');
    throw new ApiError(401, 'serviceProviderAuthFailed');
  }
  await releaseAddressGuess(ctx, guess);
  await assertServiceProviderCall(ctx, sp);
  return sp;
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
      const { csrf } = parseWith(csrfParams, request.params);
      const params = await findLoginParams(ctx.db, csrf, ctx.now());
      if (!params) throw new ApiError(404, 'loginRequestNotFound');
      return ok(params);
    });
  };

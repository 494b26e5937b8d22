import type { FastifyInstance } from 'fastify';
import { accessCodeParams } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { ApiError, ok, parseWith } from '../services/http.ts';
import { keepsNoCookies } from '../services/host-cookie.ts';
import { accessCodeLogin } from '../services/access-codes.ts';

export const accessCodeRoutes =
  (ctx: AppContext) =>
  async (app: FastifyInstance): Promise<void> => {
    app.get('/accessCodes/login/:code/:sp_id', { config: { sameSiteOnly: true } }, async (request) => {
      const params = parseWith(accessCodeParams, request.params);
      // the hash is bound to the browser's fd_csrf (auth/cookie): a browser that keeps no cookies
      // could never redeem it, so no code is looked up (nor a guess counted) for it
      if (keepsNoCookies(request, ctx.config)) throw new ApiError(403, 'cookiesBlocked');
      const { cookieHash, spId } = await accessCodeLogin(ctx, {
        code: params.code.toUpperCase(),
        spId: params.sp_id,
        address: request.ip,
        browser: request.csrfToken,
      });
      return ok({ cookie_hash: cookieHash, sp_id: spId });
    });
  };

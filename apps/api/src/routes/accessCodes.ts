import type { FastifyInstance } from 'fastify';
import { accessCodeParams, messages } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { ApiError, ok, parseWith } from '../services/http.ts';
import { createCookieHash, findAccessCode } from '../services/access-codes.ts';
import { findServiceProvider } from '../services/service-providers.ts';
import { strictRateLimit } from '../services/rate-limits.ts';

export const accessCodeRoutes =
  (ctx: AppContext) =>
  async (app: FastifyInstance): Promise<void> => {
    app.get('/accessCodes/login/:code/:sp_id', { config: strictRateLimit(ctx.config) }, async (request) => {
      const params = parseWith(accessCodeParams, request.params);
      const row = await findAccessCode(ctx.db, params.code.toUpperCase());
      if (!row) throw new ApiError(404, 'accessCodeNotFound');
      if (row.sp_id !== params.sp_id) {
        const owner = await findServiceProvider(ctx.db, row.sp_id);
        throw new ApiError(
          400,
          'accessCodeWrongProviderPrefix',
          `${messages.accessCodeWrongProviderPrefix} ${owner?.name ?? row.sp_id}`,
        );
      }
      const cookieHash = await createCookieHash(ctx.db, row.user_id, row.sp_id, ctx.now());
      return ok({ cookie_hash: cookieHash, sp_id: row.sp_id });
    });
  };

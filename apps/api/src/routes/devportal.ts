import type { FastifyInstance } from 'fastify';
import { inviteCodeParams } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { ApiError, ok, parseWith } from '../services/http.ts';
import { findInviteEmail } from '../services/invites.ts';

export const devportalRoutes =
  (ctx: AppContext) =>
  async (app: FastifyInstance): Promise<void> => {
    app.get('/devportal/getInviteEmail/:code', async (request) => {
      const { code } = parseWith(inviteCodeParams, request.params);
      const email = await findInviteEmail(ctx, code);
      if (email === undefined) throw new ApiError(404, 'inviteNotFound');
      return ok({ email });
    });
  };

import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import type { AppContext } from '../context.ts';
import { ApiError, ok, parseWith } from '../services/http.ts';
import { findInviteEmail } from '../services/invites.ts';

const inviteParams = z.object({ code: z.string().check(z.minLength(1), z.maxLength(128)) });

export const devportalRoutes =
  (ctx: AppContext) =>
  async (app: FastifyInstance): Promise<void> => {
    app.get('/devportal/getInviteEmail/:code', async (request) => {
      const { code } = parseWith(inviteParams, request.params);
      const email = await findInviteEmail(ctx, code);
      if (email === undefined) throw new ApiError(404, 'inviteNotFound');
      return ok({ email });
    });
  };

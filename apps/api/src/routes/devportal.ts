import type { FastifyInstance } from 'fastify';
import { inviteCodeParams } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { ApiError, ok, parseWith } from '../services/http.ts';
import { readInvite } from '../services/invites.ts';

export const devportalRoutes =
  (ctx: AppContext) =>
  async (app: FastifyInstance): Promise<void> => {
    app.get('/devportal/getInviteEmail/:code', async (request) => {
      const { code } = parseWith(inviteCodeParams, request.params);
      const invite = await readInvite(ctx, code);
      if (invite.state === 'accepted') throw new ApiError(409, 'inviteAccepted');
      if (invite.state === 'unknown') throw new ApiError(404, 'inviteNotFound');
      return ok({ email: invite.email });
    });
  };

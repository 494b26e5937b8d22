import type { FastifyInstance } from 'fastify';
import { realmBody, type MicrosoftAccountType } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { inProcessFetch } from '../identity/self-fetch.ts';
import { ok, parseWith } from '../services/http.ts';
import { lookupRealm } from '../services/realm.ts';

export const v2Routes =
  (ctx: AppContext) =>
  async (app: FastifyInstance): Promise<void> => {
    const fetchRealm = inProcessFetch(app, ctx.config.publicUrl);
    app.post('/v2/auth/microsoft-user-realm', async (request) => {
      const { email } = parseWith(realmBody, request.body);
      const { accountType, domain }: { accountType: MicrosoftAccountType; domain: string } =
        await lookupRealm(ctx, email, fetchRealm);
      return ok({ accountType, domain });
    });
  };

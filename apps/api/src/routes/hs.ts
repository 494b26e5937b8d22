import type { FastifyInstance } from 'fastify';
import { subscriptionBody } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { ok, parseWith } from '../services/http.ts';
import { requireOwnUser } from '../services/current-user.ts';
import { saveSubscriptions, storedSubscriptions } from '../services/crm.ts';

export const hsRoutes =
  (ctx: AppContext) =>
  async (app: FastifyInstance): Promise<void> => {
    // beside the spec: the page starts from what is stored, so a box left unticked unsubscribes only
    // what the person saw ticked (the same refusals as the POST: a masquerade reads no one's)
    app.get('/hs/subscription', async (request) => {
      const user = await requireOwnUser(ctx, request);
      return ok({ subscriptions: await storedSubscriptions(ctx, user) });
    });
    app.post('/hs/subscription', async (request) => {
      const user = await requireOwnUser(ctx, request);
      const { subscriptionChanges } = parseWith(subscriptionBody, request.body);
      const outboxId = await saveSubscriptions(ctx, user, subscriptionChanges);
      // the preferences are saved either way; a failed forward stays in the outbox for its worker to retry
      const forwarded = outboxId !== null && (await ctx.outbox.deliver(outboxId));
      return ok({ saved: subscriptionChanges.length, forwarded });
    });
  };

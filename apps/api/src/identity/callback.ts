import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { DATABASE_BUSY_RETRY_MS } from '../services/database-busy.ts';
import { retryAfterSeconds } from '../services/limits.ts';
import { countLimitRefusal } from '../services/metrics.ts';
import { sessionsToEnd, setSessionCookie } from '../services/sessions.ts';
import { refusePage, refuseUnboundStep } from './pages.ts';
import { completeSignIn, existingBrowserBinding, type PortalCodeExchange } from './portal-login.ts';

/** Where a signed-in browser continues: the post-login questions of its login request. */
export const postLoginPath = (loginCsrf: string | null): string =>
  loginCsrf ? `/post-login/${encodeURIComponent(loginCsrf)}` : '/post-login';

/**
 * GET api/auth/callback?code&state — the portal client's redirect_uri. The state must exist, be
 * unused, unexpired and bound to this browser; a missing, reused or foreign state gets a clear
 * 400 page. Then the code is exchanged (PKCE) with the authorization server, the session cookie
 * is set and the browser continues to /post-login/<login csrf> (or /post-login). An exchange that
 * failed for now answers 503 serverBusy with Retry-After, the state given back: a reload goes on.
 */
export function callbackRoute(api: FastifyInstance, ctx: AppContext, exchange: PortalCodeExchange): void {
  api.get('/auth/callback', async (request, reply) => {
    const outcome = await completeSignIn(
      ctx,
      exchange,
      {
        search: new URL(request.url, 'http://x').search,
        binding: existingBrowserBinding(request, ctx.config),
        previousSessions: sessionsToEnd(request, ctx.config),
        address: request.ip,
      },
      request.log,
    );
    if (outcome.refused === 'state') return refuseUnboundStep(request, reply, ctx.config);
    if (outcome.refused === 'busy') {
      countLimitRefusal('serverBusy');
      reply.header('retry-after', retryAfterSeconds(DATABASE_BUSY_RETRY_MS));
      return refusePage(request, reply, 'serverBusy', { status: 503 });
    }
    if (outcome.refused === 'upstream') return refusePage(request, reply, 'upstreamFailed');
    if (outcome.refused === 'provider') return refusePage(request, reply, 'upstreamRefused');
    if (outcome.refused === 'disabled') return refusePage(request, reply, 'accountDisabled', { status: 403 });
    setSessionCookie(reply, outcome.session, ctx.config);
    reply.header('cache-control', 'no-store');
    return reply.redirect(postLoginPath(outcome.loginCsrf), 303);
  });
}

import type { FastifyInstance } from 'fastify';
import { messages } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { safeEqual } from '../services/crypto.ts';
import { replaceSession, sessionTokenOf, setSessionCookie } from '../services/sessions.ts';
import { findUserById } from '../services/users.ts';
import { refusePage } from './interactions.ts';
import { existingBrowserBinding, type PortalCodeExchange } from './portal-login.ts';

/** Where a signed-in browser continues: the post-login questions of its login request. */
export const postLoginPath = (loginCsrf: string | null): string =>
  loginCsrf ? `/post-login/${encodeURIComponent(loginCsrf)}` : '/post-login';

/**
 * GET api/auth/callback?code&state — the portal client's redirect_uri. The state must exist, be
 * unused, unexpired and bound to this browser; a missing, reused or foreign state gets a clear
 * 400 page. Then the code is exchanged (PKCE) with the authorization server, the session cookie
 * is set and the browser continues to /post-login/<login csrf> (or /post-login).
 */
export function callbackRoute(api: FastifyInstance, ctx: AppContext, exchange: PortalCodeExchange): void {
  api.get('/auth/callback', async (request, reply) => {
    const url = new URL(request.url, 'http://x');
    const state = url.searchParams.get('state');
    const binding = existingBrowserBinding(request);
    const now = ctx.now();
    const row = state
      ? await ctx.db.selectFrom('federation_states').selectAll().where('state', '=', state).executeTakeFirst()
      : undefined;
    if (
      !state ||
      !row ||
      !binding ||
      row.used_at !== null ||
      row.expires_at <= now ||
      !safeEqual(row.browser_binding, binding)
    ) {
      return refusePage(reply);
    }
    // single use even when two requests race: only the one that flips used_at continues
    const claimed = await ctx.db
      .updateTable('federation_states')
      .set({ used_at: now })
      .where('state', '=', state)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return refusePage(reply);

    if (url.searchParams.has('error')) {
      request.log.info({ error: url.searchParams.get('error') }, 'authorization refused');
      return refusePage(reply, 400, messages.upstreamFailed);
    }
    let userId: string;
    try {
      userId = await exchange.exchange(url.search, state);
    } catch (err) {
      request.log.warn({ err }, 'code exchange failed');
      return refusePage(reply, 400, messages.upstreamFailed);
    }
    const user = await findUserById(ctx.db, userId);
    if (!user) return refusePage(reply, 400, messages.upstreamFailed);
    const token = await replaceSession(ctx.db, sessionTokenOf(request), user.id, now, {
      via: 'callback',
      address: request.ip,
    });
    setSessionCookie(reply, token, ctx.config);
    reply.header('cache-control', 'no-store');
    return reply.redirect(postLoginPath(row.login_csrf), 303);
  });
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  apiPaths,
  basicUserRoleParam,
  cookieQuery,
  isStorableText,
  validateEmailBody,
} from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { ApiError, ok, parseWith, sendError } from '../services/http.ts';
import { currentUser, requireOwnUser, sessionView } from '../services/current-user.ts';
import { emailStatusOf, findUserByEmail, setIsStudent } from '../services/users.ts';
import { sessionsToEnd, setSessionCookie } from '../services/sessions.ts';
import { redeemCookieHash } from '../services/cookie-hashes.ts';
import { findLoginParams } from '../services/login-requests.ts';
import { productOfOrigin } from '../services/service-providers.ts';
import { csrfCookie, keepsNoCookies } from '../services/host-cookie.ts';
import { refusePage } from '../identity/pages.ts';

/**
 * auth/cookie is reached by a browser redirect: a failure is a page for people (in their language),
 * an envelope for programs. The page's way back is the class-code page of the sign-in request when
 * the query names a live one (its answer lost on a failing network, the browser asked again for a hash
 * already spent: the student types the code again), else the login page.
 */
async function cookieFailure(request: FastifyRequest, reply: FastifyReply, ctx: AppContext, error: ApiError) {
  if (!(request.headers.accept ?? '').includes('text/html'))
    return sendError(reply, error.statusCode, error.code, error.message, error.extras);
  const { token } = request.query as { token?: unknown };
  // a live request: the class-code page opens it again (past its hour it would refuse it too)
  const live =
    typeof token === 'string' && isStorableText(token) && (await findLoginParams(ctx.db, token, ctx.now()));
  return refusePage(request, reply, error.code, {
    status: error.statusCode,
    href: live
      ? `${ctx.config.publicUrl}/access-code/${encodeURIComponent(token)}`
      : `${ctx.config.publicUrl}/log-in`,
  });
}

export const authRoutes =
  (ctx: AppContext) =>
  async (app: FastifyInstance): Promise<void> => {
    app.post(`/${apiPaths.validateEmail}`, async (request) => {
      const { email } = parseWith(validateEmailBody, request.body);
      return ok(emailStatusOf(await findUserByEmail(ctx.db, email)));
    });

    app.get(`/${apiPaths.sig}`, async (request) => {
      const signedIn = await currentUser(ctx, request);
      const product = signedIn
        ? await productOfOrigin(ctx.db, request.headers.origin, ctx.config.publicUrl)
        : null;
      const view = await sessionView(ctx, signedIn, product);
      return { status: 'success', ...view };
    });

    app.get('/auth/setBasicUserRole/:isStudent', { config: { sameSiteOnly: true } }, async (request) => {
      const { isStudent } = parseWith(basicUserRoleParam, request.params);
      const user = await requireOwnUser(ctx, request);
      return ok({ isStudent: await setIsStudent(ctx, user.id, isStudent === '1') });
    });

    app.get(`/${apiPaths.cookie}`, async (request, reply) => {
      // the redirect carries a sign-in: its URL (the hash) is never sent on as a referrer
      reply.header('referrer-policy', 'no-referrer');
      try {
        const query = parseWith(cookieQuery, request.query);
        // percent-encoded as a Location header must be (a course named 数学), before the hash is spent
        const returnUrl = new URL(query.return_url).href;
        // the hash is bound to this browser's fd_csrf: a browser that keeps no cookies never has one
        if (keepsNoCookies(request, ctx.config)) throw new ApiError(403, 'cookiesBlocked');
        const token = await redeemCookieHash(ctx, {
          hash: query.hash,
          returnUrl,
          token: query.token,
          browser: csrfCookie(ctx.config).read(request),
          previousSessions: sessionsToEnd(request, ctx.config),
          address: request.ip,
        });
        setSessionCookie(reply, token, ctx.config);
        return reply.redirect(returnUrl, 302);
      } catch (error) {
        if (error instanceof ApiError) return cookieFailure(request, reply, ctx, error);
        throw error;
      }
    });
  };

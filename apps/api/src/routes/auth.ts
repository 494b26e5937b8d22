import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiPaths, basicUserRoleParam, cookieQuery, validateEmailBody } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { ApiError, errorBody, ok, parseWith } from '../services/http.ts';
import { currentUser, requireUser, sessionView } from '../services/current-user.ts';
import { emailStatusOf, findUserByEmail } from '../services/users.ts';
import { replaceSession, sessionTokenOf, setSessionCookie } from '../services/sessions.ts';
import { sha256 } from '../services/crypto.ts';
import { allowsReturnUrl, findServiceProvider } from '../services/service-providers.ts';
import { findLoginParams } from '../services/login-requests.ts';
import { escapeHtml, htmlPage } from '../services/html.ts';

/** auth/cookie is reached by a browser redirect: a failure is a page for people, an envelope for programs. */
function cookieFailure(request: FastifyRequest, reply: FastifyReply, ctx: AppContext, error: ApiError) {
  reply.code(error.statusCode);
  if ((request.headers.accept ?? '').includes('text/html')) {
    const body = `<h1>Sign-in could not be completed</h1><p>${escapeHtml(error.message)}</p>
<p><a href="${escapeHtml(`${ctx.config.publicUrl}/log-in`)}">Return to sign-in</a></p>`;
    return reply.type('text/html; charset=utf-8').send(htmlPage('Sign-in could not be completed', body));
  }
  return reply.send(errorBody(error.code, error.message));
}

export const authRoutes =
  (ctx: AppContext) =>
  async (app: FastifyInstance): Promise<void> => {
    app.post(`/${apiPaths.validateEmail}`, async (request) => {
      const { email } = parseWith(validateEmailBody, request.body);
      return ok(emailStatusOf(await findUserByEmail(ctx.db, email)));
    });

    app.get(`/${apiPaths.sig}`, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const view = await sessionView(ctx, await currentUser(ctx, request));
      return { status: 'success', ...view };
    });

    app.get('/auth/setBasicUserRole/:isStudent', async (request) => {
      const { isStudent } = parseWith(basicUserRoleParam, request.params);
      const { user } = await requireUser(ctx, request);
      const value = isStudent === '1' ? 1 : 0;
      await ctx.db
        .updateTable('users')
        .set({ is_student: value, updated_at: ctx.now() })
        .where('id', '=', user.id)
        .execute();
      return ok({ isStudent: value === 1 });
    });

    app.get(`/${apiPaths.cookie}`, async (request, reply) => {
      try {
        const query = parseWith(cookieQuery, request.query);
        const now = ctx.now();
        const digest = sha256(query.hash);
        const row = await ctx.db
          .selectFrom('cookie_hashes')
          .selectAll()
          .where('hash_digest', '=', digest)
          .where('used_at', 'is', null)
          .where('expires_at', '>', now)
          .executeTakeFirst();
        if (!row?.sp_id) throw new ApiError(400, 'cookieHashInvalid');
        const sp = await findServiceProvider(ctx.db, row.sp_id);
        if (!sp) throw new ApiError(400, 'cookieHashInvalid');
        if (!allowsReturnUrl(sp, query.return_url)) throw new ApiError(400, 'returnUrlNotAllowed');
        // token is the login csrf the SPA holds: it must be a live request of the same service provider
        if (query.token) {
          const params = await findLoginParams(ctx.db, query.token, now);
          if (!params || params.sp_id !== sp.spId) throw new ApiError(400, 'loginRequestNotFound');
        }
        const token = await ctx.db.transaction().execute(async (trx) => {
          const used = await trx
            .updateTable('cookie_hashes')
            .set({ used_at: now })
            .where('hash_digest', '=', digest)
            .where('used_at', 'is', null)
            .executeTakeFirst();
          // a concurrent request redeemed it first
          if (Number(used.numUpdatedRows) !== 1) throw new ApiError(400, 'cookieHashInvalid');
          return replaceSession(trx, sessionTokenOf(request), row.user_id, now);
        });
        setSessionCookie(reply, token, ctx.config);
        return reply.redirect(query.return_url, 302);
      } catch (error) {
        if (error instanceof ApiError) return cookieFailure(request, reply, ctx, error);
        throw error;
      }
    });
  };

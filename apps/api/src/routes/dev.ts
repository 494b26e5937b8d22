import type { FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import * as z from 'zod/mini';
import { DEV_SP_PATH, EMAIL_MAX_LENGTH, storableText } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { ApiError, parseWith } from '../services/http.ts';
import { html, htmlPage } from '../services/html.ts';
import { listMailbox } from '../services/mailbox.ts';
import { currentUser, sessionView } from '../services/current-user.ts';
import { DEMO_SP } from '../services/demo.ts';
import { DEV_SP_LOG_IN_PATH, DEV_SP_SIGN_OUT_PATH, devSpBody } from '../services/dev-sp.ts';
import { findServiceProvider } from '../services/service-providers.ts';
import { createLoginRequest } from '../services/login-requests.ts';
import { clearSessionCookie, revokeSessions, sessionsToEnd } from '../services/sessions.ts';
import { sentBySameSite } from '../services/route-policy.ts';

const mailboxQuery = z.object({
  to: z.optional(z.string().check(z.maxLength(EMAIL_MAX_LENGTH), storableText())),
});

/** Development-only pages; in production they answer 404 (and never reach the SPA fallback). */
export const devRoutes =
  (ctx: AppContext) =>
  async (app: FastifyInstance): Promise<void> => {
    const enabled = !ctx.config.production && ctx.config.devMailbox;

    app.get('/dev/mailbox.json', async (request, reply) => {
      if (!enabled) throw new ApiError(404, 'notFound');
      const { to } = parseWith(mailboxQuery, request.query);
      reply.header('cache-control', 'no-store');
      return listMailbox(ctx.db, to);
    });

    app.get('/dev/mailbox', async (request, reply) => {
      if (!enabled) throw new ApiError(404, 'notFound');
      const { to } = parseWith(mailboxQuery, request.query);
      const messages = await listMailbox(ctx.db, to);
      const items = messages.map(
        (m) => html`<article><h2>${m.subject}</h2>
<p class="meta">To ${m.to} · ${new Date(m.sentAt).toISOString()}</p>
<pre>${m.text}</pre></article>
`,
      );
      const body = html`<h1>Development mailbox</h1>
<p>Mail the portal sent while no SMTP server is configured, newest first. JSON: <a href="/dev/mailbox.json">/dev/mailbox.json</a></p>
${items.length ? items : html`<p>No messages yet.</p>`}`;
      reply.header('cache-control', 'no-store');
      return reply.type('text/html; charset=utf-8').send(htmlPage('Development mailbox', body));
    });

    // The demo product of `npm run seed` (services/demo.ts): its return page, on every development server
    const demo = !ctx.config.production;
    // the sign-out form posts an empty urlencoded body; only this scope reads that type
    await app.register(formbody);

    app.get(DEV_SP_PATH, async (request, reply) => {
      if (!demo) throw new ApiError(404, 'notFound');
      const view = await sessionView(ctx, await currentUser(ctx, request));
      const ready = (await findServiceProvider(ctx.db, DEMO_SP.spId)) !== undefined;
      reply.header('cache-control', 'no-store');
      return reply
        .type('text/html; charset=utf-8')
        .send(htmlPage(DEMO_SP.name, await devSpBody(ctx, view, ready)));
    });

    // what a product's "Sign in" button does: a new login request, then the portal's sign-in page
    app.get(DEV_SP_LOG_IN_PATH, async (_request, reply) => {
      if (!demo) throw new ApiError(404, 'notFound');
      if (!(await findServiceProvider(ctx.db, DEMO_SP.spId))) return reply.redirect(DEV_SP_PATH, 303);
      const csrf = await createLoginRequest(
        ctx.db,
        { spId: DEMO_SP.spId, url: `${ctx.config.publicUrl}${DEV_SP_PATH}`, isTeacher: false },
        ctx.now(),
      );
      return reply.redirect(`/log-in/${csrf}`, 303);
    });

    app.post(DEV_SP_SIGN_OUT_PATH, async (request, reply) => {
      if (!demo) throw new ApiError(404, 'notFound');
      // another site must not sign this browser out (no CSRF header on a plain form)
      if (!sentBySameSite(request, ctx.config)) throw new ApiError(403, 'crossSiteRequest');
      await revokeSessions(ctx.db, sessionsToEnd(request, ctx.config), ctx.now());
      clearSessionCookie(reply, ctx.config);
      return reply.redirect(DEV_SP_PATH, 303);
    });
  };

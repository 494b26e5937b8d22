import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { ApiError, parseWith } from '../services/http.ts';
import { escapeHtml, htmlPage } from '../services/html.ts';
import { listMailbox } from '../services/mailbox.ts';

const mailboxQuery = z.object({ to: z.string().max(254).optional() });

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
      const items = messages
        .map(
          (m) => `<article><h2>${escapeHtml(m.subject)}</h2>
<p class="meta">To ${escapeHtml(m.to)} · ${escapeHtml(new Date(m.sentAt).toISOString())}</p>
<pre>${escapeHtml(m.text)}</pre></article>`,
        )
        .join('\n');
      const body = `<h1>Development mailbox</h1>
<p>Mail the portal sent while no SMTP server is configured, newest first. JSON: <a href="/dev/mailbox.json">/dev/mailbox.json</a></p>
${items || '<p>No messages yet.</p>'}`;
      reply.header('cache-control', 'no-store');
      return reply.type('text/html; charset=utf-8').send(htmlPage('Development mailbox', body));
    });
  };

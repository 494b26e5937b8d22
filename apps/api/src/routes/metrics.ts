import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { safeEqual } from '../services/crypto.ts';
import { ApiError } from '../services/http.ts';
import { collectProcessMetrics, observeRequest, registry, scrape } from '../services/metrics.ts';

/**
 * METRICS=on: times every request (by its matched route) and serves GET /metrics to a scraper that
 * sends `Authorization: Bearer <METRICS_TOKEN>`; anyone else gets 401. Registered on the root
 * instance, before the routes, so its hook sees every one of them.
 */
export function registerMetrics(app: FastifyInstance, ctx: AppContext, token: string): void {
  collectProcessMetrics();
  // a callback hook: no promise per request
  app.addHook('onResponse', (request, reply, done) => {
    observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime);
    done();
  });
  const expected = `Bearer ${token}`;
  app.get('/metrics', async (request, reply) => {
    const sent = request.headers.authorization;
    if (typeof sent !== 'string' || !safeEqual(sent, expected)) {
      reply.header('www-authenticate', 'Bearer');
      throw new ApiError(401, 'forbidden');
    }
    const text = await scrape(ctx);
    return reply.header('cache-control', 'no-store').type(registry.contentType).send(text);
  });
}

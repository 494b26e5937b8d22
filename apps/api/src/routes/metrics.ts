import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { safeEqual } from '../services/crypto.ts';
import { requestLogged } from '../services/logger.ts';
import { ApiError } from '../services/http.ts';
import { collectProcessMetrics, observeRequest, registry, scrape } from '../services/metrics.ts';

/** `Bearer <token>`: the scheme in any case, as HTTP's schemes are (RFC 9110 §11.1). */
const BEARER = /^bearer +(.+)$/i;

/**
 * METRICS=on: times every request (by its matched route; returns how, for the requests whose client
 * left before their answer: app.ts) and serves GET /metrics to a scraper that
 * sends `Authorization: Bearer <METRICS_TOKEN>`; anyone else gets 401 notSignedIn. Registered on the root
 * instance, before the routes, so its hook sees every one of them.
 */
export function registerMetrics(
  app: FastifyInstance,
  ctx: AppContext,
  token: string,
): (request: FastifyRequest, reply: FastifyReply) => void {
  collectProcessMetrics();
  const timeRequest = (request: FastifyRequest, reply: FastifyReply) =>
    observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime);
  // a callback hook: no promise per request
  app.addHook('onResponse', (request, reply, done) => {
    // one whose client left first was timed then, with its 499 line (app.ts)
    if (!requestLogged(request.raw)) timeRequest(request, reply);
    done();
  });
  app.get('/metrics', async (request, reply) => {
    const sent = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (sent === undefined || !safeEqual(sent, token)) {
      reply.header('www-authenticate', 'Bearer');
      throw new ApiError(401, 'notSignedIn');
    }
    const text = await scrape(ctx);
    return reply.header('cache-control', 'no-store').type(registry.contentType).send(text);
  });
  return timeRequest;
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { MINUTE_MS, countedAddress, logLimitReached, retryAfterSeconds } from '../services/limits.ts';
import { AS_ROUTES } from './authorization-server.ts';
import { refusePage } from './pages.ts';

const AUTHORIZE_PATH = `/oidc${AS_ROUTES.authorization}`;
const PROVIDER_ANSWER_PREFIX = '/oidc/interaction/callback/';

/**
 * The longest authorization request (its query, or its form) the portal takes: a product's or the
 * SPA's needs well under a kilobyte, and each one is stored for an hour before anyone has signed in.
 */
export const AUTHORIZE_REQUEST_MAX_CHARS = 4096;

/**
 * A step that stores a sign-in before anyone has signed in: a new authorization request, a provider's
 * answer. HEAD runs a GET's handler, and oidc-provider's router ignores case and a trailing slash:
 * each is the same step.
 */
function signInStep(request: FastifyRequest): 'authorize' | 'provider answer' | null {
  if (!['GET', 'HEAD', 'POST'].includes(request.method)) return null;
  const path = (request.url.split('?', 1)[0] ?? '').toLowerCase().replace(/\/+$/, '');
  if (path === AUTHORIZE_PATH.toLowerCase()) return 'authorize';
  return path.startsWith(PROVIDER_ANSWER_PREFIX) ? 'provider answer' : null;
}

const requestChars = (request: FastifyRequest): number =>
  Math.max(request.url.length - AUTHORIZE_PATH.length, Number(request.headers['content-length'] ?? 0));

/**
 * The /oidc scope's first onRequest hook (before oidc-provider sees the request): the API's flood
 * guard counts API calls only, and these steps write a row each (an Interaction, a sign-in state)
 * that lives an hour, so one address could otherwise fill the database. They are counted per address
 * (LIMIT_SIGN_IN_STEPS_PER_MINUTE, allowlisted networks exempt) and an authorization request is held
 * to AUTHORIZE_REQUEST_MAX_CHARS. Either refusal is the portal's page in the person's language.
 */
export function signInStepGuard(ctx: AppContext) {
  const { limits, rateLimitMultiplier } = ctx.config;
  const max = Math.ceil(limits.signInStepsPerMinute * rateLimitMultiplier);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const step = signInStep(request);
    if (!step) return;
    if (step === 'authorize' && requestChars(request) > AUTHORIZE_REQUEST_MAX_CHARS)
      return refusePage(request, reply, 'payloadTooLarge', { status: 413 });
    if (ctx.limits.allowlisted(request.ip)) return;
    const now = ctx.now();
    const { count, expiresAt } = await ctx.limits.counters.hit(
      `sign-in-steps:${countedAddress(request.ip)}`,
      now,
      MINUTE_MS,
    );
    if (count <= max) return;
    const retryAfterMs = expiresAt - now;
    if (count === max + 1)
      logLimitReached(ctx.logger, {
        limit: 'sign-in steps',
        code: 'tooManyRequests',
        key: { key: 'address', address: request.ip },
        retryAfterMs,
      });
    reply.header('retry-after', retryAfterSeconds(retryAfterMs));
    return refusePage(request, reply, 'tooManyRequests', { status: 429 });
  };
}

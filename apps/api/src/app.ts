import { existsSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { API_PREFIX, CSRF_COOKIE, CSRF_HEADER, MAX_BODY_BYTES, messages } from '@frontdoor/contract';
import type { AppContext } from './context.ts';
import { ApiError, errorBody, isApiError } from './services/http.ts';
import { randomToken, safeEqual } from './services/crypto.ts';
import { portalConfig } from './services/portal-config.ts';
import { connectRedis } from './services/redis.ts';
import { registerIdentity } from './identity/index.ts';
import { authRoutes } from './routes/auth.ts';
import { cognitoRoutes } from './routes/cognito.ts';
import { devportalRoutes } from './routes/devportal.ts';
import { gatewayRoutes } from './routes/gateway.ts';
import { hsRoutes } from './routes/hs.ts';
import { accessCodeRoutes } from './routes/accessCodes.ts';
import { v2Routes } from './routes/v2.ts';
import { devRoutes } from './routes/dev.ts';
import { docsRoutes } from './routes/docs.ts';

export type { AppContext } from './context.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false exempts a state-changing route from the double-submit CSRF check (it authenticates otherwise). */
    csrf?: boolean;
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const REQUEST_ID = /^[\w.:-]{1,100}$/;

const isApiPath = (url: string): boolean => url.startsWith(API_PREFIX) || url === API_PREFIX.slice(0, -1);
const wantsHtml = (request: FastifyRequest): boolean => (request.headers.accept ?? '').includes('text/html');

/** Maps Fastify's own errors (parse, size, rate limit) and ours onto the envelope; never a stack. */
function errorHandler() {
  return (error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) => {
    if (isApiError(error)) {
      return reply.code(error.statusCode).send(errorBody(error.code, error.message));
    }
    const status = error.statusCode ?? 500;
    if (status === 413) return reply.code(413).send(errorBody('payloadTooLarge'));
    if (status === 429) return reply.code(429).send(errorBody('tooManyRequests'));
    if (status === 404) return reply.code(404).send(errorBody('notFound'));
    if (status >= 400 && status < 500) {
      request.log.info({ err: { code: error.code, message: error.message } }, 'bad request');
      return reply.code(status).send(errorBody('badRequest'));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorBody('internalError'));
  };
}

function contentSecurityPolicy(ctx: AppContext) {
  const scriptSrc = ["'self'"];
  if (ctx.config.translationScriptUrl) scriptSrc.push(new URL(ctx.config.translationScriptUrl).origin);
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc,
      // React sets style attributes and the translation widget injects styles
      styleSrc: ["'self'", "'unsafe-inline'", 'https:'],
      imgSrc: ["'self'", 'data:', 'https:'],
      fontSrc: ["'self'", 'data:', 'https:'],
      // API, error reporting and translation endpoints
      connectSrc: ["'self'", 'https:'],
      formAction: ["'self'", 'https:', ...(ctx.config.cookieSecure ? [] : ['http:'])],
      frameAncestors: ["'none'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      ...(ctx.config.cookieSecure ? { upgradeInsecureRequests: [] } : {}),
    },
  };
}

/** Serves the built SPA: hashed assets immutable, index.html revalidated, SPA fallback for page GETs. */
async function registerWeb(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const dist = ctx.config.webDist;
  const built = existsSync(path.join(dist, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: dist,
      prefix: '/',
      index: ['index.html'],
      cacheControl: false,
      setHeaders: (res, filePath) => {
        const rel = path.relative(dist, filePath).split(path.sep).join('/');
        res.header(
          'cache-control',
          rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const pageGet =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiPath(request.url) &&
      wantsHtml(request);
    if (!pageGet) return reply.code(404).send(errorBody('notFound'));
    if (!built) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send(
          `The web app is not built (${dist}/index.html is missing).\nRun \`npm run build\` and reload this page.\n`,
        );
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const { config } = ctx;
  const loggerInstance: FastifyBaseLogger = ctx.logger;
  const app = Fastify({
    loggerInstance,
    bodyLimit: MAX_BODY_BYTES,
    trustProxy: config.trustProxy,
    requestIdHeader: 'x-request-id',
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
  });

  app.setErrorHandler(errorHandler());
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await app.register(helmet, {
    contentSecurityPolicy: contentSecurityPolicy(ctx),
    // the authorization server and providers are other origins reached by top-level navigation
    crossOriginEmbedderPolicy: false,
    hsts: config.cookieSecure,
  });
  await app.register(cookie);
  if (config.corsOrigins.length) {
    await app.register(cors, {
      origin: config.corsOrigins,
      credentials: true,
      allowedHeaders: ['content-type', CSRF_HEADER, 'x-request-id', 'sentry-trace', 'baggage'],
      // a SPA on another origin cannot read fd_csrf; it reads the token from this header instead
      exposedHeaders: [CSRF_HEADER, 'x-request-id'],
    });
  }
  // with REDIS_URL every instance counts against the same limits; without, each process counts its own
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, ctx.logger) : undefined;
  if (redis) app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
  await app.register(rateLimit, {
    global: true,
    max: Math.ceil(300 * config.rateLimitMultiplier),
    timeWindow: '1 minute',
    // static files and pages are cheap; only the API is limited
    allowList: (request) => !isApiPath(request.url),
    errorResponseBuilder: () => new ApiError(429, 'tooManyRequests'),
    ...(redis && { redis, nameSpace: `${config.redisPrefix}rate-limit:`, skipOnError: true }),
  });

  // Double-submit CSRF: a readable cookie, echoed by the SPA in a header on every state-changing call.
  app.addHook('onRequest', async (request, reply) => {
    const cookieToken = request.cookies[CSRF_COOKIE];
    const token = cookieToken ?? randomToken(24);
    if (!cookieToken) {
      reply.setCookie(CSRF_COOKIE, token, {
        path: '/',
        sameSite: 'lax',
        secure: config.cookieSecure,
        httpOnly: false,
      });
    }
    reply.header(CSRF_HEADER, token);
    if (!UNSAFE_METHODS.has(request.method) || !isApiPath(request.url)) return;
    if (request.routeOptions.config?.csrf === false) return;
    const sent = request.headers[CSRF_HEADER];
    if (!cookieToken || typeof sent !== 'string' || !safeEqual(sent, cookieToken)) {
      throw new ApiError(403, 'forbidden');
    }
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await ctx.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .limit(1)
        .execute();
      return { status: 'ok' };
    } catch (err) {
      ctx.logger.warn({ err }, 'readiness check: database unreachable');
      return reply.code(503).send({ status: 'error', msg: messages.internalError, code: 'internalError' });
    }
  });
  app.get('/assets/cfg/config.json', async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return portalConfig(config);
  });

  await app.register(
    async (api) => {
      await api.register(authRoutes(ctx));
      await api.register(cognitoRoutes(ctx));
      await api.register(devportalRoutes(ctx));
      await api.register(gatewayRoutes(ctx));
      await api.register(hsRoutes(ctx));
      await api.register(accessCodeRoutes(ctx));
      await api.register(v2Routes(ctx));
      await api.register(docsRoutes(ctx));
    },
    { prefix: API_PREFIX.slice(0, -1) },
  );
  await app.register(devRoutes(ctx));
  await registerIdentity(app, ctx);
  await registerWeb(app, ctx);
  return app;
}

import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { assertWritable, databaseFileProblem } from './db/index.ts';
import { isUnstorableText } from './db/dialect.ts';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import {
  API_PREFIX,
  CSRF_HEADER,
  HASHED_DIR,
  MAX_BODY_BYTES,
  PRERENDER_DIR,
  REQUEST_ID_HEADER,
  negotiateLanguage,
} from '@frontdoor/contract';
import { scrubText, scrubUrl } from '@frontdoor/contract/scrub';
import type { AppContext } from './context.ts';
import { ApiError, errorBody, isApiError, sendError } from './services/http.ts';
import { browserTag, randomToken, safeEqual } from './services/crypto.ts';
import { csrfCookie, keepsNoCookies } from './services/host-cookie.ts';
import { portalConfig } from './services/portal-config.ts';
import { hashedFileHeaders, securityHeaders, pageNonce } from './services/security-headers.ts';
import { compressPage, isSpaPage, loadWebPages, pickEncoding } from './services/web-pages.ts';
import { askedLanguage } from './services/request-language.ts';
import { RequestLog, requestLogged, withRequestLog } from './services/logger.ts';
import { MINUTE_MS, countedAddress, logLimitReached, retryAfterSeconds } from './services/limits.ts';
import { countLimitRefusal } from './services/metrics.ts';
import { DISK_FULL_MS, diskFullLately, noteDiskFull } from './services/disk-full.ts';
import { newerReleaseMigrations } from './services/newer-release.ts';
import { DATABASE_BUSY_RETRY_MS, noteDatabaseBusy } from './services/database-busy.ts';
import {
  PRODUCT_CALLS,
  isHashedFile,
  routedPath,
  routePolicy,
  sentBySameSite,
} from './services/route-policy.ts';
import { createIdentityEngine, registerIdentity } from './identity/index.ts';
import { callbackRoute } from './identity/callback.ts';
import { passwordLoginRoute } from './identity/password-login.ts';
import { inProcessFetch, isSelfFetch } from './identity/self-fetch.ts';
import { authRoutes } from './routes/auth.ts';
import { cognitoRoutes } from './routes/cognito.ts';
import { devportalRoutes } from './routes/devportal.ts';
import { gatewayRoutes } from './routes/gateway.ts';
import { hsRoutes } from './routes/hs.ts';
import { accessCodeRoutes } from './routes/access-codes.ts';
import { v2Routes } from './routes/v2.ts';
import { devRoutes } from './routes/dev.ts';
import { docsRoutes } from './routes/docs.ts';
import { productKeyRoutes } from './routes/product-keys.ts';
import { registerMetrics } from './routes/metrics.ts';
import { socialRoutes } from './routes/social.ts';

export type { AppContext } from './context.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false exempts a state-changing route from the double-submit CSRF check (it authenticates otherwise). */
    csrf?: boolean;
    /**
     * A server-to-server call that authenticates its client every time and is limited per client id
     * (routes/gateway.ts); the flood guard leaves it to that.
     */
    serverToServer?: boolean;
    /**
     * A GET that changes something (ends a session, sets the student flag, sends a mail, trades a
     * code for a sign-in): another site must not make a browser call it (services/route-policy.ts).
     */
    sameSiteOnly?: boolean;
    /**
     * An answer the same for everyone that shared caches may keep (`Cache-Control: public`): no CSRF
     * cookie rides on it, or a cache would hand one browser's token to every other.
     */
    sharedCache?: boolean;
  }
  interface FastifyInstance {
    /**
     * A SIGTERM's first step (main.ts): /readyz answers 503 and every answer closes its connection,
     * so a load balancer moves the next requests to other instances while this one still answers.
     */
    drain(): void;
  }
  interface FastifyRequest {
    /** This browser's fd_csrf token (the cookie's, or the one this answer sets): binds auth/cookie's hashes. */
    csrfToken: string;
  }
}

const REQUEST_ID = /^[\w.:-]{1,100}$/;

/** The status a request's log line gives a client that was gone before its answer (nginx's 499). */
const CLIENT_GONE = 499;
const REQUEST_TIMED_OUT = 408;

/** What a load balancer or a monitor asks the server directly, past any proxy. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/** Node's default limit on a request's head (--max-http-header-size), its URL included. */
const MAX_URL_BYTES = 16 * 1024;

const wantsHtml = (request: FastifyRequest): boolean => (request.headers.accept ?? '').includes('text/html');

/** TRUST_PROXY for Fastify: a hop count trusts that many proxies nearest the server, never any client. */
function trustedProxies(setting: AppContext['config']['trustProxy']) {
  if (typeof setting !== 'number') return setting;
  return (_address: string, hop: number) => hop < setting;
}

/**
 * @fastify/rate-limit's store interface over the shared counters (Redis with a memory fallback),
 * keyed by the client's address. The first call over the limit logs that the guard refuses it.
 */
function floodStore(ctx: AppContext) {
  return class FloodStore {
    incr(
      address: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
      max: number,
    ) {
      const now = ctx.now();
      ctx.limits.counters.hit(`flood:${countedAddress(address)}`, now, timeWindow).then(
        ({ count, expiresAt }) => {
          if (count === max + 1)
            logLimitReached(ctx.logger, {
              limit: 'flood guard',
              code: 'tooManyRequests',
              key: { key: 'address', address },
              retryAfterMs: expiresAt - now,
            });
          callback(null, { current: count, ttl: expiresAt - now });
        },
        (error: Error) => callback(error),
      );
    }
    child() {
      return this;
    }
  };
}

/**
 * Node's answer to a request it cannot read (a broken chunk, an unknown method, headers past the
 * limit), given before Fastify has a request to hand it: the envelope, with the portal's security
 * headers, in place of Fastify's own body; then the connection closes, as Node's would.
 */
function clientErrorHandler(headers: [name: string, value: string][]) {
  return (error: NodeJS.ErrnoException, socket: Duplex) => {
    // a reset connection has no one left to answer
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const status =
      error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const body = JSON.stringify(errorBody(status === 431 ? 'payloadTooLarge' : 'badRequest'));
    if (socket.writable)
      socket.write(
        [
          `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
          'content-type: application/json; charset=utf-8',
          `content-length: ${Buffer.byteLength(body)}`,
          'connection: close',
          ...headers.map(([name, value]) => `${name}: ${value}`),
          '',
          body,
        ].join('\r\n'),
      );
    socket.destroy(error);
  };
}

/**
 * Maps Fastify's own errors (parse, size, a badly encoded URL) and ours onto the envelope; never a stack.
 * A database that cannot serve the request for now (a lock, no free connection, PostgreSQL unreachable)
 * is busy, as the argon2 queue is: 503 serverBusy with Retry-After, so the SPA keeps what was typed,
 * and a line saying what held it (noteDatabaseBusy).
 */
function errorHandler(ctx: AppContext) {
  return (error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) => {
    if (noteDatabaseBusy(ctx, request.log, error))
      error = new ApiError(503, 'serverBusy', undefined, DATABASE_BUSY_RETRY_MS);
    if (isApiError(error)) {
      if (error.statusCode === 429 || error.statusCode === 503) countLimitRefusal(error.code);
      if (error.retryAfterMs !== undefined)
        reply.header('retry-after', retryAfterSeconds(error.retryAfterMs));
      return sendError(reply, error.statusCode, error.code, error.message, error.extras);
    }
    // a path no file can have (`//`, `/./`, a NUL), refused by @fastify/static: as any unknown path,
    // the login page for a browser (§2), else 404
    if (error.code === 'FST_STATIC_FORBIDDEN_PATH') return reply.callNotFound();
    // a NUL that reached PostgreSQL past every schema and lookup: bad input, as SQLite takes it
    const status = isUnstorableText(error) ? 400 : (error.statusCode ?? 500);
    if (status === 413) return sendError(reply, 413, 'payloadTooLarge');
    if (status === 404) return sendError(reply, 404, 'notFound');
    if (status >= 400 && status < 500) {
      // Fastify's messages quote the URL (FST_ERR_BAD_URL), which can carry a code or an address
      request.log.info({ err: { code: error.code, message: scrubText(error.message) } }, 'bad request');
      return sendError(reply, status, 'badRequest');
    }
    // a full disk: said once a minute, not in a stack per request; 503, as it passes once space is freed
    if (noteDiskFull(ctx, request.log, error)) {
      reply.header('retry-after', retryAfterSeconds(DISK_FULL_MS));
      return sendError(reply, 503, 'internalError');
    }
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, 500, 'internalError');
  };
}

/**
 * Serves the built SPA: every file as built, compressed by the build (.br, .gz) and chosen by
 * Accept-Encoding; hashed files (Vite's static/) immutable, the rest revalidated. Pages are never
 * files: each page GET gets its prerendered page in the request's language (?locale, the menu's
 * cookie, Accept-Language) or the SPA shell, with config.json inlined and the answer's nonce.
 */
async function registerWeb(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const dist = ctx.config.webDist;
  const pages = loadWebPages(dist, portalConfig(ctx.config));
  if (pages) {
    // in production source maps are for error reporting, not for the public
    const publicFile = (pathName: string) => !(ctx.config.production && pathName.endsWith('.map'));
    // hashed files never change under their name: a browser keeps them a year and never asks again,
    // so validators and byte ranges would only add header bytes to the first load of every page
    await app.register(fastifyStatic, {
      root: path.join(dist, HASHED_DIR),
      prefix: `/${HASHED_DIR}/`,
      index: false,
      preCompressed: true,
      allowedPath: publicFile,
      maxAge: '365d',
      immutable: true,
      etag: false,
      lastModified: false,
      acceptRanges: false,
    });
    await app.register(fastifyStatic, {
      root: dist,
      prefix: '/',
      decorateReply: false,
      index: false,
      preCompressed: true,
      // pages (and what they are made from) and directories go to the page fallback
      allowedPath: (pathName) =>
        !pathName.endsWith('.html') &&
        !pathName.startsWith(`/${PRERENDER_DIR}/`) &&
        !pathName.startsWith(`/${HASHED_DIR}/`) &&
        !pathName.endsWith('/') &&
        publicFile(pathName),
      cacheControl: false,
      setHeaders: (reply) => reply.header('cache-control', 'no-cache'),
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const routed = routedPath(request.url);
    // a page's form sent by the browser itself, the page's script never having run (JavaScript off, a
    // filter blocking it): the SPA's forms post, so what was typed (a password, a class code) stays
    // out of the address bar, the history and proxy logs; the body is never read, the page comes again
    if (request.method === 'POST' && !routePolicy(request).api && isSpaPage(routed))
      // one leading slash: `//log-in` would be another site's address
      return reply.redirect(request.url.replace(/^\/+/, '/'), 303);
    const pageGet =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !routePolicy(request).api &&
      // the SPA's pages for any client (curl, an uptime check, a link checker); any other path is
      // the login page (§2) for a browser only, so a missing file or a mistyped link stays a 404
      (isSpaPage(routed) || wantsHtml(request));
    // a missing hashed file is never a page: the page's CSP would be missing from it
    if (!pageGet || isHashedFile(request)) return sendError(reply, 404, 'notFound');
    if (!pages) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send(
          `The web app is not built (${dist}/index.html is missing).\nRun \`npm run build\` and reload this page.\n`,
        );
    }
    const { languages, defaultLanguage } = pages.manifest;
    const language = negotiateLanguage(askedLanguage(request), languages, defaultLanguage);
    const body = pages.page(routed, language, pageNonce(reply.raw));
    const encoding = pickEncoding(request.headers['accept-encoding']);
    reply
      .header('cache-control', 'no-cache')
      .header('vary', pages.prerendered ? 'Accept-Encoding, Accept-Language, Cookie' : 'Accept-Encoding')
      .type('text/html; charset=utf-8');
    if (!encoding) return reply.send(body);
    return reply.header('content-encoding', encoding).send(compressPage(body, encoding));
  });
}

/** The time a whole request may take to arrive; a slow phone on a school network sends a form in seconds. */
export const REQUEST_TIMEOUT_MS = 60_000;

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const { config } = ctx;
  const loggerInstance: FastifyBaseLogger = ctx.logger;
  const handleError = errorHandler(ctx);
  const headers = securityHeaders(config);
  const requestLog = new RequestLog((csrfToken) => browserTag(config.secret, csrfToken));
  const app = Fastify({
    loggerInstance,
    logController: requestLog,
    bodyLimit: MAX_BODY_BYTES,
    // a request (headers and body) has a minute to arrive: a client trickling a byte at a time would
    // otherwise hold its connection, and a thousand of them every descriptor (Fastify's default is none)
    requestTimeout: REQUEST_TIMEOUT_MS,
    clientErrorHandler: clientErrorHandler(headers),
    trustProxy: trustedProxies(config.trustProxy),
    // false: with the header named here, Fastify would take any value sent and never ask genReqId
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers[REQUEST_ID_HEADER];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: {
      ignoreTrailingSlash: true,
      // longer than any URL Node accepts: a parameter is judged by its route's schema (a 5,000-digit
      // access code is a 400 accessCodeLength), never cut off by the router with Fastify's own 414
      maxParamLength: MAX_URL_BYTES,
    },
    // a request on a kept-alive connection after close() began is answered like any other (Fastify's
    // own 503 would be a bare body a proxy does not retry); its connection then closes
    return503OnClosing: false,
    // a URL the router cannot read (a bad %-escape): no hook runs, so its headers are set here
    frameworkErrors: (error, request, reply) => {
      for (const [name, value] of headers) reply.raw.setHeader(name, value);
      reply.header(REQUEST_ID_HEADER, request.id);
      return handleError(error, request, reply);
    },
  });

  app.setErrorHandler(handleError);
  const timeRequest = config.metricsToken ? registerMetrics(app, ctx, config.metricsToken) : undefined;

  // on the raw response, so that answers oidc-provider writes itself carry them too (the request id
  // finds the line of its internal error); a callback hook, like the others on every request: no
  // promise per request
  const fileHeaders = hashedFileHeaders(headers);
  let draining = false;
  app.decorate('drain', () => {
    draining = true;
  });
  // TRUST_PROXY says a proxy names each client (X-Forwarded-For): one that does not (nginx's
  // proxy_pass alone) makes every request the proxy's, a whole district sharing one address's limits
  let toldOfUnnamedClients = false;
  app.addHook('onRequest', (request, reply, done) => {
    // a client gone before its request is handled (a phone that lost its signal) has no address left
    // to count or allow: its request ends here, answered to no one, instead of failing every check
    if (request.ip === undefined) return void reply.code(CLIENT_GONE).send();
    // a client gone later, before its answer finished (a pupil signed in as the signal dropped): the
    // answer never finishes, and Fastify writes a request's line and runs onResponse only when one
    // does. Written and timed here instead, once, with the account and code noted so far
    reply.raw.once('close', () => {
      if (reply.raw.writableFinished || requestLogged(request.raw)) return;
      // unless the server ended it: a body that never finished arriving in time was answered 408
      // (clientErrorHandler), a trickling client's, not a pupil's lost signal
      const timedOut =
        (request.raw.socket.errored as NodeJS.ErrnoException | null)?.code === 'ERR_HTTP_REQUEST_TIMEOUT';
      reply.code(timedOut ? REQUEST_TIMED_OUT : CLIENT_GONE);
      timeRequest?.(request, reply);
      requestLog.requestCompleted(null, request, reply);
    });
    if (
      config.trustProxy !== false &&
      !toldOfUnnamedClients &&
      request.headers['x-forwarded-for'] === undefined &&
      !PROBES.has(request.url.split('?')[0] ?? '') &&
      // the server's own call to its authorization server (the callback's code exchange) has no proxy
      !isSelfFetch()
    ) {
      toldOfUnnamedClients = true;
      ctx.logger.warn(
        { url: scrubUrl(request.url), remoteAddress: request.raw.socket.remoteAddress },
        "TRUST_PROXY is set, but a request came without X-Forwarded-For: unless the proxy sends it, every client counts as the proxy's address in the abuse limits and the logs (docs/DEPLOYMENT.md shows an nginx block)",
      );
    }
    for (const [name, value] of isHashedFile(request) ? fileHeaders : headers)
      reply.raw.setHeader(name, value);
    if (draining) reply.raw.setHeader('connection', 'close');
    reply.raw.setHeader(REQUEST_ID_HEADER, request.id);
    withRequestLog(request, done);
  });
  await app.register(cookie);
  if (config.corsOrigins.length) {
    const productCors = {
      origin: config.corsOrigins,
      credentials: true,
      methods: ['GET'],
      // a fetch wrapper may send content-type on a GET too
      allowedHeaders: ['content-type', REQUEST_ID_HEADER, 'sentry-trace', 'baggage'],
      exposedHeaders: [REQUEST_ID_HEADER],
    };
    // a preflight has no route of its own (the plugin's OPTIONS *): its path decides
    await app.register(cors, {
      delegator: (request, answer) =>
        answer(null, PRODUCT_CALLS.has(routedPath(request.url)) ? productCors : { origin: false }),
    });
  }
  app.addHook('onClose', async () => ctx.limits.counters.close());
  // The flood guard: all API traffic of one address, sized for a whole school signing in at 8:00.
  // Guessing is bounded by the failure limits (services/limits.ts), not by this.
  await app.register(rateLimit, {
    global: true,
    max: Math.ceil(config.limits.floodRequestsPerMinute * config.rateLimitMultiplier),
    timeWindow: MINUTE_MS,
    // static files and pages are cheap; service providers are limited per client id instead
    allowList: (request) =>
      !routePolicy(request).api ||
      request.routeOptions.config.serverToServer === true ||
      ctx.limits.allowlisted(request.ip),
    keyGenerator: (request) => request.ip,
    store: floodStore(ctx),
    errorResponseBuilder: (_request, { ttl }) => new ApiError(429, 'tooManyRequests', undefined, ttl),
  });

  app.decorateRequest('csrfToken', '');
  const csrf = csrfCookie(config);
  // Double-submit CSRF: a readable cookie, echoed by the SPA in a header on every state-changing call.
  app.addHook('onRequest', async (request, reply) => {
    // a hashed file is the same for everyone and cached for a year: no token, no cookie
    if (isHashedFile(request)) return;
    const cookieToken = csrf.read(request);
    // nor on an answer shared caches keep, which the route's policy still guards
    if (!request.routeOptions.config.sharedCache) {
      const token = cookieToken ?? randomToken(24);
      if (!cookieToken) csrf.set(reply, token);
      reply.header(CSRF_HEADER, token);
      request.csrfToken = token;
    }
    const policy = routePolicy(request);
    if (policy.sameSiteOnly && !sentBySameSite(request, config, policy.productCall))
      throw new ApiError(403, 'crossSiteRequest');
    if (!policy.csrf) return;
    const sent = request.headers[CSRF_HEADER];
    if (!cookieToken || typeof sent !== 'string' || !safeEqual(sent, cookieToken)) {
      // the portal's own page, yet no cookie came at all: the browser keeps none (it may have no token
      // to echo either, before its first API answer), and every step would fail alike; refused all
      // the same, only said so
      throw new ApiError(403, keepsNoCookies(request, config) ? 'cookiesBlocked' : 'forbidden');
    }
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
    if (draining) return sendError(reply, 503, 'serverBusy');
    let newer: string[];
    try {
      // a round trip to the database, nothing it has to count or scan; a write that changes nothing,
      // as a failover that left DATABASE_URL on a replica answers reads and refuses every sign-in
      await assertWritable(ctx.db);
      // an old instance left running in a rolling upgrade: the start's check is long past
      newer = await newerReleaseMigrations(ctx);
    } catch (err) {
      request.log.warn({ err }, 'readiness check: database unreachable or read-only');
      return sendError(reply, 503, 'internalError');
    }
    if (newer.length) return sendError(reply, 503, 'internalError');
    // what this instance writes now is lost when it stops (main.ts logs what to do)
    const fileProblem = databaseFileProblem(ctx.db);
    if (fileProblem) {
      request.log.warn(fileProblem, 'readiness check: the database file is not the one the server writes to');
      return sendError(reply, 503, 'internalError');
    }
    // a write that changes nothing needs no space: a write refused for want of it tells (its error
    // line said so)
    if (diskFullLately(ctx.db, ctx.now())) return sendError(reply, 503, 'internalError');
    return { status: 'ok' };
  });
  app.get('/assets/cfg/config.json', async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return portalConfig(config);
  });

  // the composition root: the identity engine is built here and handed to the routes that use it
  const identity = await createIdentityEngine(ctx, inProcessFetch(app, config.publicUrl));
  await app.register(
    async (api) => {
      // API answers are about the person asking (a session, an email, an invite's address): never kept
      // in a shared device's cache; a route may say otherwise
      api.addHook('onRequest', async (_request, reply) => {
        reply.header('cache-control', 'no-store');
      });
      await api.register(authRoutes(ctx));
      await api.register(cognitoRoutes(ctx));
      await api.register(devportalRoutes(ctx));
      await api.register(gatewayRoutes(ctx));
      await api.register(hsRoutes(ctx));
      await api.register(accessCodeRoutes(ctx));
      await api.register(v2Routes(ctx));
      await api.register(docsRoutes(ctx));
      await api.register(socialRoutes(ctx, identity.secret));
      callbackRoute(api, ctx, identity.exchange);
      passwordLoginRoute(api, {
        ctx,
        provider: identity.provider,
        secret: identity.secret,
        sendReset: identity.sendReset,
      });
    },
    { prefix: API_PREFIX.slice(0, -1) },
  );
  await app.register(devRoutes(ctx));
  await app.register(productKeyRoutes(ctx));
  await registerIdentity(app, ctx, identity);
  await registerWeb(app, ctx);
  return app;
}

import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import {
  errors,
  interactionPolicy,
  type Configuration,
  type CookiesSetOptions,
  type Grant,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import { LANGUAGE_COOKIE, LOCALE_PARAM } from '@frontdoor/contract';
import { languageAsked } from '../services/request-language.ts';
import { noteOidcRefusal } from '../services/logger.ts';
import { DISK_FULL_MS, noteDiskFull } from '../services/disk-full.ts';
import { retryAfterSeconds } from '../services/limits.ts';
import { DATABASE_BUSY_RETRY_MS, noteDatabaseBusy } from '../services/database-busy.ts';
import { countLimitRefusal } from '../services/metrics.ts';
import type { AppContext } from '../context.ts';
import { failurePage, pageLanguage } from './pages.ts';

/**
 * oidc-provider builds its endpoints, redirects and interaction URLs from the request it serves
 * (Koa's `ctx.href`), not from its issuer. Its requests are given PUBLIC_URL's host and protocol
 * whatever arrived: the portal's own code exchange comes in process as plain HTTP, a proxy may send
 * its upstream's host, and a client may send an X-Forwarded-Host of its choosing. Koa reads the
 * protocol from X-Forwarded-Proto only as a proxy, so each provider is set as one (behindPinnedOrigin).
 */
export function pinPublicOrigin(publicUrl: string) {
  const { host, protocol } = new URL(publicUrl);
  const proto = protocol.replace(/:$/, '');
  return async (request: FastifyRequest): Promise<void> => {
    const headers = request.raw.headers;
    headers.host = host;
    headers['x-forwarded-proto'] = proto;
    delete headers['x-forwarded-host'];
  };
}

/**
 * Sets an oidc-provider to read the protocol pinPublicOrigin gives its requests. As a proxy Koa would
 * also take the client's address from X-Forwarded-For whatever TRUST_PROXY says; a header no one
 * sends leaves it the peer's (nothing reads it now: the device flow, its one reader, is off).
 */
export function behindPinnedOrigin(provider: Provider): void {
  provider.proxy = true;
  provider.proxyIpHeader = 'x-frontdoor-no-client-address';
}

/**
 * Consent is never asked: every client of these providers is first party. The grant the
 * consent prompt would create is created here instead (oidc-provider's recommended way).
 */
async function firstPartyGrant(ctx: KoaContextWithOIDC): Promise<Grant | undefined> {
  const { client, session, params } = ctx.oidc;
  if (!client || !session?.accountId) return undefined;
  const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
  const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
  const grant =
    existing ?? new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
  if (typeof params?.scope === 'string') grant.addOIDCScope(params.scope);
  await grant.save();
  return grant;
}

/**
 * Every authorization request authenticates afresh through the interaction: an earlier
 * provider session must never sign in a different person after the portal signed out, and
 * identity_provider must always decide how the user authenticates.
 */
export function freshLoginPolicy(): interactionPolicy.DefaultPolicy {
  const policy = interactionPolicy.base();
  policy
    .get('login')
    ?.checks.add(
      new interactionPolicy.Check('fresh_login', 'every authorization request signs in afresh', (ctx) =>
        ctx.oidc.result?.login
          ? interactionPolicy.Check.NO_NEED_TO_PROMPT
          : interactionPolicy.Check.REQUEST_PROMPT,
      ),
    );
  return policy;
}

/**
 * The provider keeps no sign-in between authorizations: once the resume step has answered (its
 * code is on the way to the client), the session ends. The portal's own session is the only
 * lasting sign-in, so the next person on a shared device never meets the previous one's provider
 * session (oidc-provider would first ask to sign that person out).
 */
export function forgetLoginOnceAuthorized(provider: Provider, cookieOptions: CookiesSetOptions): void {
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.oidc?.route !== 'resume' || !ctx.oidc.session) return;
    await ctx.oidc.session.destroy();
    // replaces the Set-Cookie the session handler wrote for this response
    ctx.cookies.set(provider.cookieName('session'), null, { ...cookieOptions, overwrite: true });
  });
}

/** The language of an error page oidc-provider answers: the request's (?locale, the menu's cookie, Accept-Language). */
const errorPageLanguage = (ctx: KoaContextWithOIDC) =>
  pageLanguage(
    languageAsked(ctx.query[LOCALE_PARAM], ctx.cookies.get(LANGUAGE_COOKIE), ctx.get('accept-language')),
  );

/** The app and the logger of each provider logErrors watches: what answerDatabaseBusy reads. */
const watched = new WeakMap<
  Provider,
  { app: Pick<AppContext, 'config' | 'db' | 'now'>; logger: FastifyBaseLogger }
>();

/** The request's own logger (middie hands it to the raw request, with its reqId), else the provider's. */
const requestLog = (ctx: KoaContextWithOIDC, logger: FastifyBaseLogger): FastifyBaseLogger =>
  (ctx.req as { log?: FastifyBaseLogger }).log ?? logger;

/** Each internal error's answer to answerDatabaseBusy, decided (and logged) once. */
const busyErrors = new WeakMap<object, boolean>();

/**
 * Whether oidc-provider's internal error `err` is the database unable to serve the request for now (a
 * lock held past lock_timeout, no free connection, PostgreSQL unreachable: noteDatabaseBusy, its line
 * written once); then the answer is 503 with Retry-After, as the API's. Both renderError and the
 * server_error event ask it, in either order (the authorization endpoint emits first, the others render first).
 */
function answerDatabaseBusy(ctx: KoaContextWithOIDC, err: unknown): boolean {
  const watch = ctx.oidc ? watched.get(ctx.oidc.provider) : undefined;
  if (!watch || typeof err !== 'object' || err === null) return false;
  let busy = busyErrors.get(err);
  if (busy === undefined) {
    busy = noteDatabaseBusy(watch.app, requestLog(ctx, watch.logger), err);
    if (busy) countLimitRefusal('serverBusy');
    busyErrors.set(err, busy);
  }
  if (busy) {
    ctx.status = 503;
    ctx.set('retry-after', String(retryAfterSeconds(DATABASE_BUSY_RETRY_MS)));
  }
  return busy;
}

/**
 * oidc-provider answers its own internal errors (a failed database write, a bug) with an error page
 * and emits them, nothing more: without this the log has only the request's 500 line. The line
 * goes through the request's own logger, which middie hands to the raw request, so it carries the
 * request id (`reqId`, the answer's x-request-id); `logger` is for a request that has none. As the
 * API does, a full disk answers 503 with Retry-After, and so does a database that cannot serve the
 * request for now (answerDatabaseBusy), its page saying serverBusy, "try again in a few seconds":
 * nothing was spent, so the same step asked again goes on. A refusal's OAuth error goes on its
 * request's line (noteOidcRefusal): JSON answers here, pages in renderError.
 */
export function logErrors(
  provider: Provider,
  app: Pick<AppContext, 'config' | 'db' | 'now'>,
  logger: FastifyBaseLogger,
): void {
  watched.set(provider, { app, logger });
  provider.on('server_error', (ctx: KoaContextWithOIDC, err: Error) => {
    const log = requestLog(ctx, logger);
    // a full disk has its own line, once a minute (services/disk-full.ts), and passes once space is
    // freed. The event comes from the error handler, which has set 500 and leaves the status be
    if (noteDiskFull(app, log, err)) {
      ctx.status = 503;
      ctx.set('retry-after', String(retryAfterSeconds(DISK_FULL_MS)));
      return;
    }
    if (answerDatabaseBusy(ctx, err)) return;
    log.error({ err, route: ctx.oidc?.route }, 'authorization server error');
  });
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.status >= 400 && typeof ctx.body === 'object' && ctx.body !== null)
      noteOidcRefusal(ctx.req, ctx.body as { error?: unknown; error_description?: unknown });
  });
}

/** Where "start again" sends a browser whose sign-in step is gone, when known; else the login page. */
export type StartAgainHref = (ctx: KoaContextWithOIDC) => Promise<string | undefined>;

/**
 * oidc-provider's error page in the portal's words and the person's language, never a stack trace. A
 * sign-in whose interaction is gone (over its hour, or its last step asked again after the answer
 * was lost on a failing network) is stateInvalid, "start again", without the engine's English words,
 * its button to `startAgain`'s page when it knows one (the portal's: the product's login page of the
 * browser's sign-in); a database busy for now is serverBusy, "try again in a few seconds"
 * (answerDatabaseBusy); its own failure (a database write failing) is internalError, "try again
 * later": no mistake of theirs.
 */
export const renderErrorWith =
  (startAgain?: StartAgainHref): NonNullable<Configuration['renderError']> =>
  async (ctx, out, error) => {
    noteOidcRefusal(ctx.req, out);
    ctx.type = 'html';
    const language = errorPageLanguage(ctx);
    if (error instanceof errors.SessionNotFound) {
      // a failed look-up (the database busy) keeps the page with its plain /log-in: a throw here would
      // escape oidc-provider's error handler as a bare 500 with no line
      const href = await startAgain?.(ctx).catch(() => undefined);
      ctx.body = failurePage(language, 'stateInvalid', href ? { href } : {});
      return;
    }
    if (out.error === 'server_error') {
      ctx.body = failurePage(language, answerDatabaseBusy(ctx, error) ? 'serverBusy' : 'internalError');
      return;
    }
    const detail = typeof out.error_description === 'string' ? out.error_description : undefined;
    ctx.body = failurePage(language, 'badRequest', { detail });
  };

/** Settings both the portal's authorization server and the dev identity providers use. */
export const commonSettings = {
  renderError: renderErrorWith(),
  loadExistingGrant: firstPartyGrant,
  // no refresh tokens: the portal keeps its own session
  issueRefreshToken: async () => false,
  pkce: { required: () => true },
  // codes are not bound to the provider session, which ends as soon as the code is issued
  // (forgetLoginOnceAuthorized); they stay single use, PKCE bound and 60 s long
  expiresWithSession: async () => false,
  // seconds; sign-in artifacts are short lived, the portal keeps its own session
  ttl: {
    AuthorizationCode: 60,
    Interaction: 60 * 60,
    Session: 60 * 60,
    Grant: 60 * 60,
    AccessToken: 10 * 60,
    IdToken: 10 * 60,
  },
  features: {
    devInteractions: { enabled: false },
    revocation: { enabled: true },
    // the portal signs out with cognito/logout; the library's own page said "Sign-out Success"
    // without ending the portal's session, and set a cookie on every visit
    rpInitiatedLogout: { enabled: false },
    // no client pushes its requests; unauthenticated state is what the portal keeps least of
    pushedAuthorizationRequests: { enabled: false },
  },
} satisfies Partial<Configuration>;

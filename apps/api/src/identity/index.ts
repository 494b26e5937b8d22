import type { FastifyInstance } from 'fastify';
import middie from '@fastify/middie';
import formbody from '@fastify/formbody';
import type Provider from 'oidc-provider';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CustomFetch } from 'openid-client';
import { UPSTREAM_PROVIDERS, messages, type IdentityProvider } from '@frontdoor/contract';
import type { SendReset } from '../services/password-sign-in.ts';
import type { AppContext } from '../context.ts';
import { startPasswordReset } from '../services/accounts.ts';
import { ApiError } from '../services/http.ts';
import { PORTAL_CLIENT_ID, portalConfig } from '../services/portal-config.ts';
import { AS_ROUTES, createAuthorizationServer } from './authorization-server.ts';
import { authorizeByForm } from './authorize-form.ts';
import { ENV_PREFIX, type UpstreamSettings } from './settings.ts';
import { createDevIdentityProvider, devIdpRoutes, devRealmRoute } from './dev-idp.ts';
import { Federation } from './federation.ts';
import { interactionRoutes } from './interactions.ts';
import { behindPinnedOrigin, logErrors, pinPublicOrigin } from './oidc-common.ts';
import { signInStepGuard } from './sign-in-steps.ts';
import { deriveSecret, loadIdentityKeys } from './keys.ts';
import { BROWSER_COOKIE, PortalCodeExchange, loginPageOfPendingSignIn } from './portal-login.ts';
import { hostCookie } from '../services/host-cookie.ts';

/**
 * Mounts an oidc-provider under `mountPath` (middie, before body parsing as the library wants),
 * leaving the requests Fastify serves itself (`own`, by path and method) to Fastify, and logs its
 * internal errors. Returns the provider's request handler.
 */
function mountProvider(
  scope: FastifyInstance,
  ctx: AppContext,
  mountPath: string,
  provider: Provider,
  own: (path: string, method: string) => boolean,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  logErrors(provider, ctx, scope.log);
  const handle = provider.callback();
  scope.use(mountPath, (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if (own(req.url ?? '/', req.method ?? 'GET')) return next();
    void handle(req, res);
  });
  // the middleware runs in this scope's onRequest hook, which needs a route to attach to
  scope.all(`${mountPath}/*`, async (_request, reply) => reply.code(404).send());
  return handle;
}

/**
 * The identity side (docs/identity.md), built once by the composition root (app.ts) from
 * `config.identity`: the portal's authorization server, upstream federation, and the portal as a
 * client of its own authorization server. The root mounts it (registerIdentity) and hands it to
 * the API routes that start and finish a sign-in.
 */
export interface IdentityEngine {
  provider: Provider;
  federation: Federation;
  exchange: PortalCodeExchange;
  /** The key material's secret: PKCE verifiers, interaction bindings, derived client secrets. */
  secret: Buffer;
  cookieKeys: string[];
  /** The configured upstreams, the dev ones with their derived client secrets. */
  upstreams: UpstreamSettings[];
  sendReset: SendReset;
}

/** Builds the engine; `fetch` reaches the portal's own origin in process (inProcessFetch). */
export async function createIdentityEngine(ctx: AppContext, fetch: CustomFetch): Promise<IdentityEngine> {
  const { config, db } = ctx;
  const portal = portalConfig(config);
  const keys = await loadIdentityKeys(db, ctx.now(), config.identity.cookieKeys);
  const upstreams = config.identity.upstreams.map((upstream) =>
    upstream.dev
      ? { ...upstream, clientSecret: deriveSecret(keys.secret, 'dev-client', upstream.provider) }
      : upstream,
  );
  const available = (p: IdentityProvider) => p === 'COGNITO' || upstreams.some((u) => u.provider === p);
  // the login page shows every provider's button (§2), so one without credentials can only fail
  const unavailable = UPSTREAM_PROVIDERS.filter((p) => !available(p));
  if (unavailable.length)
    ctx.logger.warn(
      { providers: unavailable, variables: unavailable.map((p) => `${ENV_PREFIX[p]}_CLIENT_ID`) },
      `identity providers without credentials: their sign-in ends on "${messages.signInStopped}"`,
    );
  const portalClient = {
    clientId: PORTAL_CLIENT_ID,
    clientSecret: deriveSecret(keys.secret, 'portal-client', PORTAL_CLIENT_ID),
    redirectUri: portal.redirectUri,
  };
  const provider = createAuthorizationServer({
    issuer: portal.loginUrl,
    db,
    now: ctx.now,
    keys,
    portalClient,
    available,
    idpIdentifiers: config.identity.idpIdentifiers,
    // oidc-provider signs cookies by default; the portal's fd_browser is its own, unsigned
    startAgainHref: (koa) =>
      loginPageOfPendingSignIn(
        ctx,
        koa.cookies.get(hostCookie(BROWSER_COOKIE, config).name, { signed: false }),
      ),
  });
  behindPinnedOrigin(provider);
  const federation = new Federation(upstreams, {
    publicUrl: config.publicUrl,
    secret: keys.secret,
    now: ctx.now,
    fetch,
  });
  const exchange = new PortalCodeExchange(portal.loginUrl, portalClient, keys.secret, fetch);
  // the same service as cognito/sendreset, cooldown and hourly limits respected; these callers
  // move on to the reset page either way, where the newest code already sent still works
  const sendReset: SendReset = async (email, address, languages) => {
    try {
      await startPasswordReset(ctx, email, address, languages);
    } catch (error) {
      if (!(error instanceof ApiError && error.statusCode === 429)) throw error;
      ctx.logger.info({ reason: error.code }, 'reset code not sent: sending limit');
    }
  };
  return {
    provider,
    federation,
    exchange,
    secret: keys.secret,
    cookieKeys: keys.cookieKeys,
    upstreams,
    sendReset,
  };
}

/**
 * Mounts the engine's own pages: the authorization server at /oidc and its interactions, and the
 * dev identity providers at /dev/idp/<provider> (non-production). The API routes of a sign-in are
 * the root's (app.ts).
 */
export async function registerIdentity(
  app: FastifyInstance,
  ctx: AppContext,
  engine: IdentityEngine,
): Promise<void> {
  const { config, db } = ctx;
  const { provider, federation, secret, sendReset } = engine;
  await app.register(async (scope) => {
    // before middie, which hands /oidc to oidc-provider
    scope.addHook('onRequest', pinPublicOrigin(config.publicUrl));
    scope.addHook('onRequest', signInStepGuard(ctx));
    await scope.register(middie);
    if (!scope.hasContentTypeParser('application/x-www-form-urlencoded')) await scope.register(formbody);

    const handle = mountProvider(
      scope,
      ctx,
      '/oidc',
      provider,
      (path, method) =>
        path.startsWith('/interaction/') ||
        path.startsWith('/forgotPassword') ||
        (method === 'POST' && path === AS_ROUTES.authorization),
    );
    authorizeByForm(scope, '/oidc', handle);
    interactionRoutes(scope, { ctx, provider, federation, secret, sendReset });

    for (const upstream of engine.upstreams.filter((u) => u.dev)) {
      const idp = await createDevIdentityProvider({
        db,
        now: ctx.now,
        publicUrl: config.publicUrl,
        settings: upstream,
        cookieKeys: engine.cookieKeys,
      });
      behindPinnedOrigin(idp);
      mountProvider(scope, ctx, `/dev/idp/${upstream.provider}`, idp, (path) =>
        /^\/((interaction|v2|v3\.0)\/|launchpad($|\?))/.test(path),
      );
      devIdpRoutes(scope, db, idp, upstream.provider);
    }
    if (config.devIdp) devRealmRoute(scope, config.identity.devRealms);
  });
}

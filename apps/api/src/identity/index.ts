import type { FastifyInstance } from 'fastify';
import middie from '@fastify/middie';
import formbody from '@fastify/formbody';
import type Provider from 'oidc-provider';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_PREFIX, type IdentityProvider } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { startPasswordReset } from '../services/accounts.ts';
import { ApiError } from '../services/http.ts';
import { PORTAL_CLIENT_ID, portalConfig } from '../services/portal-config.ts';
import { socialRoutes } from '../routes/social.ts';
import { createAuthorizationServer } from './authorization-server.ts';
import { callbackRoute } from './callback.ts';
import { identitySettings } from './config.ts';
import { createDevIdentityProvider, devIdpRoutes, devRealmRoute } from './dev-idp.ts';
import { Federation } from './federation.ts';
import { interactionRoutes } from './interactions.ts';
import { deriveSecret, loadIdentityKeys } from './keys.ts';
import { passwordLoginRoute } from './password-login.ts';
import { PortalCodeExchange } from './portal-login.ts';
import { inProcessFetch } from './self-fetch.ts';

/**
 * Mounts an oidc-provider under `mountPath` (middie, before body parsing as the library wants),
 * leaving the paths Fastify serves itself (`own`) to Fastify.
 */
function mountProvider(
  scope: FastifyInstance,
  mountPath: string,
  provider: Provider,
  own: (path: string) => boolean,
): void {
  const handle = provider.callback();
  scope.use(mountPath, (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if (own(req.url ?? '/')) return next();
    void handle(req, res);
  });
  // the middleware runs in this scope's onRequest hook, which needs a route to attach to
  scope.all(`${mountPath}/*`, async (_request, reply) => reply.code(404).send());
}

/**
 * The identity side (docs/identity.md): the portal's authorization server at /oidc, its
 * interactions and upstream federation, the dev identity providers at /dev/idp/<provider>
 * (non-production), GET api/social/get_csrf, GET api/auth/callback and POST api/cognito/login.
 */
export async function registerIdentity(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { config, db } = ctx;
  const portal = portalConfig(config);
  const keys = await loadIdentityKeys(
    db,
    identitySettings(config.rawEnv, config.publicUrl, false, () => '').cookieKeys,
  );
  const settings = identitySettings(config.rawEnv, config.publicUrl, config.devIdp, (p) =>
    deriveSecret(keys.secret, 'dev-client', p),
  );
  const available = (p: IdentityProvider) =>
    p === 'COGNITO' || settings.upstreams.some((u) => u.provider === p);
  const portalClient = {
    clientId: PORTAL_CLIENT_ID,
    clientSecret: deriveSecret(keys.secret, 'portal-client', PORTAL_CLIENT_ID),
    redirectUri: portal.redirectUri,
  };
  const provider = createAuthorizationServer({
    issuer: portal.loginUrl,
    db,
    keys,
    portalClient,
    available,
    idpIdentifiers: settings.idpIdentifiers,
  });
  provider.proxy = config.trustProxy !== false;
  const selfFetch = inProcessFetch(app, config.publicUrl);
  const federation = new Federation(settings.upstreams, {
    publicUrl: config.publicUrl,
    secret: keys.secret,
    fetch: selfFetch,
  });
  const exchange = new PortalCodeExchange(portal.loginUrl, portalClient, keys.secret, selfFetch);
  // the same service as cognito/sendreset, cooldown and hourly limits respected; these callers
  // move on to the reset page either way, where the newest code already sent still works
  const sendReset = async (email: string, address: string, languages: (string | undefined)[]) => {
    try {
      await startPasswordReset(ctx, email, address, languages);
    } catch (error) {
      if (!(error instanceof ApiError && error.statusCode === 429)) throw error;
      ctx.logger.info({ reason: error.code }, 'reset code not sent: sending limit');
    }
  };

  await app.register(async (scope) => {
    await scope.register(middie);
    if (!scope.hasContentTypeParser('application/x-www-form-urlencoded')) await scope.register(formbody);

    mountProvider(
      scope,
      '/oidc',
      provider,
      (path) => path.startsWith('/interaction/') || path.startsWith('/forgotPassword'),
    );
    interactionRoutes(scope, { ctx, provider, federation, secret: keys.secret, sendReset });

    for (const upstream of settings.upstreams.filter((u) => u.dev)) {
      const idp = await createDevIdentityProvider({
        db,
        publicUrl: config.publicUrl,
        settings: upstream,
        cookieKeys: keys.cookieKeys,
      });
      idp.proxy = config.trustProxy !== false;
      mountProvider(scope, `/dev/idp/${upstream.provider}`, idp, (path) =>
        /^\/((interaction|v2|v3\.0)\/|launchpad($|\?))/.test(path),
      );
      devIdpRoutes(scope, db, idp, upstream.provider);
    }
    if (config.devIdp) devRealmRoute(scope, settings.devRealms);

    await scope.register(
      async (api) => {
        // the API reads JSON only: an HTML form of another site cannot post to it (no CORS preflight)
        api.removeContentTypeParser('application/x-www-form-urlencoded');
        await api.register(socialRoutes(ctx, keys.secret));
        callbackRoute(api, ctx, exchange);
        passwordLoginRoute(api, { ctx, provider, secret: keys.secret, sendReset });
      },
      { prefix: API_PREFIX.slice(0, -1) },
    );
  });
}

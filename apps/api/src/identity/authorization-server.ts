import Provider, { errors, type Account, type KoaContextWithOIDC } from 'oidc-provider';
import { IDENTITY_PROVIDERS, type IdentityProvider } from '@frontdoor/contract';
import type { Db } from '../db/index.ts';
import { kyselyAdapter } from './adapter.ts';
import type { IdentityKeys } from './keys.ts';
import {
  commonSettings,
  forgetLoginOnceAuthorized,
  freshLoginPolicy,
  renderErrorWith,
  type StartAgainHref,
} from './oidc-common.ts';

/** The portal's registered client: the API's own callback, a confidential client. */
export interface PortalClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export interface AuthorizationServerOptions {
  issuer: string;
  db: Db;
  /** ctx.now: the clock the stored codes, sessions and interactions expire by. */
  now: () => number;
  keys: IdentityKeys;
  portalClient: PortalClient;
  /** Whether an identity_provider value can be used (configured or served by the dev IdP). */
  available: (provider: IdentityProvider) => boolean;
  /** idp_identifier values (lower case) → the provider each selects (IDP_IDENTIFIERS). */
  idpIdentifiers: ReadonlyMap<string, IdentityProvider>;
  /** Where "start again" sends a browser whose sign-in step is gone (its product's login page). */
  startAgainHref: StartAgainHref;
}

/** Paths below the issuer, as the hosted identity service the SPA targets names them. */
export const AS_ROUTES = {
  authorization: '/oauth2/authorize',
  token: '/oauth2/token',
  userinfo: '/oauth2/userInfo',
  jwks: '/.well-known/jwks.json',
  revocation: '/oauth2/revoke',
} as const;

/** Where the browser completes an interaction; `_interaction` cookies are scoped to it. */
const interactionPath = (uid: string): string => `/oidc/interaction/${uid}`;

export const isIdentityProvider = (value: unknown): value is IdentityProvider =>
  typeof value === 'string' && (IDENTITY_PROVIDERS as readonly string[]).includes(value);

async function findAccount(db: Db, sub: string): Promise<Account | undefined> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'first', 'last', 'confirmed'])
    .where('id', '=', sub)
    .executeTakeFirst();
  if (!user) return undefined;
  return {
    accountId: user.id,
    claims: async () => ({
      sub: user.id,
      email: user.email,
      email_verified: user.confirmed === 1,
      given_name: user.first,
      family_name: user.last,
    }),
  };
}

/**
 * The portal's OAuth 2.0 / OpenID Connect authorization server (oidc-provider): registered
 * clients only, exact redirect_uri, codes in the query only, PKCE S256 always, single-use 60-second codes, no refresh
 * tokens, and identity_provider / idp_identifier as extra authorization parameters.
 */
export function createAuthorizationServer(options: AuthorizationServerOptions): Provider {
  const { db, now, keys, portalClient, available, idpIdentifiers } = options;
  // Secure is added by oidc-provider itself on https requests (behind a proxy: TRUST_PROXY)
  const cookieOptions = { httpOnly: true, sameSite: 'lax' as const, signed: true };
  const provider = new Provider(options.issuer, {
    ...commonSettings,
    renderError: renderErrorWith(options.startAgainHref),
    adapter: kyselyAdapter(db, now),
    clients: [
      {
        client_id: portalClient.clientId,
        client_secret: portalClient.clientSecret,
        redirect_uris: [portalClient.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        // its callback (GET api/auth/callback) reads a query: a code sent in a fragment or a form post
        // would end a sign-in on a dead end, with the code left in the address or the history
        response_modes: ['query'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: keys.jwks,
    cookies: { keys: keys.cookieKeys, long: cookieOptions, short: cookieOptions },
    claims: {
      // amr: how the person signed in (a password, which provider), in the ID token the portal's
      // callback reads for its session (portal-login.ts exchange), so the product token can say it
      openid: ['sub', 'amr'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name'],
    },
    scopes: ['openid', 'email', 'profile'],
    responseTypes: ['code'],
    // the one client's; discovery advertises no other
    clientAuthMethods: ['client_secret_basic'],
    extraParams: {
      identity_provider(_ctx: KoaContextWithOIDC, value: string | undefined) {
        if (value === undefined) return;
        if (!isIdentityProvider(value))
          throw new errors.InvalidRequest('identity_provider is not a known identity provider');
        if (!available(value)) throw new errors.InvalidRequest(`identity_provider ${value} is not available`);
      },
      // without identity_provider, idp_identifier names the provider through IDP_IDENTIFIERS
      idp_identifier(ctx: KoaContextWithOIDC, value: string | undefined) {
        if (value === undefined || ctx.oidc.params?.identity_provider !== undefined) return;
        if (value.length > 200) throw new errors.InvalidRequest('idp_identifier is too long');
        const selected = idpIdentifiers.get(value.trim().toLowerCase());
        if (!selected) throw new errors.InvalidRequest('idp_identifier matches no identity provider');
        if (!available(selected))
          throw new errors.InvalidRequest(`identity_provider ${selected} is not available`);
        (ctx.oidc.params as Record<string, unknown>).identity_provider = selected;
      },
    },
    routes: AS_ROUTES,
    interactions: {
      url: (_ctx, interaction) => interactionPath(interaction.uid),
      policy: freshLoginPolicy(),
    },
    findAccount: (_ctx, sub) => findAccount(db, sub),
  });
  forgetLoginOnceAuthorized(provider, cookieOptions);
  return provider;
}

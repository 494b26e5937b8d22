import {
  IDENTITY_PROVIDERS,
  UPSTREAM_PROVIDERS,
  identityProviderSchema,
  type IdentityProvider,
  type UpstreamProvider,
} from '@frontdoor/contract';

/** Microsoft's tenant id of personal (consumer) accounts. */
export const MICROSOFT_PERSONAL_TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';

/** The environment-variable prefix of each upstream provider (<PREFIX>_CLIENT_ID, ...). */
export const ENV_PREFIX: Record<UpstreamProvider, string> = {
  Google: 'GOOGLE',
  Microsoft: 'MICROSOFT',
  MicrosoftPersonal: 'MICROSOFT_PERSONAL',
  SignInWithApple: 'APPLE',
  Clever: 'CLEVER',
  ClassLink: 'CLASSLINK',
};

export interface AppleSigningKey {
  teamId: string;
  keyId: string;
  /** PKCS#8 PEM of the .p8 key. */
  privateKey: string;
}

/** How the portal talks to one upstream provider. */
export interface UpstreamSettings {
  provider: UpstreamProvider;
  /** `oidc`: discovery at `issuer` and an ID token; `oauth2`: endpoints plus a user-info call. */
  protocol: 'oidc' | 'oauth2';
  issuer: string;
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  /** Base URL of the provider's user-info API (Clever api.clever.com, ClassLink nodeapi). */
  apiUrl?: string;
  clientId: string;
  clientSecret: string;
  clientAuth: 'client_secret_post' | 'client_secret_basic';
  scope: string;
  apple?: AppleSigningKey;
  /** Microsoft work/school: tenants allowed to sign in (empty = any organisation). */
  allowedTenants: string[];
  /** Served by the bundled development identity provider. */
  dev: boolean;
}

type Env = Record<string, string | undefined>;

const OIDC_DEFAULT_ISSUERS: Partial<Record<UpstreamProvider, string>> = {
  Google: 'https://accounts.google.com',
  Microsoft: 'https://login.microsoftonline.com/organizations/v2.0',
  MicrosoftPersonal: `https://login.microsoftonline.com/${MICROSOFT_PERSONAL_TENANT}/v2.0`,
  SignInWithApple: 'https://appleid.apple.com',
};

/** Plain OAuth 2.0 defaults of the school-roster providers when no OIDC issuer is configured. */
const OAUTH2_DEFAULTS: Partial<
  Record<
    UpstreamProvider,
    {
      issuer: string;
      authorize: string;
      token: string;
      api: string;
      scope: string;
      auth: UpstreamSettings['clientAuth'];
    }
  >
> = {
  Clever: {
    issuer: 'https://clever.com',
    authorize: 'https://clever.com/oauth/authorize',
    token: 'https://clever.com/oauth/tokens',
    api: 'https://api.clever.com',
    scope: '',
    auth: 'client_secret_basic',
  },
  ClassLink: {
    issuer: 'https://launchpad.classlink.com',
    authorize: 'https://launchpad.classlink.com/oauth2/v2/auth',
    token: 'https://launchpad.classlink.com/oauth2/v2/token',
    api: 'https://nodeapi.classlink.com',
    scope: 'profile',
    auth: 'client_secret_post',
  },
};

const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The upstream provider a bundled dev identity provider stands in for: its base URL. */
export const devIdpIssuer = (publicUrl: string, provider: UpstreamProvider): string =>
  `${publicUrl}/dev/idp/${provider}`;

export interface IdentitySettings {
  /** The providers a sign-in can use: configured ones, and (dev only) the dev identity provider's. */
  upstreams: UpstreamSettings[];
  cookieKeys: string[];
  /** IDP_IDENTIFIERS: idp_identifier values (lower case, e.g. an email domain) → the provider they select. */
  idpIdentifiers: ReadonlyMap<string, IdentityProvider>;
}

/**
 * Parses IDP_IDENTIFIERS, `identifier=Provider` pairs separated by commas (e.g.
 * `district.k12.us=Clever, contoso.edu=Microsoft`): like the hosted service's IdP identifiers, an
 * authorization request may name one as idp_identifier instead of naming the provider.
 */
export function parseIdpIdentifiers(value: string | undefined): Map<string, IdentityProvider> {
  const map = new Map<string, IdentityProvider>();
  for (const pair of list(value)) {
    const [identifier = '', name = ''] = pair.split('=').map((s) => s.trim());
    const provider = identityProviderSchema.safeParse(name);
    if (!identifier || !provider.success)
      throw new Error(
        `IDP_IDENTIFIERS: '${pair}' is not identifier=<one of ${IDENTITY_PROVIDERS.join(', ')}>`,
      );
    map.set(identifier.toLowerCase(), provider.data);
  }
  return map;
}

/**
 * Reads the identity configuration from the environment. A provider is real when its
 * <PREFIX>_CLIENT_ID is set; otherwise the dev identity provider serves it when `devIdp` is on
 * (never in production: the app config refuses to start with it), else it is unavailable and
 * the authorization server refuses that identity_provider.
 */
export function identitySettings(
  env: Env,
  publicUrl: string,
  devIdp: boolean,
  devClientSecret: (p: UpstreamProvider) => string,
): IdentitySettings {
  const upstreams: UpstreamSettings[] = [];
  for (const provider of UPSTREAM_PROVIDERS) {
    const prefix = ENV_PREFIX[provider];
    const get = (name: string) => env[`${prefix}_${name}`]?.trim() || undefined;
    const clientId = get('CLIENT_ID');
    if (!clientId) {
      if (devIdp) upstreams.push(devSettings(publicUrl, provider, devClientSecret(provider)));
      continue;
    }
    const oauth2 = OAUTH2_DEFAULTS[provider];
    const issuer = get('ISSUER');
    const base = {
      provider,
      clientId,
      clientSecret: get('CLIENT_SECRET') ?? '',
      allowedTenants: list(get('ALLOWED_TENANTS')),
      dev: false,
    };
    if (oauth2 && !issuer) {
      upstreams.push({
        ...base,
        protocol: 'oauth2',
        issuer: oauth2.issuer,
        authorizationEndpoint: get('AUTHORIZATION_ENDPOINT') ?? oauth2.authorize,
        tokenEndpoint: get('TOKEN_ENDPOINT') ?? oauth2.token,
        apiUrl: get('API_URL') ?? oauth2.api,
        clientAuth: oauth2.auth,
        scope: get('SCOPE') ?? oauth2.scope,
      });
      continue;
    }
    const settings: UpstreamSettings = {
      ...base,
      protocol: 'oidc',
      issuer: issuer ?? OIDC_DEFAULT_ISSUERS[provider] ?? '',
      clientAuth: oauth2?.auth ?? 'client_secret_post',
      scope: get('SCOPE') ?? (provider === 'SignInWithApple' ? 'openid name email' : 'openid email profile'),
    };
    if (!settings.issuer) throw new Error(`${prefix}_ISSUER is required for ${provider}`);
    if (provider === 'SignInWithApple') {
      const teamId = get('TEAM_ID');
      const keyId = get('KEY_ID');
      const privateKey = get('PRIVATE_KEY')?.replace(/\\n/g, '\n');
      if (!teamId || !keyId || !privateKey) {
        throw new Error(
          'Sign in with Apple needs APPLE_TEAM_ID, APPLE_KEY_ID and APPLE_PRIVATE_KEY besides APPLE_CLIENT_ID',
        );
      }
      settings.apple = { teamId, keyId, privateKey };
    }
    upstreams.push(settings);
  }
  return {
    upstreams,
    cookieKeys: list(env.OIDC_COOKIE_KEYS),
    idpIdentifiers: parseIdpIdentifiers(env.IDP_IDENTIFIERS),
  };
}

/** The dev identity provider speaks OIDC for the OIDC providers and plain OAuth 2.0 for the roster ones. */
function devSettings(publicUrl: string, provider: UpstreamProvider, clientSecret: string): UpstreamSettings {
  const issuer = devIdpIssuer(publicUrl, provider);
  const oauth2 = OAUTH2_DEFAULTS[provider];
  const common = {
    provider,
    issuer,
    clientId: `frontdoor-dev-${provider}`,
    clientSecret,
    allowedTenants: [],
    dev: true,
  };
  if (oauth2) {
    return {
      ...common,
      protocol: 'oauth2',
      authorizationEndpoint: `${issuer}/oauth2/authorize`,
      tokenEndpoint: `${issuer}/oauth2/token`,
      apiUrl: issuer,
      clientAuth: oauth2.auth,
      scope: 'profile',
    };
  }
  return {
    ...common,
    protocol: 'oidc',
    clientAuth: 'client_secret_post',
    scope: provider === 'SignInWithApple' ? 'openid name email' : 'openid email profile',
  };
}

import {
  IDENTITY_PROVIDERS,
  UPSTREAM_PROVIDERS,
  identityProviderSchema,
  microsoftAccountTypeSchema,
  type IdentityProvider,
  type MicrosoftAccountType,
  type UpstreamProvider,
} from '@frontdoor/contract';
// a cycle (config.ts reads these settings), safe: ConfigError is only used once a function runs
import { ConfigError, type Env } from '../config.ts';
import type { EnvVariable } from '../env-variables.ts';

/**
 * The school-roster providers: they launch apps from their own portals (Clever Instant Login,
 * ClassLink LaunchPad) and name the person's roles and schools.
 */
export const SCHOOL_ROSTER_PROVIDERS = ['Clever', 'ClassLink'] as const satisfies readonly UpstreamProvider[];
export const isSchoolRosterProvider = (
  provider: string,
): provider is (typeof SCHOOL_ROSTER_PROVIDERS)[number] =>
  (SCHOOL_ROSTER_PROVIDERS as readonly string[]).includes(provider);

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
  /** A dev provider's is derived from the portal's key material when the engine starts (empty here). */
  clientSecret: string;
  clientAuth: 'client_secret_post' | 'client_secret_basic';
  scope: string;
  apple?: AppleSigningKey;
  /** Microsoft work/school: tenants allowed to sign in (empty = any organisation). */
  allowedTenants: string[];
  /** Served by the bundled development identity provider. */
  dev: boolean;
}

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

/** The scope asked of an OIDC provider unless <PREFIX>_SCOPE says otherwise. */
const oidcScope = (provider: UpstreamProvider): string =>
  provider === 'SignInWithApple' ? 'openid name email' : 'openid email profile';

/** Each provider's own variables, <PREFIX>_<suffix>; providerVariables lists them for .env.example. */
const PROVIDER_VARIABLES = {
  CLIENT_ID:
    'Turns the provider on: its OAuth client id (Apple: the Services ID). Unset, the development identity provider stands in while DEV_IDP is on; otherwise the provider is unavailable.',
  CLIENT_SECRET: 'Its client secret.',
  ISSUER: 'OIDC issuer (discovery at <issuer>/.well-known/openid-configuration).',
  SCOPE: 'Scopes asked for.',
  ALLOWED_TENANTS:
    'Tenant ids allowed to sign in, comma separated (unset: any organisation; personal accounts are always refused here).',
  AUTHORIZATION_ENDPOINT: 'OAuth 2.0 authorization endpoint (used without an ISSUER).',
  TOKEN_ENDPOINT: 'OAuth 2.0 token endpoint (used without an ISSUER).',
  API_URL: 'Base URL of the user-info API (used without an ISSUER).',
  TEAM_ID:
    'Apple developer team id; Sign in with Apple needs TEAM_ID, KEY_ID and PRIVATE_KEY besides CLIENT_ID.',
  KEY_ID: 'Id of the Sign in with Apple key.',
  PRIVATE_KEY: 'The .p8 key as PKCS#8 PEM (\\n escapes allowed).',
} as const;
type ProviderVariable = keyof typeof PROVIDER_VARIABLES;

/** The variables of one upstream provider with their defaults, as .env.example lists them. */
export function providerVariables(provider: UpstreamProvider): (EnvVariable & { name: string })[] {
  const oauth2 = OAUTH2_DEFAULTS[provider];
  const defaults: Partial<Record<ProviderVariable, string>> = oauth2
    ? {
        AUTHORIZATION_ENDPOINT: oauth2.authorize,
        TOKEN_ENDPOINT: oauth2.token,
        API_URL: oauth2.api,
        SCOPE: oauth2.scope,
      }
    : { ISSUER: OIDC_DEFAULT_ISSUERS[provider], SCOPE: oidcScope(provider) };
  const apple = provider === 'SignInWithApple';
  // Apple's client secret is a JWT signed with its key, made for each call
  const names: ProviderVariable[] = apple
    ? ['CLIENT_ID', 'ISSUER', 'SCOPE', 'TEAM_ID', 'KEY_ID', 'PRIVATE_KEY']
    : ['CLIENT_ID', 'CLIENT_SECRET', 'ISSUER', 'SCOPE'];
  if (provider === 'Microsoft') names.push('ALLOWED_TENANTS');
  if (oauth2) names.push('AUTHORIZATION_ENDPOINT', 'TOKEN_ENDPOINT', 'API_URL');
  return names.map((suffix) => ({
    name: `${ENV_PREFIX[provider]}_${suffix}`,
    group: `Identity provider: ${provider}`,
    meaning:
      oauth2 && suffix === 'ISSUER'
        ? `With an issuer: OIDC (scope ${oidcScope(provider)}); unset: plain OAuth 2.0 at the endpoints below.`
        : PROVIDER_VARIABLES[suffix],
    ...(defaults[suffix] === undefined ? {} : { default: defaults[suffix] }),
  }));
}

const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The upstream provider a bundled dev identity provider stands in for: its base URL. */
const devIdpIssuer = (publicUrl: string, provider: UpstreamProvider): string =>
  `${publicUrl}/dev/idp/${provider}`;

/** The dev identity provider's stand-in for Microsoft realm discovery (getuserrealm.srf). */
export const DEV_REALM_PATH = '/dev/idp/realm';

/** DEV_REALMS when unset: one domain for each outcome of the work/school modal but Unknown. */
export const DEFAULT_DEV_REALMS = 'managed.example=Managed, personal.example=Federated';

export interface IdentitySettings {
  /** The providers a sign-in can use: configured ones, and (dev only) the dev identity provider's. */
  upstreams: UpstreamSettings[];
  cookieKeys: string[];
  /** IDP_IDENTIFIERS: idp_identifier values (lower case, e.g. an email domain) → the provider they select. */
  idpIdentifiers: ReadonlyMap<string, IdentityProvider>;
  /** DEV_REALMS (dev identity provider only): email domain → the account type its realm route answers. */
  devRealms: ReadonlyMap<string, MicrosoftAccountType>;
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
      throw new ConfigError(
        `IDP_IDENTIFIERS: '${pair}' is not identifier=<one of ${IDENTITY_PROVIDERS.join(', ')}>`,
      );
    map.set(identifier.toLowerCase(), provider.data);
  }
  return map;
}

/**
 * Parses DEV_REALMS, `domain=AccountType` pairs separated by commas (e.g.
 * `managed.example=Managed, personal.example=Federated`): what the dev identity provider's realm
 * route answers for each email domain; any other domain is Unknown.
 */
export function parseDevRealms(value: string): Map<string, MicrosoftAccountType> {
  const map = new Map<string, MicrosoftAccountType>();
  for (const pair of list(value)) {
    const [domain = '', name = ''] = pair.split('=').map((s) => s.trim());
    const type = microsoftAccountTypeSchema.safeParse(name);
    if (!domain || !type.success)
      throw new ConfigError(
        `DEV_REALMS: '${pair}' is not domain=<one of ${microsoftAccountTypeSchema.options.join(', ')}>`,
      );
    map.set(domain.toLowerCase(), type.data);
  }
  return map;
}

/**
 * Reads the identity configuration from the environment (loadConfig, with the rest); a bad
 * setting is a ConfigError. A provider is real when its
 * <PREFIX>_CLIENT_ID is set; otherwise the dev identity provider serves it when `devIdp` is on
 * (never in production: the app config refuses to start with it), else it is unavailable and
 * the authorization server refuses that identity_provider.
 */
export function identitySettings(env: Env, publicUrl: string, devIdp: boolean): IdentitySettings {
  const upstreams: UpstreamSettings[] = [];
  for (const provider of UPSTREAM_PROVIDERS) {
    const prefix = ENV_PREFIX[provider];
    const get = (name: ProviderVariable) => env[`${prefix}_${name}`]?.trim() || undefined;
    const clientId = get('CLIENT_ID');
    if (!clientId) {
      if (devIdp) upstreams.push(devSettings(publicUrl, provider));
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
      scope: get('SCOPE') ?? oidcScope(provider),
    };
    if (!settings.issuer) throw new ConfigError(`${prefix}_ISSUER is required for ${provider}`);
    if (provider === 'SignInWithApple') {
      const teamId = get('TEAM_ID');
      const keyId = get('KEY_ID');
      const privateKey = get('PRIVATE_KEY')?.replace(/\\n/g, '\n');
      if (!teamId || !keyId || !privateKey) {
        throw new ConfigError(
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
    devRealms: devIdp ? parseDevRealms(env.DEV_REALMS ?? DEFAULT_DEV_REALMS) : new Map(),
  };
}

/** The dev identity provider speaks OIDC for the OIDC providers and plain OAuth 2.0 for the roster ones. */
function devSettings(publicUrl: string, provider: UpstreamProvider): UpstreamSettings {
  const issuer = devIdpIssuer(publicUrl, provider);
  const oauth2 = OAUTH2_DEFAULTS[provider];
  const common = {
    provider,
    issuer,
    clientId: `frontdoor-dev-${provider}`,
    clientSecret: '',
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
    scope: oidcScope(provider),
  };
}

import * as client from 'openid-client';
import { SignJWT, importPKCS8 } from 'jose';
import type { UpstreamProvider } from '@frontdoor/contract';
import type { AppleSigningKey, UpstreamSettings } from './settings.ts';
import { deriveSecret } from './keys.ts';
import {
  UpstreamIdentityError,
  fromApple,
  fromClassLinkInfo,
  fromClassLinkOidc,
  fromCleverApi,
  fromCleverOidc,
  fromGoogle,
  fromMicrosoft,
  type UpstreamIdentity,
} from './upstream-identity.ts';

/** Plain http is allowed only towards this machine (the dev identity provider, local doubles). */
export const isLoopbackHttp = (url: string): boolean => {
  const { protocol, hostname } = new URL(url);
  return (
    protocol === 'http:' && (hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]')
  );
};

/** Sign in with Apple's client secret: an ES256 JWT signed with the team's key (at most 6 months). */
export async function appleClientSecret(
  key: AppleSigningKey,
  clientId: string,
  audience: string,
  now: number,
): Promise<string> {
  const privateKey = await importPKCS8(key.privateKey, 'ES256');
  const iat = Math.floor(now / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: key.keyId })
    .setIssuer(key.teamId)
    .setSubject(clientId)
    .setAudience(audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 10 * 60)
    .sign(privateKey);
}

const failedAt =
  (step: UpstreamStep) =>
  (error: unknown): never => {
    throw upstreamFailure(step, error);
  };

/** The upstreams whose own sign-in outlives ours on a device, and that offer an account chooser. */
const ACCOUNT_CHOOSERS: ReadonlySet<UpstreamProvider> = new Set(['Google', 'Microsoft', 'MicrosoftPersonal']);

/** The callback an upstream returns the browser to; cookie independent (keyed by state = uid). */
export const upstreamCallbackPath = (provider: UpstreamProvider): string =>
  `/oidc/interaction/callback/${provider}`;

/**
 * How long one request to an upstream may take (openid-client's default is 30 s): a provider that
 * hangs leaves the person on a loading page no longer than this, then on the failure page.
 */
export const UPSTREAM_TIMEOUT_SECONDS = 10;

/** The request to a provider that failed: what lets an operator tell a provider's failures apart. */
export type UpstreamStep = 'discovery' | 'authorization' | 'token' | 'userinfo';

/** The authorization response errors (RFC 6749 4.1.2.1) that say the provider is down, not no. */
const PROVIDER_DOWN_ERRORS: ReadonlySet<string> = new Set(['server_error', 'temporarily_unavailable']);

/**
 * A provider's sign-in that failed at `step`, with the HTTP status the provider answered when it
 * answered one; never the code or a token. `temporary`: the provider is down or slow (a 5xx or
 * 429, a timeout, no connection, its own server_error), so trying again may work; otherwise it said
 * no (the person cancelled, a code refused) or answered what the portal cannot read.
 */
export class UpstreamFailure extends Error {
  readonly step: UpstreamStep;
  readonly status: number | undefined;
  readonly temporary: boolean;
  constructor(step: UpstreamStep, status: number | undefined, temporary: boolean, cause?: unknown) {
    super(`${step} request failed${status === undefined ? '' : ` with status ${status}`}`, { cause });
    this.step = step;
    this.status = status;
    this.temporary = temporary;
  }
}

const statusSaysDown = (status: number): boolean => status >= 500 || status === 429;

/** What openid-client threw (or the fetch under it) as an UpstreamFailure of `step`. */
export function upstreamFailure(step: UpstreamStep, error: unknown): UpstreamFailure {
  if (error instanceof UpstreamFailure) return error;
  if (error instanceof client.AuthorizationResponseError)
    return new UpstreamFailure('authorization', undefined, PROVIDER_DOWN_ERRORS.has(error.error), error);
  const { status, cause, code } = (error ?? {}) as { status?: unknown; cause?: unknown; code?: unknown };
  // an error body's status, else the unexpected response openid-client keeps as the cause
  const answered = typeof status === 'number' ? status : cause instanceof Response ? cause.status : undefined;
  const temporary =
    answered === undefined
      ? // no answer: openid-client's timeout, or fetch's TypeError for a connection that failed
        code === 'OAUTH_TIMEOUT' || (error instanceof TypeError && cause !== undefined)
      : statusSaysDown(answered);
  return new UpstreamFailure(step, answered, temporary, error);
}

export interface FederationOptions {
  publicUrl: string;
  secret: Buffer;
  /** ctx.now: the issue time of Apple's client secret. */
  now: () => number;
  /** Requests to the portal's own origin are served in process (the dev identity provider). */
  fetch: client.CustomFetch;
  /** UPSTREAM_TIMEOUT_SECONDS unless a test waits less. */
  timeoutSeconds?: number;
}

/**
 * Upstream federation with openid-client: builds the authorization URL for an interaction and
 * completes it into an UpstreamIdentity. The upstream `state` is the interaction uid and the
 * PKCE verifier and nonce are derived from it (HKDF over the identity secret), so nothing is
 * stored; the interaction's own cookie binds the round trip to the browser.
 */
export class Federation {
  readonly #settings: Map<UpstreamProvider, UpstreamSettings>;
  readonly #configs = new Map<UpstreamProvider, Promise<client.Configuration>>();
  private readonly options: FederationOptions;

  get #timeout(): number {
    return this.options.timeoutSeconds ?? UPSTREAM_TIMEOUT_SECONDS;
  }

  /**
   * The longest complete() may take: at most four requests (a discovery, the token, a roster's two of
   * user info), each given its timeout.
   */
  get completionLimitMs(): number {
    return 4 * this.#timeout * 1000;
  }

  constructor(upstreams: UpstreamSettings[], options: FederationOptions) {
    this.options = options;
    this.#settings = new Map(upstreams.map((u) => [u.provider, u]));
  }

  has(provider: UpstreamProvider): boolean {
    return this.#settings.has(provider);
  }

  settings(provider: UpstreamProvider): UpstreamSettings {
    const s = this.#settings.get(provider);
    if (!s) throw new UpstreamIdentityError(`${provider} is not configured`);
    return s;
  }

  redirectUri(provider: UpstreamProvider): string {
    return `${this.options.publicUrl}${upstreamCallbackPath(provider)}`;
  }

  #verifier = (provider: UpstreamProvider, uid: string) =>
    deriveSecret(this.options.secret, `pkce:${provider}`, uid);
  #nonce = (provider: UpstreamProvider, uid: string) =>
    deriveSecret(this.options.secret, `nonce:${provider}`, uid);

  async #baseConfig(s: UpstreamSettings): Promise<client.Configuration> {
    let pending = this.#configs.get(s.provider);
    if (!pending) {
      pending = this.#createConfig(s);
      this.#configs.set(s.provider, pending);
      // a failed discovery is retried on the next sign-in instead of being cached
      pending.catch(() => this.#configs.delete(s.provider));
    }
    return pending;
  }

  async #createConfig(s: UpstreamSettings): Promise<client.Configuration> {
    // Apple has no client secret of its own (#exchangeConfig signs one per exchange); this
    // configuration only discovers Apple and builds the authorization URL
    const auth = s.apple
      ? client.None()
      : s.clientAuth === 'client_secret_basic'
        ? client.ClientSecretBasic(s.clientSecret)
        : client.ClientSecretPost(s.clientSecret);
    const insecure = isLoopbackHttp(s.issuer);
    if (s.protocol === 'oidc') {
      return client.discovery(new URL(s.issuer), s.clientId, undefined, auth, {
        [client.customFetch]: this.options.fetch,
        execute: insecure ? [client.allowInsecureRequests] : [],
        timeout: this.#timeout,
      });
    }
    const config = new client.Configuration(
      { issuer: s.issuer, authorization_endpoint: s.authorizationEndpoint, token_endpoint: s.tokenEndpoint },
      s.clientId,
      undefined,
      auth,
    );
    config[client.customFetch] = this.options.fetch;
    config.timeout = this.#timeout;
    if (insecure) client.allowInsecureRequests(config);
    return config;
  }

  /** Apple's client secret is a short-lived JWT, so its configuration is rebuilt per exchange. */
  async #exchangeConfig(s: UpstreamSettings): Promise<client.Configuration> {
    const base = await this.#baseConfig(s);
    if (!s.apple) return base;
    const secret = await appleClientSecret(s.apple, s.clientId, s.issuer, this.options.now());
    const config = new client.Configuration(
      base.serverMetadata(),
      s.clientId,
      undefined,
      client.ClientSecretPost(secret),
    );
    config[client.customFetch] = this.options.fetch;
    config.timeout = this.#timeout;
    if (isLoopbackHttp(s.issuer)) client.allowInsecureRequests(config);
    return config;
  }

  async authorizationUrl(provider: UpstreamProvider, uid: string, loginHint?: string): Promise<URL> {
    const s = this.settings(provider);
    const config = await this.#baseConfig(s).catch(failedAt('discovery'));
    const params: Record<string, string> = {
      redirect_uri: this.redirectUri(provider),
      response_type: 'code',
      state: uid,
      code_challenge: await client.calculatePKCECodeChallenge(this.#verifier(provider, uid)),
      code_challenge_method: 'S256',
    };
    if (s.scope) params.scope = s.scope;
    if (s.protocol === 'oidc') params.nonce = this.#nonce(provider, uid);
    // Apple returns the name only with form_post; Google/Microsoft take the email as a hint
    if (provider === 'SignInWithApple') params.response_mode = 'form_post';
    else if (loginHint) params.login_hint = loginHint;
    // on a shared classroom device the last student may still be signed in to Google or Microsoft:
    // the next one chooses an account instead of being signed in as that one (the dev providers
    // forget every sign-in anyway, and their oidc-provider knows no such prompt)
    if (!s.dev && ACCOUNT_CHOOSERS.has(provider)) params.prompt = 'select_account';
    return client.buildAuthorizationUrl(config, params);
  }

  /**
   * Exchanges the code of `callbackUrl` (the upstream's authorization response as received at
   * the callback, query or form) and maps the result to an UpstreamIdentity.
   */
  async complete(provider: UpstreamProvider, uid: string, callbackUrl: URL): Promise<UpstreamIdentity> {
    const s = this.settings(provider);
    const config = await this.#exchangeConfig(s).catch(failedAt('discovery'));
    const checks = { pkceCodeVerifier: this.#verifier(provider, uid), expectedState: uid };
    if (s.protocol === 'oidc') {
      const tokens = await client
        .authorizationCodeGrant(config, callbackUrl, {
          ...checks,
          expectedNonce: this.#nonce(provider, uid),
          idTokenExpected: true,
        })
        .catch(failedAt('token'));
      const claims = tokens.claims() ?? {};
      switch (provider) {
        case 'Google':
          return fromGoogle(claims);
        case 'Microsoft':
        case 'MicrosoftPersonal':
          return fromMicrosoft(provider, claims, s.allowedTenants);
        case 'SignInWithApple':
          return fromApple(claims, callbackUrl.searchParams.get('user') ?? undefined);
        case 'Clever':
          return fromCleverOidc(claims);
        case 'ClassLink':
          return fromClassLinkOidc(claims);
      }
    }
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, checks).catch(failedAt('token'));
    const get = async (path: string): Promise<Record<string, unknown>> => {
      const response = await client
        .fetchProtectedResource(config, tokens.access_token, new URL(`${s.apiUrl}${path}`), 'GET')
        .catch(failedAt('userinfo'));
      if (!response.ok)
        throw new UpstreamFailure('userinfo', response.status, statusSaysDown(response.status));
      return (await response.json().catch(failedAt('userinfo'))) as Record<string, unknown>;
    };
    if (provider === 'Clever') {
      const me = await get('/v3.0/me');
      const userId = (me.data as { id?: unknown } | undefined)?.id;
      const user =
        typeof userId === 'string' ? await get(`/v3.0/users/${encodeURIComponent(userId)}`) : undefined;
      return fromCleverApi(me, user);
    }
    if (provider === 'ClassLink') return fromClassLinkInfo(await get('/v2/my/info'));
    throw new UpstreamIdentityError(`${provider} needs OpenID Connect`);
  }
}

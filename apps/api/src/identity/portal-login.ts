import * as client from 'openid-client';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX, type IdentityProvider } from '@frontdoor/contract';
import type { AppConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import { randomToken, sha256 } from '../services/crypto.ts';
import { isLoopbackHttp } from './federation.ts';
import { deriveSecret } from './keys.ts';
import type { PortalClient } from './authorization-server.ts';

/**
 * The API as the client of its own authorization server: the state social/get_csrf hands out,
 * bound to the browser, and the code exchange of api/auth/callback.
 */

/** Random per-browser cookie whose sha256 is a federation state's browser_binding. */
export const BROWSER_COOKIE = 'fd_browser';
/** A sign-in started by get_csrf must come back within this time. */
export const FEDERATION_STATE_TTL_MS = 60 * 60 * 1000;

/** The browser's binding cookie, created when missing; returns its digest. */
export function browserBinding(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Pick<AppConfig, 'cookieSecure'>,
): string {
  let token = request.cookies[BROWSER_COOKIE];
  if (!token || !/^[\w-]{32,64}$/.test(token)) {
    token = randomToken();
    reply.setCookie(BROWSER_COOKIE, token, {
      path: API_PREFIX,
      httpOnly: true,
      sameSite: 'lax',
      secure: config.cookieSecure,
    });
  }
  return sha256(token);
}

export const existingBrowserBinding = (request: FastifyRequest): string | undefined => {
  const token = request.cookies[BROWSER_COOKIE];
  return token ? sha256(token) : undefined;
};

/** PKCE verifier of a portal state: derived, so nothing but the state needs storing. */
export const portalPkceVerifier = (secret: Buffer, state: string): string =>
  deriveSecret(secret, 'portal-pkce', state);
export const portalCodeChallenge = (secret: Buffer, state: string): Promise<string> =>
  client.calculatePKCECodeChallenge(portalPkceVerifier(secret, state));

/**
 * Issues the state of one sign-in, bound to this browser, remembering where it returns to (the
 * product's url and the portal's login csrf, when known); api/auth/callback accepts it once, from
 * this browser, within FEDERATION_STATE_TTL_MS. Returns it with the PKCE challenge the authorize
 * url must carry.
 */
export async function issueSignInState(
  ctx: AppContext,
  secret: Buffer,
  http: { request: FastifyRequest; reply: FastifyReply },
  signIn: { provider: IdentityProvider; returnUrl?: string | undefined; loginCsrf?: string | undefined },
): Promise<{ state: string; codeChallenge: string }> {
  const state = randomToken();
  const now = ctx.now();
  await ctx.db
    .insertInto('federation_states')
    .values({
      state,
      provider: signIn.provider,
      browser_binding: browserBinding(http.request, http.reply, ctx.config),
      return_url: signIn.returnUrl ?? null,
      login_csrf: signIn.loginCsrf ?? null,
      created_at: now,
      expires_at: now + FEDERATION_STATE_TTL_MS,
      used_at: null,
    })
    .execute();
  return { state, codeChallenge: await portalCodeChallenge(secret, state) };
}

export class PortalCodeExchange {
  #config: Promise<client.Configuration> | undefined;

  private readonly issuer: string;
  private readonly portal: PortalClient;
  private readonly secret: Buffer;
  private readonly fetchImpl: client.CustomFetch;

  constructor(issuer: string, portal: PortalClient, secret: Buffer, fetchImpl: client.CustomFetch) {
    this.issuer = issuer;
    this.portal = portal;
    this.secret = secret;
    this.fetchImpl = fetchImpl;
  }

  #configuration(): Promise<client.Configuration> {
    if (!this.#config) {
      this.#config = client.discovery(
        new URL(this.issuer),
        this.portal.clientId,
        undefined,
        client.ClientSecretBasic(this.portal.clientSecret),
        {
          [client.customFetch]: this.fetchImpl,
          execute: isLoopbackHttp(this.issuer) ? [client.allowInsecureRequests] : [],
        },
      );
      this.#config.catch(() => (this.#config = undefined));
    }
    return this.#config;
  }

  /** Exchanges the code of the callback URL; returns the signed-in account id (ID token sub). */
  async exchange(callbackQuery: string, state: string): Promise<string> {
    const config = await this.#configuration();
    const currentUrl = new URL(this.portal.redirectUri);
    currentUrl.search = callbackQuery;
    const tokens = await client.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: portalPkceVerifier(this.secret, state),
      expectedState: state,
      idTokenExpected: true,
    });
    const sub = tokens.claims()?.sub;
    if (!sub) throw new Error('the authorization server returned no subject');
    return sub;
  }
}

import * as client from 'openid-client';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { isStorableText, type IdentityProvider } from '@frontdoor/contract';
import type { AppConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import { claimOnce, releaseClaim } from '../db/claim-once.ts';
import { randomToken, safeEqual, sha256 } from '../services/crypto.ts';
import { hostCookie } from '../services/host-cookie.ts';
import { ApiError } from '../services/http.ts';
import { findLoginParams } from '../services/login-requests.ts';
import { replaceSession, restartSession } from '../services/sessions.ts';
import { findUserById } from '../services/users.ts';
import { isLoopbackHttp, upstreamFailure } from './federation.ts';
import { deriveSecret } from './keys.ts';
import type { PortalClient } from './authorization-server.ts';

/**
 * The API as the client of its own authorization server: the state social/get_csrf hands out,
 * bound to the browser, and the code exchange of api/auth/callback.
 */

/** Random per-browser cookie whose sha256 is a federation state's browser_binding. */
export const BROWSER_COOKIE = 'fd_browser';
/** A sign-in started by get_csrf must come back within this time. */
const FEDERATION_STATE_TTL_MS = 60 * 60 * 1000;
/**
 * How long after its use a callback asked again by its own browser, whose first answer was lost,
 * signs that browser in again (a reload of Chromium's error page, or the pupil's): a minute or two.
 */
export const LOST_CALLBACK_WINDOW_MS = 2 * 60 * 1000;

/** The browser's binding cookie, created when missing; returns its digest. */
function browserBinding(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Pick<AppConfig, 'cookieSecure'>,
): string {
  const cookie = hostCookie(BROWSER_COOKIE, config);
  let token = cookie.read(request);
  if (!token || !/^[\w-]{32,64}$/.test(token)) {
    token = randomToken();
    cookie.set(reply, token);
  }
  return sha256(token);
}

export const existingBrowserBinding = (
  request: FastifyRequest,
  config: Pick<AppConfig, 'cookieSecure'>,
): string | undefined => {
  const token = hostCookie(BROWSER_COOKIE, config).read(request);
  return token ? sha256(token) : undefined;
};

/**
 * Whether `state` is a portal state issued to this browser (its fd_browser hashes to the state's
 * binding). Every authorization's state is the portal's (it is the one client), so this says which
 * browser started an interaction: oidc-provider's `_interaction` cookie cannot, being scoped to the
 * interaction's path and so no `__Host-` cookie, which a sibling subdomain can plant.
 */
export async function isStateOfThisBrowser(
  ctx: AppContext,
  state: unknown,
  request: FastifyRequest,
): Promise<boolean> {
  const binding = existingBrowserBinding(request, ctx.config);
  if (typeof state !== 'string' || !binding || !isStorableText(state)) return false;
  const row = await ctx.db
    .selectFrom('federation_states')
    .select('browser_binding')
    .where('state', '=', state)
    .executeTakeFirst();
  return row !== undefined && safeEqual(row.browser_binding, binding);
}

/**
 * The product's login page (`/log-in/<login csrf>`) of the sign-in this browser has under way, its
 * fd_browser `token` naming it: its newest unused, unexpired state that remembers a login request
 * still live. Where "start again" sends a browser whose step of that sign-in is gone (the resume
 * asked again, its answer lost on the way), so it starts on the same product's page; else undefined.
 */
export async function loginPageOfPendingSignIn(
  ctx: AppContext,
  token: string | undefined,
): Promise<string | undefined> {
  if (!token || !isStorableText(token)) return undefined;
  const now = ctx.now();
  const pending = await ctx.db
    .selectFrom('federation_states')
    .select('login_csrf')
    .where('browser_binding', '=', sha256(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('login_csrf', 'is not', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  const csrf = pending?.login_csrf;
  return csrf && (await findLoginParams(ctx.db, csrf, now))
    ? `/log-in/${encodeURIComponent(csrf)}`
    : undefined;
}

/** PKCE verifier of a portal state: derived, so nothing but the state needs storing. */
export const portalPkceVerifier = (secret: Buffer, state: string): string =>
  deriveSecret(secret, 'portal-pkce', state);
const portalCodeChallenge = (secret: Buffer, state: string): Promise<string> =>
  client.calculatePKCECodeChallenge(portalPkceVerifier(secret, state));

/**
 * Issues the state of one sign-in, bound to this browser, remembering the portal's login csrf when
 * known (where the browser continues afterwards); api/auth/callback accepts it once, from
 * this browser, within FEDERATION_STATE_TTL_MS. Returns it with the PKCE challenge the authorize
 * url must carry.
 */
export async function issueSignInState(
  ctx: AppContext,
  secret: Buffer,
  http: { request: FastifyRequest; reply: FastifyReply },
  signIn: { provider: IdentityProvider; loginCsrf?: string | undefined },
): Promise<{ state: string; codeChallenge: string }> {
  const state = randomToken();
  const now = ctx.now();
  await ctx.db
    .insertInto('federation_states')
    .values({
      state,
      provider: signIn.provider,
      browser_binding: browserBinding(http.request, http.reply, ctx.config),
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

  /**
   * Exchanges the code of the callback URL; returns the signed-in account id (ID token sub) and how
   * it signed in (its `amr`: `pwd` or the upstream provider's name, interactions.ts), or null.
   */
  async exchange(callbackQuery: string, state: string): Promise<{ userId: string; method: string | null }> {
    const config = await this.#configuration();
    const currentUrl = new URL(this.portal.redirectUri);
    currentUrl.search = callbackQuery;
    const tokens = await client.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: portalPkceVerifier(this.secret, state),
      expectedState: state,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims?.sub) throw new Error('the authorization server returned no subject');
    const method = Array.isArray(claims.amr) && typeof claims.amr[0] === 'string' ? claims.amr[0] : null;
    return { userId: claims.sub, method };
  }
}

/** What api/auth/callback received: the callback URL's query and the browser that sent it. */
export interface CallbackInput {
  /** The callback URL's query string, `?` included, as sent (the code exchange checks it). */
  search: string;
  /** The browser's binding digest (existingBrowserBinding). */
  binding: string | undefined;
  /** The sessions the browser's cookies named before (a shared device's previous person): sessionsToEnd. */
  previousSessions: string[];
  address: string;
}

/** A refusal names the page to show: a bad state gets the generic one, an upstream failure its own. */
export type CallbackOutcome =
  | { refused: 'state' }
  /** The portal's own code exchange failed for now (its database busy): the same callback again goes on. */
  | { refused: 'busy' }
  | { refused: 'upstream' }
  /** The provider said no (`access_denied`): nothing broke, and trying again would not help. */
  | { refused: 'provider' }
  /** The account is turned off (`user disable`): no session starts for it (createSession). */
  | { refused: 'disabled' }
  | { refused?: undefined; session: string; loginCsrf: string | null };

/**
 * Ends a sign-in at api/auth/callback: the state must exist, be unused, unexpired and bound to this
 * browser, and is spent once (of racing callbacks only the one that claims it goes on); then the
 * code is exchanged (PKCE) and the account gets a new session, which the state records. Returns its
 * token and the login csrf the state remembered. A used state asked again by the browser it is bound
 * to goes on as the lost answer would have (signInAgain). An exchange that failed for now (the authorization server's 5xx, its
 * database held by a lock or unreachable, or no answer) gives the state back, so the same callback
 * asked again exchanges the code then; oidc-provider takes a code once, so one the failed answer had
 * already spent is refused. A refused exchange (a code spent or expired) spends the state: start again.
 */
export async function completeSignIn(
  ctx: AppContext,
  exchange: PortalCodeExchange,
  input: CallbackInput,
  log: FastifyBaseLogger,
): Promise<CallbackOutcome> {
  const now = ctx.now();
  const query = new URLSearchParams(input.search);
  const state = query.get('state');
  // a state holding a NUL was never issued (and PostgreSQL would refuse the query): refused as unknown
  const row =
    state && isStorableText(state)
      ? await ctx.db.selectFrom('federation_states').selectAll().where('state', '=', state).executeTakeFirst()
      : undefined;
  if (!state || !row || !input.binding || !safeEqual(row.browser_binding, input.binding)) {
    return { refused: 'state' };
  }
  if (row.used_at !== null) return signInAgain(ctx, row, input, now);
  if (row.expires_at <= now) return { refused: 'state' };
  if (!(await claimOnce(ctx.db, 'federation_states', (used) => used.where('state', '=', state), now)))
    return { refused: 'state' };

  const error = query.get('error');
  if (error !== null) {
    if (error === 'access_denied') {
      log.info({ error }, 'authorization refused');
      return { refused: 'provider' };
    }
    // temporarily_unavailable: a provider down or slow (its status in the identity line before)
    log.warn({ error }, 'sign-in failed');
    return { refused: 'upstream' };
  }
  let signedIn: { userId: string; method: string | null };
  try {
    signedIn = await exchange.exchange(input.search, state);
  } catch (err) {
    const { temporary, status } = upstreamFailure('token', err);
    log.warn({ err, status, temporary }, 'code exchange failed');
    if (!temporary) return { refused: 'state' };
    await releaseClaim(ctx.db, 'federation_states', (used) => used.where('state', '=', state), now);
    return { refused: 'busy' };
  }
  const user = await findUserById(ctx.db, signedIn.userId);
  if (!user) return { refused: 'upstream' };
  const session = await unlessDisabled(() =>
    replaceSession(ctx.db, input.previousSessions, user.id, now, {
      via: 'callback',
      method: signedIn.method,
      address: input.address,
    }),
  );
  if (typeof session !== 'string') return session;
  await ctx.db
    .updateTable('federation_states')
    .set({ session_id: sha256(session) })
    .where('state', '=', state)
    .execute();
  return { session, loginCsrf: row.login_csrf };
}

/**
 * A session started by `start`, or the refusal of an account an operator turned off meanwhile
 * (`user disable` between the sign-in and its session): the callback shows that page, never the
 * API's error.
 */
async function unlessDisabled<T>(start: () => Promise<T>): Promise<T | { refused: 'disabled' }> {
  try {
    return await start();
  } catch (err) {
    if (err instanceof ApiError && err.code === 'accountDisabled') return { refused: 'disabled' };
    throw err;
  }
}

/**
 * A used state back at the callback from the browser it is bound to: its answer (the session
 * cookie) was lost on the way, and a reload asks again. Within LOST_CALLBACK_WINDOW_MS of its use,
 * while the session it started is live and the browser does not hold that session's cookie, the
 * browser gets a session in its place (that one ends) and goes where the first answer sent it.
 * Otherwise it is refused as any used state: after a sign-out (the next pupil on a shared device
 * reloading the last one's callback), after the window, after a failed exchange, or when the
 * answer did arrive.
 */
async function signInAgain(
  ctx: AppContext,
  row: {
    state: string;
    browser_binding: string;
    used_at: number | null;
    session_id: string | null;
    login_csrf: string | null;
  },
  input: CallbackInput,
  now: number,
): Promise<CallbackOutcome> {
  const lost = row.session_id;
  // only a browser that holds no session at all (its answer, the cookie, never came) and started no
  // sign-in since: on a shared device the next pupil has signed in (a session) or started to (a newer
  // state of this browser) before they could press Back to the last one's callback
  if (
    lost === null ||
    row.used_at === null ||
    now - row.used_at > LOST_CALLBACK_WINDOW_MS ||
    input.previousSessions.length > 0
  )
    return { refused: 'state' };
  const newer = await ctx.db
    .selectFrom('federation_states')
    .select('state')
    .where('browser_binding', '=', row.browser_binding)
    .where('created_at', '>', row.used_at)
    .executeTakeFirst();
  if (newer) return { refused: 'state' };
  const session = await unlessDisabled(() =>
    restartSession(ctx.db, lost, input.previousSessions, now, ctx.config.sessionIdleMs, input.address),
  );
  if (session === null) return { refused: 'state' };
  if (typeof session !== 'string') return session;
  await ctx.db
    .updateTable('federation_states')
    .set({ session_id: sha256(session) })
    .where('state', '=', row.state)
    .execute();
  return { session, loginCsrf: row.login_csrf };
}

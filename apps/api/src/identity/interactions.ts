import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import type Provider from 'oidc-provider';
import type { Interaction, InteractionResults } from 'oidc-provider';
import {
  buildAuthorizeUrl,
  LANGUAGE_COOKIE,
  isValidEmail,
  messages,
  normalizeEmail,
  type UpstreamProvider,
} from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { recordSignIn } from '../services/accounts.ts';
import { audit } from '../services/audit.ts';
import type { SendReset } from '../services/password-sign-in.ts';
import { safeEqual } from '../services/crypto.ts';
import { hostCookie } from '../services/host-cookie.ts';
import { countSignIn } from '../services/metrics.ts';
import { portalConfig } from '../services/portal-config.ts';
import { claimInteractionAnswer, releaseInteractionAnswer } from './adapter.ts';
import { postLoginPath } from './callback.ts';
import { EmailHasAccountError, resolveUpstreamAccount } from './linked-identities.ts';
import { isIdentityProvider } from './authorization-server.ts';
import { isSchoolRosterProvider } from './settings.ts';
import { UpstreamFailure, upstreamFailure, type Federation } from './federation.ts';
import { refusePage, refuseUnboundStep } from './pages.ts';
import { deriveSecret } from './keys.ts';
import { isStateOfThisBrowser, issueSignInState } from './portal-login.ts';
import { PROVIDER_ANSWER_COOKIE, PROVIDER_ANSWER_TTL_MS, openAnswer, sealAnswer } from './provider-answer.ts';

/** Binds POST api/cognito/login to the browser that started the interaction (see docs/identity.md). */
export const INTERACTION_COOKIE = 'fd_interaction';
const interactionBinding = (secret: Buffer, uid: string): string =>
  deriveSecret(secret, 'interaction-binding', uid);
export const isBoundToInteraction = (secret: Buffer, uid: string, cookie: string | undefined): boolean =>
  typeof cookie === 'string' && safeEqual(cookie, interactionBinding(secret, uid));

/** How often a repeated upstream answer looks whether the first one has ended its interaction. */
const ANSWER_POLL_MS = 100;

/** Interaction uids are oidc-provider nanoids; anything else never reaches a lookup or a path. */
export const UID_PATTERN = /^[A-Za-z0-9_-]{10,64}$/;

export interface InteractionDeps {
  ctx: AppContext;
  provider: Provider;
  federation: Federation;
  secret: Buffer;
  /**
   * Sends the password-reset mail for an email (same service as cognito/sendreset), in the request's
   * languages (tag lists, best first) else the account's.
   */
  sendReset: SendReset;
}

type UidRequest = FastifyRequest<{ Params: { uid: string } }>;

/**
 * The current interaction of this browser, only when it is the one the URL names and this browser
 * started it: an attacker's `_interaction` cookie planted in a child's browser must not let the
 * child's password or provider sign-in finish the attacker's sign-in.
 */
async function currentInteraction(
  ctx: AppContext,
  provider: Provider,
  request: UidRequest,
  reply: FastifyReply,
) {
  const details = await provider.interactionDetails(request.raw, reply.raw).catch(() => undefined);
  if (!details || details.uid !== request.params.uid) return undefined;
  return (await isStateOfThisBrowser(ctx, details.params.state, request)) ? details : undefined;
}

const upstreamOf = (value: unknown): UpstreamProvider | undefined =>
  isIdentityProvider(value) && value !== 'COGNITO' ? value : undefined;

/**
 * Routes of the authorization server's interactions (under /oidc, served by Fastify beside the
 * mounted oidc-provider):
 * - GET /oidc/interaction/:uid — COGNITO (or no identity_provider) → the SPA password page
 *   /sign-in/<uid> (no email in its address); an upstream → its authorization URL;
 * - GET|POST /oidc/interaction/callback/:provider — the upstream's redirect_uri, cookie
 *   independent (Apple form-posts cross site), → 303 /oidc/interaction/<state>/federated, a posted
 *   answer sealed in a cookie rather than in that URL (provider-answer.ts);
 *   a Clever or ClassLink code without a state (a launch from Clever's portal, Instant Login, or
 *   from ClassLink LaunchPad) → a new sign-in with that provider;
 * - GET /oidc/interaction/:uid/federated — exchanges the upstream code, finds, links or creates
 *   the account and finishes the interaction;
 * - POST (or GET) /oidc/forgotPassword — sends the reset mail, → /forgot-password (or /email).
 */
export function interactionRoutes(scope: FastifyInstance, deps: InteractionDeps): void {
  const { ctx, provider, federation, secret } = deps;
  // the request's own logger: its lines carry the reqId an answer's x-request-id names
  const log = (request: FastifyRequest) => request.log.child({ component: 'identity' });
  /**
   * Ends the interaction with `result` and sends the browser on to resume it. A login already there
   * stays (a sign-in that succeeded never turns into a failure); an interaction gone meanwhile (another
   * tab finished it) answers the refusal page, not the API's JSON.
   */
  const finish = async (
    request: UidRequest,
    reply: FastifyReply,
    details: Interaction,
    result: InteractionResults,
  ) => {
    if (details.result?.login) return reply.redirect(details.returnTo, 303);
    let returnTo: string;
    try {
      returnTo = await provider.interactionResult(request.raw, reply.raw, result);
    } catch (error) {
      log(request).warn({ err: error }, 'interaction ended before its result');
      return refusePage(request, reply);
    }
    return reply.redirect(returnTo, 303);
  };
  /**
   * Ends the interaction with an OAuth error: the portal's callback shows messages.upstreamFailed
   * for `temporarily_unavailable` (try again), messages.upstreamRefused for `access_denied`.
   */
  const endWithError = (request: UidRequest, reply: FastifyReply, details: Interaction, error: string) =>
    finish(request, reply, details, {
      error,
      // what the callback's page will say: a refusal does not ask to try again
      error_description: error === 'access_denied' ? messages.upstreamRefused : messages.upstreamFailed,
    });

  /**
   * A repeat of an upstream answer another request took (the same /federated URL again: a retry after
   * a lost response on a school's Wi-Fi, a second tab): its code is not exchanged twice. Once the
   * first request has ended the interaction (a login or an error) this browser resumes it as the
   * first would have; gone already (resumed), the browser goes on as signed in, which /post-login checks.
   */
  const afterTakenAnswer = async (request: UidRequest, reply: FastifyReply, uid: string) => {
    for (let waited = 0; waited <= federation.completionLimitMs; waited += ANSWER_POLL_MS) {
      const interaction = await provider.Interaction.find(uid);
      if (!interaction) return reply.redirect(postLoginPath(null), 303);
      if (interaction.result) return reply.redirect(interaction.returnTo, 303);
      await sleep(ANSWER_POLL_MS);
    }
    return refusePage(request, reply);
  };

  scope.get('/oidc/interaction/:uid', async (request: UidRequest, reply) => {
    const details = await currentInteraction(ctx, provider, request, reply);
    if (!details) return refuseUnboundStep(request, reply, ctx.config);
    const loginHint = typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined;
    const upstream = upstreamOf(details.params.identity_provider);
    if (!upstream) {
      hostCookie(INTERACTION_COOKIE, ctx.config).set(
        reply,
        interactionBinding(secret, details.uid),
        Math.max(1, details.exp - Math.floor(ctx.now() / 1000)) * 1000,
      );
      // the email stays out of this address: the end of a redirect chain is a visit in the browser's
      // history (a shared computer's lists who signed in), and the SPA's tab remembers it
      return reply.redirect(`/sign-in/${encodeURIComponent(details.uid)}`, 303);
    }
    try {
      const url = await federation.authorizationUrl(upstream, details.uid, loginHint);
      return reply.redirect(url.href, 303);
    } catch (error) {
      const { step, status } = upstreamFailure('discovery', error);
      // a provider that is down is a warn per sign-in, as its failures at the later steps
      log(request).warn({ err: error, provider: upstream, step, status }, 'upstream sign-in failed');
      return endWithError(request, reply, details, 'temporarily_unavailable');
    }
  });

  /**
   * A launch from a school-roster portal (Clever Instant Login, ClassLink LaunchPad) arrives with
   * a code and no state of ours. That code is never exchanged (whoever sent the browser could have
   * chosen it: a sign-in into their account): the browser starts a sign-in of its own with that
   * provider, as the login page's button would, and the provider, already signed in, answers at once.
   */
  const restartSignIn = async (provider: UpstreamProvider, request: FastifyRequest, reply: FastifyReply) => {
    const { state, codeChallenge } = await issueSignInState(ctx, secret, { request, reply }, { provider });
    log(request).info({ provider }, 'portal launch: starting a sign-in with a state of ours');
    return reply
      .header('cache-control', 'no-store')
      .redirect(buildAuthorizeUrl(portalConfig(ctx.config), { provider, state, codeChallenge }), 303);
  };

  const answerCookie = hostCookie(PROVIDER_ANSWER_COOKIE, ctx.config);
  /** An answer in a URL (a GET) goes on in it; a posted one (Apple) in a sealed cookie, never in a URL. */
  const toFederated = async (
    request: FastifyRequest<{ Params: { provider: string } }>,
    reply: FastifyReply,
    params: URLSearchParams,
    posted: boolean,
  ) => {
    const state = params.get('state') ?? '';
    const launchedBy = request.params.provider;
    if (isSchoolRosterProvider(launchedBy) && !state && params.has('code') && federation.has(launchedBy))
      return restartSignIn(launchedBy, request, reply);
    if (!upstreamOf(request.params.provider) || !UID_PATTERN.test(state)) return refusePage(request, reply);
    if (!posted) return reply.redirect(`/oidc/interaction/${state}/federated?${params.toString()}`, 303);
    answerCookie.set(reply, sealAnswer(secret, state, params, ctx.now()), PROVIDER_ANSWER_TTL_MS);
    return reply.redirect(`/oidc/interaction/${state}/federated`, 303);
  };
  scope.get(
    '/oidc/interaction/callback/:provider',
    (request: FastifyRequest<{ Params: { provider: string } }>, reply) =>
      toFederated(request, reply, new URL(request.url, 'http://x').searchParams, false),
  );
  scope.post(
    '/oidc/interaction/callback/:provider',
    (request: FastifyRequest<{ Params: { provider: string } }>, reply) => {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries((request.body ?? {}) as Record<string, unknown>)) {
        if (typeof value === 'string') params.set(key, value);
      }
      return toFederated(request, reply, params, true);
    },
  );

  scope.get('/oidc/interaction/:uid/federated', async (request: UidRequest, reply) => {
    const details = await currentInteraction(ctx, provider, request, reply);
    if (!details) return refuseUnboundStep(request, reply, ctx.config);
    const upstream = upstreamOf(details.params.identity_provider);
    if (!upstream || !federation.has(upstream)) return refusePage(request, reply);
    if (!(await claimInteractionAnswer(ctx.db, details.uid, ctx.now())))
      return afterTakenAnswer(request, reply, details.uid);
    const callbackUrl = new URL(federation.redirectUri(upstream));
    const query = new URL(request.url, 'http://x').searchParams;
    // a posted answer arrives sealed in its cookie, read once
    const posted =
      query.size === 0 ? openAnswer(secret, details.uid, answerCookie.read(request), ctx.now()) : null;
    if (answerCookie.read(request) !== undefined) answerCookie.clear(reply);
    callbackUrl.search = (posted ?? query).toString();
    let accountId: string;
    try {
      const identity = await federation.complete(upstream, details.uid, callbackUrl);
      const { user, resolution } = await resolveUpstreamAccount(ctx.db, identity, ctx.now());
      log(request).info({ provider: upstream, userId: user.id, resolution }, 'upstream sign-in');
      // an account turned off is refused at the callback (no session starts): no sign-in to record
      if (user.disabled_at === null)
        await recordSignIn(ctx, user, {
          address: request.ip,
          // a page the browser opened: the language menu's cookie, then the browser's languages
          languages: [request.cookies[LANGUAGE_COOKIE], request.headers['accept-language']],
          detail: { method: 'federated', provider: upstream, account: resolution },
        });
      else
        await audit(ctx, {
          event: 'sign-in.failed',
          userId: user.id,
          address: request.ip,
          detail: { method: 'federated', provider: upstream, reason: 'disabled' },
        });
      accountId = user.id;
    } catch (error) {
      // which request failed and the provider's status (never its code or tokens): a provider that is
      // down is told apart from one that said no
      const failure = error instanceof UpstreamFailure ? error : undefined;
      log(request).warn(
        { err: error, provider: upstream, step: failure?.step, status: failure?.status },
        'upstream sign-in failed',
      );
      // not an audited guess (the provider said no, or did not answer), yet worth a graph
      countSignIn('federated', 'failure');
      if (error instanceof EmailHasAccountError) {
        // the interaction stays open: another account chosen at the provider is a new answer to take
        await releaseInteractionAnswer(ctx.db, details.uid);
        // the address's owner signs in with its password (or chooses a new one) on the email page
        return refusePage(request, reply, 'accountExists', {
          status: 409,
          href: '/email',
          hint: 'useEmailInstead',
        });
      }
      return endWithError(
        request,
        reply,
        details,
        failure?.temporary ? 'temporarily_unavailable' : 'access_denied',
      );
    }
    return finish(request, reply, details, { login: { accountId, amr: [upstream] } });
  });

  /**
   * The provider forgotPassword url (§7): the SPA sends it as a form POST, so the address it names
   * (login_hint) stays out of every URL a shared device's history keeps; a GET is taken alike. The
   * page it goes on to names no address either: the tab that sent the browser here remembers it.
   */
  const forgotPassword = async (hint: unknown, request: FastifyRequest, reply: FastifyReply) => {
    if (typeof hint !== 'string' || !isValidEmail(hint)) return reply.redirect('/email', 303);
    // a page the browser opened: the language menu's cookie, then the browser's languages
    await deps.sendReset(normalizeEmail(hint), request.ip, [
      request.cookies[LANGUAGE_COOKIE],
      request.headers['accept-language'],
    ]);
    return reply.redirect('/forgot-password', 303);
  };
  scope.get(
    '/oidc/forgotPassword',
    { config: { sameSiteOnly: true } },
    (request: FastifyRequest<{ Querystring: Record<string, unknown> }>, reply) =>
      forgotPassword(request.query.login_hint, request, reply),
  );
  scope.post(
    '/oidc/forgotPassword',
    { config: { sameSiteOnly: true } },
    (request: FastifyRequest<{ Body: Record<string, unknown> | undefined }>, reply) =>
      forgotPassword(request.body?.login_hint, request, reply),
  );
}

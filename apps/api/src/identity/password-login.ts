import type { FastifyInstance, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { apiPaths, cognitoLoginBody, messages } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { hostCookie } from '../services/host-cookie.ts';
import { ApiError, ok, parseWith } from '../services/http.ts';
import { signInWithPassword, type SendReset } from '../services/password-sign-in.ts';
import { replaceSession, sessionsToEnd, setSessionCookie } from '../services/sessions.ts';
import { INTERACTION_COOKIE, UID_PATTERN, isBoundToInteraction } from './interactions.ts';
import { isStateOfThisBrowser } from './portal-login.ts';

export interface PasswordLoginDeps {
  ctx: AppContext;
  provider: Provider;
  secret: Buffer;
  /**
   * Mails a reset code from the client's address, in its languages (tag lists, best first) else the
   * account's; a sending limit keeps the earlier code instead.
   */
  sendReset: SendReset;
}

/**
 * POST api/cognito/login {email, password, uid}: the password check of services/password-sign-in.ts.
 * With `uid` it completes that authorization-server interaction (bound to this browser by the
 * fd_interaction cookie set when the interaction sent the browser to /sign-in/<uid>, and by the
 * browser its portal state was issued to) and answers {redirect} = the authorization server's resume
 * URL. Without `uid` it signs in directly (session cookie) and answers {redirect: '/post-login'}.
 * Must-reset accounts get the reset mail and {redirect: '/forgot-password'} instead (the page reads the
 * address from the tab, never from its URL).
 */
export function passwordLoginRoute(api: FastifyInstance, deps: PasswordLoginDeps): void {
  const { ctx, provider, secret } = deps;
  /** The interaction `uid` names, only for the browser that started it (docs/identity.md). */
  const boundInteraction = async (uid: string, request: FastifyRequest) => {
    const bound =
      UID_PATTERN.test(uid) &&
      isBoundToInteraction(secret, uid, hostCookie(INTERACTION_COOKIE, ctx.config).read(request));
    const interaction = bound ? await provider.Interaction.find(uid) : undefined;
    const idp = interaction?.params.identity_provider;
    if (
      !interaction ||
      (idp !== undefined && idp !== 'COGNITO') ||
      !(await isStateOfThisBrowser(ctx, interaction.params.state, request))
    )
      throw new ApiError(400, 'stateInvalid');
    return interaction;
  };

  api.post(`/${apiPaths.cognitoLogin}`, async (request, reply) => {
    const body = parseWith(cognitoLoginBody, request.body);
    const interaction = body.uid === undefined ? undefined : await boundInteraction(body.uid, request);
    const signIn = await signInWithPassword(ctx, {
      email: body.email,
      password: body.password,
      address: request.ip,
      languages: [request.headers['accept-language']],
      sendReset: deps.sendReset,
    });
    if (signIn.kind === 'mustReset')
      return ok({ redirect: '/forgot-password' }, messages.passwordResetRequired);
    if (interaction) {
      interaction.result = { login: { accountId: signIn.user.id, amr: ['pwd'] } };
      await interaction.save(Math.max(1, interaction.exp - Math.floor(ctx.now() / 1000)));
      return ok({ redirect: interaction.returnTo });
    }
    const token = await replaceSession(
      ctx.db,
      sessionsToEnd(request, ctx.config),
      signIn.user.id,
      ctx.now(),
      {
        via: 'password',
        address: request.ip,
      },
    );
    setSessionCookie(reply, token, ctx.config);
    return ok({ redirect: '/post-login' });
  });
}

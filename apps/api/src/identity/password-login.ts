import type { FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import { apiPaths, cognitoLoginBody, messages } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { rememberLanguage } from '../services/accounts.ts';
import { audit } from '../services/audit.ts';
import { hostCookie } from '../services/host-cookie.ts';
import { ApiError, ok, parseWith } from '../services/http.ts';
import { checkGuess, guessAtUnknownAccount, mayCheckUnconfirmedPassword } from '../services/limits.ts';
import { replaceSession, sessionsToEnd, setSessionCookie } from '../services/sessions.ts';
import { findUserByEmail, hashPassword, upgradePasswordHash, verifyPassword } from '../services/users.ts';
import { voidCodes } from '../services/codes.ts';
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
  sendReset: (email: string, address: string, languages: (string | undefined)[]) => Promise<void>;
}

let timingHash: Promise<string> | undefined;
/** Unknown emails still pay one argon2 verification, so timing does not reveal accounts. */
const equaliseTiming = async (ctx: AppContext, password: string) => {
  timingHash ??= hashPassword('frontdoor-timing-equaliser');
  const equaliser = await timingHash;
  await ctx.limits.hashing.run(() => verifyPassword(equaliser, password));
};

/**
 * POST api/cognito/login {email, password, uid}: the built-in user pool's password check.
 * With `uid` it completes that authorization-server interaction (bound to this browser by the
 * fd_interaction cookie set when the interaction sent the browser to /sign-in/<uid>) and answers
 * {redirect} = the authorization server's resume URL. Without `uid` it signs in directly
 * (session cookie) and answers {redirect: '/post-login'}. Must-reset accounts get the reset mail
 * and {redirect: '/forgot-password?email=..'} instead of a sign-in. Every check goes through the
 * abuse limits first (services/limits.ts): a wrong password counts against the account, the pair of
 * address and account, and the address; a right one resets them, and upgrades a hash made with
 * older parameters (upgradePasswordHash).
 */
export function passwordLoginRoute(api: FastifyInstance, deps: PasswordLoginDeps): void {
  const { ctx, provider, secret } = deps;
  api.post(`/${apiPaths.cognitoLogin}`, async (request, reply) => {
    const body = parseWith(cognitoLoginBody, request.body);
    let interaction: InstanceType<Provider['Interaction']> | undefined;
    if (body.uid !== undefined) {
      const bound =
        UID_PATTERN.test(body.uid) &&
        isBoundToInteraction(secret, body.uid, hostCookie(INTERACTION_COOKIE, ctx.config).read(request));
      interaction = bound ? await provider.Interaction.find(body.uid) : undefined;
      const idp = interaction?.params.identity_provider;
      if (
        !interaction ||
        (idp !== undefined && idp !== 'COGNITO') ||
        !(await isStateOfThisBrowser(ctx, interaction.params.state, request))
      )
        throw new ApiError(400, 'stateInvalid');
    }
    const user = await findUserByEmail(ctx.db, body.email);
    if (user?.must_reset) {
      // an API call: its Accept-Language is the SPA's current language
      await deps.sendReset(user.email, request.ip, [request.headers['accept-language']]);
      return ok(
        { redirect: `/forgot-password?email=${encodeURIComponent(user.email)}` },
        messages.passwordResetRequired,
      );
    }
    if (!user) {
      await guessAtUnknownAccount(ctx, request.ip, 'password');
      await equaliseTiming(ctx, body.password);
      throw new ApiError(401, 'incorrectCredentials');
    }
    // a right password signs nobody in here and a success counts as no failure: past its hourly
    // checks an unconfirmed account is sent to its code without a hash
    if (user.confirmed !== 1 && !(await mayCheckUnconfirmedPassword(ctx, user)))
      throw new ApiError(403, 'userNotConfirmed');
    const right = await checkGuess(
      ctx,
      request.ip,
      user,
      'password',
      () => ctx.limits.hashing.run(() => verifyPassword(user.password_hash, body.password)),
      (verified) => (verified ? 'right' : 'wrong'),
    );
    if (!right) throw new ApiError(401, 'incorrectCredentials');
    await upgradePasswordHash(ctx, user, body.password);
    if (user.confirmed !== 1) throw new ApiError(403, 'userNotConfirmed');
    // an API call: its Accept-Language is the SPA's current language
    await rememberLanguage(ctx, user, [request.headers['accept-language']]);
    // the owner knows the password: a reset asked for before (its code in a mail or a shared
    // device's history) opens nothing any more
    await voidCodes(ctx.db, user.id, 'reset', ctx.now());
    await audit(ctx, {
      event: 'sign-in',
      userId: user.id,
      address: request.ip,
      detail: { method: 'password' },
    });

    if (interaction) {
      interaction.result = { login: { accountId: user.id, amr: ['pwd'] } };
      await interaction.save(Math.max(1, interaction.exp - Math.floor(ctx.now() / 1000)));
      return ok({ redirect: interaction.returnTo });
    }
    const token = await replaceSession(ctx.db, sessionsToEnd(request, ctx.config), user.id, ctx.now(), {
      via: 'password',
      address: request.ip,
    });
    setSessionCookie(reply, token, ctx.config);
    return ok({ redirect: '/post-login' });
  });
}

import type { FastifyInstance } from 'fastify';
import {
  SIGNUP_COOKIE,
  SIGNUP_COOKIE_TTL_MS,
  confirmBody,
  emailSchema,
  issueCode,
  resetBody,
  sendResetBody,
  signupBody,
} from '@frontdoor/contract';
import * as z from 'zod/mini';
import type { AppContext } from '../context.ts';
import { ok, parseWith } from '../services/http.ts';
import {
  confirmAccount,
  resendCode,
  resetFailure,
  resetPassword,
  signUp,
  signupBrowser,
  startPasswordReset,
} from '../services/accounts.ts';
import { accountMethods, findUserByEmail } from '../services/users.ts';
import { clearSessionCookie, revokeSessions, sessionsToEnd } from '../services/sessions.ts';
import { hostCookie } from '../services/host-cookie.ts';
import { pickLanguage } from '../mail/render.ts';

const emailParam = z.object({ email: emailSchema });

/** cognito/* except login (the identity module mounts that one). */
export const cognitoRoutes =
  (ctx: AppContext) =>
  async (app: FastifyInstance): Promise<void> => {
    const signupCookie = hostCookie(SIGNUP_COOKIE, ctx.config);

    app.get('/cognito/logout', { config: { sameSiteOnly: true } }, async (request, reply) => {
      await revokeSessions(ctx.db, sessionsToEnd(request, ctx.config), ctx.now());
      clearSessionCookie(reply, ctx.config);
      return ok(null);
    });

    app.post('/cognito/signup', async (request, reply) => {
      const body = parseWith(signupBody, request.body);
      const { browser, held } = signupBrowser(signupCookie.read(request));
      const user = await signUp(ctx, {
        email: body.email,
        first: body.first,
        last: body.last,
        description: body.description,
        password: body.pw,
        inviteCode: body.code,
        language: pickLanguage(request.headers['accept-language']),
        address: request.ip,
        browser,
        browserHeld: held,
      });
      signupCookie.set(reply, browser, SIGNUP_COOKIE_TTL_MS);
      return ok({ email: user.email });
    });

    app.post('/cognito/confirm', async (request) => {
      const body = parseWith(confirmBody, request.body);
      const { newPasswordNeeded } = await confirmAccount(
        ctx,
        body.un,
        body.code,
        request.ip,
        signupCookie.read(request),
      );
      return ok({ email: body.un, newPasswordNeeded });
    });

    app.get('/cognito/resend_verification/:email', { config: { sameSiteOnly: true } }, async (request) => {
      const { email } = parseWith(emailParam, request.params);
      const result = await resendCode(ctx, email, {
        address: request.ip,
        languages: [request.headers['accept-language']],
      });
      return ok(result);
    });

    app.post('/cognito/sendreset', async (request) => {
      const { un } = parseWith(sendResetBody, request.body);
      // same answer whether or not the address has an account (docs/api.md, enumeration policy)
      await startPasswordReset(ctx, un, request.ip, [request.headers['accept-language']]);
      return ok(null);
    });

    app.post('/cognito/reset', async (request) => {
      const parsed = resetBody.safeParse(request.body);
      if (!parsed.success) {
        const code = issueCode(parsed.error);
        const exception =
          code === 'passwordPolicy' ? 'InvalidPasswordException' : 'InvalidParameterException';
        throw resetFailure(400, code, exception);
      }
      await resetPassword(ctx, {
        email: parsed.data.un,
        code: parsed.data.code,
        password: parsed.data.pw,
        address: request.ip,
        browser: signupCookie.read(request),
      });
      return ok(null);
    });

    app.get('/cognito/get_account_type/:email', async (request) => {
      const { email } = parseWith(emailParam, request.params);
      const user = await findUserByEmail(ctx.db, email);
      if (!user) return ok({ exists: false, methods: [] });
      return ok({ exists: true, methods: await accountMethods(ctx.db, user) });
    });
  };

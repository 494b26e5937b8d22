import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { apiPaths, getCsrfQuery } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { ApiError, ok, parseWith } from '../services/http.ts';
import { issueSignInState } from '../identity/portal-login.ts';

const isHttpUrl = (value: string): boolean => {
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:';
};

/**
 * GET api/social/get_csrf?r&p[&c]: issues the state of one sign-in (payload.csrf), bound to this
 * browser by the fd_browser cookie, remembering the provider p and the portal's login csrf c (the
 * return url r must be http/https, though the login request of c is where the browser returns to);
 * payload.code_challenge is the PKCE challenge the authorize url
 * must carry. api/auth/callback accepts the state once, from this browser, within an hour.
 */
export const socialRoutes =
  (ctx: AppContext, secret: Buffer): FastifyPluginAsync =>
  async (api: FastifyInstance) => {
    api.get(`/${apiPaths.getCsrf}`, async (request, reply) => {
      const query = parseWith(getCsrfQuery, request.query);
      if (query.r !== undefined && !isHttpUrl(query.r)) throw new ApiError(400, 'badRequest');
      const { state, codeChallenge } = await issueSignInState(
        ctx,
        secret,
        { request, reply },
        { provider: query.p, loginCsrf: query.c },
      );
      return ok({ csrf: state, code_challenge: codeChallenge });
    });
  };

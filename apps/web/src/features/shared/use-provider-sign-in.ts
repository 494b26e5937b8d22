import { useParams } from 'react-router';
import { useMutation } from '../../lib/query.ts';
import { buildAuthorizeUrl, buildForgotPasswordUrl, type IdentityProvider } from '@frontdoor/contract';
import { getCsrf } from './api.ts';
import { goToUrl, postToUrl } from './browser.ts';
import { useConfig } from '../../lib/config.tsx';
import { getLoginCsrf, getLoginParams, rememberEmail } from '../../lib/storage.ts';
import { chooseReturnUrl } from './return-url.ts';
import { loginParamsSettled } from './use-login-params.ts';

export interface ProviderSignIn {
  provider: IdentityProvider;
  loginHint?: string | undefined;
  /** 'forgot-password' sends the user to the provider's forgotPassword url instead of authorize. */
  target?: 'authorize' | 'forgot-password';
}

/**
 * §4 social login: fetch a CSRF state (social/get_csrf with the return url, the provider and the login
 * csrf: the page address's when it names one, log-in/{csrf}, else the held one), then leave for the
 * provider's authorize (or forgotPassword) page: for the email sign-in and the reset, a form POST of the
 * url's params (OpenID Connect Core §3.1.2.1; the server takes it from the portal's own pages only). Login params still on their way are waited for (the
 * call stays pending; their failure is its failure): without them the sign-in would come back to the
 * site root, not the product.
 */
export function useProviderSignIn() {
  const cfg = useConfig();
  const { csrf: routeCsrf } = useParams();
  return useMutation({
    mutationFn: async ({ provider, loginHint, target = 'authorize' }: ProviderSignIn) => {
      await loginParamsSettled();
      // the password page prefills it from this tab, never from its address (the history keeps that)
      if (provider === 'COGNITO' && loginHint) rememberEmail(loginHint);
      // the held params are the ones of that csrf once its fetch is over, unless it failed
      const c = routeCsrf ?? getLoginCsrf() ?? undefined;
      const r = chooseReturnUrl(c === getLoginCsrf() ? getLoginParams() : null, cfg);
      const { payload } = await getCsrf(cfg, { r, p: provider, c });
      // a sign-in that stays on the portal (email, forgot password) leaves as a form POST: a GET's
      // query (login_hint, an address) would stay in a shared device's history for the next person.
      // One for an upstream provider stays a GET: its redirects end at the provider's origin, which
      // the CSP's form-action 'self' would block after a form submission (Chromium checks redirects)
      const leave = provider === 'COGNITO' || target === 'forgot-password' ? postToUrl : goToUrl;
      leave(
        target === 'forgot-password' && loginHint
          ? buildForgotPasswordUrl(cfg, payload.csrf, loginHint)
          : buildAuthorizeUrl(cfg, {
              provider,
              state: payload.csrf,
              loginHint,
              codeChallenge: payload.code_challenge,
            }),
      );
    },
  });
}

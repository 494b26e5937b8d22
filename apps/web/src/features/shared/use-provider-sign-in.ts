import { useMutation } from '../../lib/query.ts';
import { buildAuthorizeUrl, buildForgotPasswordUrl, type IdentityProvider } from '@frontdoor/contract';
import { getCsrf } from './api.ts';
import { goToUrl } from './browser.ts';
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
 * §4 social login: fetch a CSRF state (social/get_csrf with the return url, the provider and the held
 * login csrf), then leave for the provider's authorize (or forgotPassword) page. Login params still on
 * their way are waited for (the call stays pending; their failure is its failure): without them the
 * sign-in would come back to the site root, not the product.
 */
export function useProviderSignIn() {
  const cfg = useConfig();
  return useMutation({
    mutationFn: async ({ provider, loginHint, target = 'authorize' }: ProviderSignIn) => {
      await loginParamsSettled();
      // the password page prefills it from this tab, never from its address (the history keeps that)
      if (provider === 'COGNITO' && loginHint) rememberEmail(loginHint);
      const r = chooseReturnUrl(getLoginParams(), cfg);
      const { payload } = await getCsrf(cfg, { r, p: provider, c: getLoginCsrf() ?? undefined });
      const url =
        target === 'forgot-password' && loginHint
          ? buildForgotPasswordUrl(cfg, payload.csrf, loginHint)
          : buildAuthorizeUrl(cfg, {
              provider,
              state: payload.csrf,
              loginHint,
              codeChallenge: payload.code_challenge,
            });
      goToUrl(url);
    },
  });
}

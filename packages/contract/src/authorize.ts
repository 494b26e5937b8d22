import type { IdentityProvider } from './providers.ts';
import type { PortalConfig } from './schemas.ts';

/** The scope every sign-in asks the authorization server for. */
export const AUTHORIZE_SCOPE = 'openid email profile';

type AuthorizeConfig = Pick<PortalConfig, 'loginUrl' | 'clientIds' | 'redirectUri'>;

export interface AuthorizeRequest {
  provider: IdentityProvider;
  /** The state handed out by social/get_csrf. */
  state: string;
  loginHint?: string | undefined;
  /** PKCE S256 challenge social/get_csrf hands out with the state (the authorization server requires PKCE). */
  codeChallenge?: string | undefined;
}

const loginBase = (cfg: AuthorizeConfig): string => cfg.loginUrl.replace(/\/+$/, '');

function oauthParams(cfg: AuthorizeConfig, state: string): Array<[string, string]> {
  return [
    ['client_id', cfg.clientIds.portal],
    ['response_type', 'code'],
    ['redirect_uri', cfg.redirectUri],
    ['scope', AUTHORIZE_SCOPE],
    ['state', state],
  ];
}

// encodeURIComponent (not URLSearchParams) so the scope's spaces travel as %20, never '+'
const toQuery = (pairs: Array<[string, string]>): string =>
  pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');

/** §7 browser redirect: the provider authorize url. */
export function buildAuthorizeUrl(cfg: AuthorizeConfig, request: AuthorizeRequest): string {
  const pairs = oauthParams(cfg, request.state);
  pairs.push(['identity_provider', request.provider]);
  if (request.loginHint) pairs.push(['login_hint', request.loginHint]);
  if (request.codeChallenge) {
    pairs.push(['code_challenge', request.codeChallenge], ['code_challenge_method', 'S256']);
  }
  return `${loginBase(cfg)}/oauth2/authorize?${toQuery(pairs)}`;
}

/** §4 reset-password: the provider's forgotPassword url, which mails the code and returns to /forgot-password. */
export function buildForgotPasswordUrl(cfg: AuthorizeConfig, state: string, loginHint: string): string {
  const pairs = oauthParams(cfg, state);
  pairs.push(['login_hint', loginHint]);
  return `${loginBase(cfg)}/forgotPassword?${toQuery(pairs)}`;
}

import { describe, expect, it } from 'vitest';
import { AUTHORIZE_SCOPE, buildAuthorizeUrl, buildForgotPasswordUrl } from './authorize.ts';

const cfg = {
  loginUrl: 'https://portal.example/oidc/',
  clientIds: { portal: 'portal-client' },
  redirectUri: 'https://portal.example/api/auth/callback',
};

describe('buildAuthorizeUrl (§7 provider authorize url)', () => {
  it('carries client_id, response_type=code, redirect_uri, scope, state, identity_provider and login_hint', () => {
    const url = new URL(buildAuthorizeUrl(cfg, { provider: 'COGNITO', state: 'st-1', loginHint: 'a@b.org' }));
    expect(url.origin + url.pathname).toBe('https://portal.example/oidc/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'portal-client',
      response_type: 'code',
      redirect_uri: 'https://portal.example/api/auth/callback',
      scope: 'openid email profile',
      state: 'st-1',
      identity_provider: 'COGNITO',
      login_hint: 'a@b.org',
    });
  });

  it('encodes the scope spaces as %20 and leaves login_hint out when there is no email', () => {
    const raw = buildAuthorizeUrl(cfg, { provider: 'Google', state: 's' });
    expect(raw).toContain(`scope=${encodeURIComponent(AUTHORIZE_SCOPE)}`);
    expect(raw).toContain('scope=openid%20email%20profile');
    expect(new URL(raw).searchParams.has('login_hint')).toBe(false);
    expect(new URL(raw).searchParams.has('code_challenge')).toBe(false);
  });

  it('carries the PKCE challenge of the state with code_challenge_method=S256', () => {
    const url = new URL(buildAuthorizeUrl(cfg, { provider: 'Clever', state: 's', codeChallenge: 'ch-1' }));
    expect(url.searchParams.get('code_challenge')).toBe('ch-1');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  });
});

describe('buildForgotPasswordUrl (§4 reset-password → provider forgot-password flow)', () => {
  it('is loginUrl/forgotPassword with client_id, response_type, scope, redirect_uri, state and login_hint', () => {
    const url = new URL(buildForgotPasswordUrl(cfg, 'st-2', 'x+y@school.org'));
    expect(url.pathname).toBe('/oidc/forgotPassword');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'portal-client',
      response_type: 'code',
      scope: 'openid email profile',
      redirect_uri: 'https://portal.example/api/auth/callback',
      state: 'st-2',
      login_hint: 'x+y@school.org',
    });
  });
});

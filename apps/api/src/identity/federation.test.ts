import { describe, expect, it } from 'vitest';
import { decodeProtectedHeader, exportPKCS8, generateKeyPair, jwtVerify } from 'jose';
import { calculatePKCECodeChallenge } from 'openid-client';
import { identitySettings } from './settings.ts';
import { Federation, appleClientSecret, isLoopbackHttp } from './federation.ts';
import { deriveSecret } from './keys.ts';

describe('federation', () => {
  it("Apple's client secret is an ES256 JWT: kid, iss = team, sub = client id, aud = Apple, short-lived", async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const jwt = await appleClientSecret(
      { teamId: 'TEAM123', keyId: 'KEY456', privateKey: await exportPKCS8(privateKey) },
      'com.example.web',
      'https://appleid.apple.com',
      Date.now(),
    );
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'ES256', kid: 'KEY456' });
    const { payload } = await jwtVerify(jwt, publicKey, {
      issuer: 'TEAM123',
      audience: 'https://appleid.apple.com',
      subject: 'com.example.web',
    });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBeLessThanOrEqual(15777000);
  });

  it('plain http only towards this machine', () => {
    expect(isLoopbackHttp('http://localhost:8080/dev/idp/Google')).toBe(true);
    expect(isLoopbackHttp('http://127.0.0.1:1/x')).toBe(true);
    expect(isLoopbackHttp('https://localhost/x')).toBe(false);
    expect(isLoopbackHttp('http://idp.example/x')).toBe(false);
  });

  it('the upstream authorization URL carries state = uid and the PKCE challenge derived from it', async () => {
    const secret = Buffer.alloc(32, 7);
    const { upstreams } = identitySettings(
      { CLEVER_CLIENT_ID: 'clever-client', CLEVER_CLIENT_SECRET: 's' },
      'https://portal.example',
      false,
    );
    const federation = new Federation(upstreams, {
      publicUrl: 'https://portal.example',
      secret,
      now: () => Date.now(),
      fetch: () => Promise.reject(new Error('no network in this test')),
    });
    const url = await federation.authorizationUrl('Clever', 'uid-1234567890', 'kid@school.example');
    expect(url.origin + url.pathname).toBe('https://clever.com/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'clever-client',
      redirect_uri: 'https://portal.example/oidc/interaction/callback/Clever',
      response_type: 'code',
      state: 'uid-1234567890',
      code_challenge: await calculatePKCECodeChallenge(deriveSecret(secret, 'pkce:Clever', 'uid-1234567890')),
      code_challenge_method: 'S256',
      login_hint: 'kid@school.example',
    });
    expect(federation.has('Google')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { decodeProtectedHeader, exportPKCS8, generateKeyPair, jwtVerify } from 'jose';
import { calculatePKCECodeChallenge } from 'openid-client';
import { identitySettings } from './settings.ts';
import { Federation, appleClientSecret, isLoopbackHttp } from './federation.ts';
import { deriveSecret } from './keys.ts';

describe('federation', () => {
  it("Apple's client secret is an ES256 JWT: kid, iss = team, sub = client id, aud = Apple, dated by the clock, 10 minutes long", async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    // the test's clock, years from the machine's: the token is dated by the time it is given
    const now = Date.UTC(2031, 4, 6, 7, 8, 9);
    const jwt = await appleClientSecret(
      { teamId: 'TEAM123', keyId: 'KEY456', privateKey: await exportPKCS8(privateKey) },
      'com.example.web',
      'https://appleid.apple.com',
      now,
    );
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'ES256', kid: 'KEY456' });
    const { payload } = await jwtVerify(jwt, publicKey, {
      issuer: 'TEAM123',
      audience: 'https://appleid.apple.com',
      subject: 'com.example.web',
      currentDate: new Date(now),
    });
    expect(payload.iat).toBe(now / 1000);
    expect(payload.exp).toBe(now / 1000 + 10 * 60);
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
      now: () => Date.UTC(2031, 4, 6),
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

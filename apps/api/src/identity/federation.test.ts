import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { SignJWT, decodeProtectedHeader, exportPKCS8, generateKeyPair, jwtVerify } from 'jose';
import { calculatePKCECodeChallenge } from 'openid-client';
import { identitySettings } from './settings.ts';
import { Federation, UpstreamFailure, appleClientSecret, isLoopbackHttp } from './federation.ts';
import { deriveSecret } from './keys.ts';
import { inProcessFetch } from './self-fetch.ts';
import { startFakeServer } from '../../test/fake-http.ts';

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

  it('Google and Microsoft show their account chooser: the last student on a shared device may still be signed in there', async () => {
    const { upstreams } = identitySettings(
      {
        GOOGLE_CLIENT_ID: 'google-client',
        GOOGLE_CLIENT_SECRET: 's',
        MICROSOFT_CLIENT_ID: 'ms-client',
        MICROSOFT_CLIENT_SECRET: 's',
      },
      'https://portal.example',
      false,
    );
    const federation = new Federation(upstreams, {
      publicUrl: 'https://portal.example',
      secret: Buffer.alloc(32, 5),
      now: () => Date.UTC(2031, 4, 6),
      fetch: (async (url: string) => {
        const issuer =
          new URL(url).origin + new URL(url).pathname.replace('/.well-known/openid-configuration', '');
        return Response.json({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/keys`,
        });
      }) as never,
    });
    for (const provider of ['Google', 'Microsoft'] as const) {
      const url = await federation.authorizationUrl(provider, 'uid-chooser-1234567890', 'kid@school.example');
      expect(url.searchParams.get('prompt'), provider).toBe('select_account');
      expect(url.searchParams.get('login_hint'), provider).toBe('kid@school.example');
    }
  });

  it('Sign in with Apple set up as documented (no client secret variable) signs in: its code is exchanged with the ES256 client secret', async () => {
    const secret = Buffer.alloc(32, 9);
    const now = Date.UTC(2031, 4, 6, 7, 8, 9);
    const appleKey = await generateKeyPair('ES256', { extractable: true });
    const { upstreams } = identitySettings(
      {
        APPLE_CLIENT_ID: 'com.example.web',
        APPLE_TEAM_ID: 'TEAM123',
        APPLE_KEY_ID: 'KEY456',
        APPLE_PRIVATE_KEY: await exportPKCS8(appleKey.privateKey),
      },
      'https://portal.example',
      false,
    );
    const issuer = 'https://appleid.apple.com';
    const uid = 'uid-apple-1234567890';
    // Apple's side: its discovery document, and a token endpoint that takes only its client secret
    const idTokenKey = await generateKeyPair('RS256');
    const tokenRequests: URLSearchParams[] = [];
    const fetch = async (url: string | URL, options?: { body?: unknown }) => {
      const { pathname } = new URL(url);
      if (pathname === '/.well-known/openid-configuration')
        return Response.json({
          issuer,
          authorization_endpoint: `${issuer}/auth/authorize`,
          token_endpoint: `${issuer}/auth/token`,
          jwks_uri: `${issuer}/auth/keys`,
        });
      const form = new URLSearchParams(String(options?.body));
      tokenRequests.push(form);
      const idToken = await new SignJWT({
        nonce: deriveSecret(secret, 'nonce:SignInWithApple', uid),
        email: 'kid@icloud.com',
        email_verified: 'true',
      })
        .setProtectedHeader({ alg: 'RS256', kid: 'apple-key' })
        .setIssuer(issuer)
        .setAudience('com.example.web')
        .setSubject('001234.apple-subject')
        .setIssuedAt(now / 1000)
        .setExpirationTime(now / 1000 + 600)
        .sign(idTokenKey.privateKey);
      return Response.json({ access_token: 'at', token_type: 'Bearer', id_token: idToken });
    };
    const federation = new Federation(upstreams, {
      publicUrl: 'https://portal.example',
      secret,
      now: () => now,
      fetch: fetch as never,
    });

    const authorize = await federation.authorizationUrl('SignInWithApple', uid);
    expect(authorize.searchParams.get('response_mode')).toBe('form_post');
    const identity = await federation.complete(
      'SignInWithApple',
      uid,
      new URL(
        `https://portal.example/oidc/interaction/callback/SignInWithApple?code=apple-code&state=${uid}`,
      ),
    );
    expect(identity).toMatchObject({
      subject: '001234.apple-subject',
      email: 'kid@icloud.com',
      linkableEmail: true,
    });
    const [form] = tokenRequests;
    expect(form?.get('code')).toBe('apple-code');
    await jwtVerify(form?.get('client_secret') ?? '', appleKey.publicKey, {
      issuer: 'TEAM123',
      subject: 'com.example.web',
      audience: issuer,
      currentDate: new Date(now),
    });
  });

  it('gives up on an upstream that does not answer after its timeout (UPSTREAM_TIMEOUT_SECONDS), not the library default of 30 s', async () => {
    // accepts the request and never answers it
    const hung = await startFakeServer(() => undefined);
    try {
      const { upstreams } = identitySettings(
        { GOOGLE_CLIENT_ID: 'google-client', GOOGLE_CLIENT_SECRET: 's', GOOGLE_ISSUER: hung.url },
        'https://portal.example',
        false,
      );
      const federation = new Federation(upstreams, {
        publicUrl: 'https://portal.example',
        secret: Buffer.alloc(32, 3),
        now: () => Date.UTC(2031, 4, 6),
        fetch: inProcessFetch(Fastify(), 'https://portal.example'),
        timeoutSeconds: 0.3,
      });
      // with the library's 30 s, the test's own time limit would run out first
      await expect(federation.authorizationUrl('Google', 'uid-hung-1234567890')).rejects.toThrow();
      expect(hung.requests.map((r) => r.url)).toEqual(['/.well-known/openid-configuration']);
    } finally {
      await hung.close();
    }
  });

  it('tells a provider that is down (5xx, 429, a timeout, no connection, its server_error) from one that said no, naming the failed request and its status', async () => {
    const { upstreams } = identitySettings(
      { CLEVER_CLIENT_ID: 'clever-client', CLEVER_CLIENT_SECRET: 's' },
      'https://portal.example',
      false,
    );
    const uid = 'uid-failing-1234567890';
    type Answer = (path: string) => Response | Promise<Response>;
    const failure = async (answer: Answer, query = `code=c&state=${uid}`) => {
      const federation = new Federation(upstreams, {
        publicUrl: 'https://portal.example',
        secret: Buffer.alloc(32, 4),
        now: () => Date.UTC(2031, 4, 6),
        fetch: (async (url: string) => answer(new URL(url).pathname)) as never,
      });
      const error = await federation
        .complete('Clever', uid, new URL(`https://portal.example/cb?${query}`))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UpstreamFailure);
      const { step, status, temporary } = error as UpstreamFailure;
      return { step, status, temporary };
    };
    const token =
      (tokenAnswer: () => Response): Answer =>
      (path) =>
        path === '/oauth/tokens' ? tokenAnswer() : Response.json({});
    const signedIn =
      (userInfo: Response): Answer =>
      (path) =>
        path === '/oauth/tokens' ? Response.json({ access_token: 'at', token_type: 'bearer' }) : userInfo;

    expect(await failure(token(() => new Response('<html>', { status: 500 })))).toEqual({
      step: 'token',
      status: 500,
      temporary: true,
    });
    expect(await failure(token(() => Response.json({ error: 'slow_down' }, { status: 429 })))).toEqual({
      step: 'token',
      status: 429,
      temporary: true,
    });
    expect(await failure(token(() => Response.json({ error: 'invalid_grant' }, { status: 400 })))).toEqual({
      step: 'token',
      status: 400,
      temporary: false,
    });
    const timedOut = () => {
      throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    };
    expect(await failure(token(timedOut))).toEqual({ step: 'token', status: undefined, temporary: true });
    const refusedConnection = () => {
      throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') });
    };
    expect(await failure(token(refusedConnection))).toEqual({
      step: 'token',
      status: undefined,
      temporary: true,
    });
    expect(await failure(signedIn(new Response('busy', { status: 503 })))).toEqual({
      step: 'userinfo',
      status: 503,
      temporary: true,
    });
    expect(await failure(signedIn(Response.json({}, { status: 403 })))).toEqual({
      step: 'userinfo',
      status: 403,
      temporary: false,
    });
    // the provider's own answer at the callback: the person said no, or the provider is down
    const answered = (error: string) => failure(token(timedOut), `error=${error}&state=${uid}`);
    expect(await answered('access_denied')).toEqual({
      step: 'authorization',
      status: undefined,
      temporary: false,
    });
    expect(await answered('temporarily_unavailable')).toEqual({
      step: 'authorization',
      status: undefined,
      temporary: true,
    });
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { API_PREFIX, apiPaths } from './api.ts';
import { maskEmails, maskEmailsInJson, scrubText, scrubUrl } from './scrub.ts';

const api = (path: string) => `${API_PREFIX}${path}`;

describe('scrubUrl: the secrets of §7 calls and §2 pages', () => {
  it('replaces the secret path segments of the API calls, keeping the rest', () => {
    expect(scrubUrl(api(apiPaths.accessCodeLogin('k7q2zx', 'mathworld')))).toBe(
      '/api/accessCodes/login/:code/mathworld',
    );
    expect(scrubUrl(api(apiPaths.inviteEmail('Zq9-xYw_3kLm')))).toBe('/api/devportal/getInviteEmail/:code');
    expect(scrubUrl(api(apiPaths.resendVerification('ada@school.test')))).toBe(
      '/api/cognito/resend_verification/:email',
    );
    expect(scrubUrl(api(apiPaths.accountType('ada@school.test')))).toBe(
      '/api/cognito/get_account_type/:email',
    );
    expect(scrubUrl(api(apiPaths.getCsrfLogin('abcdefghijkl')))).toBe('/api/gateway/getCsrfLogin/:csrf');
  });

  it('drops the query of auth/cookie, password-reset and validate links, and any fragment', () => {
    expect(scrubUrl('/api/auth/cookie?hash=h4sh&return_url=https%3A%2F%2Fapp.test%2F&token=t0k')).toBe(
      '/api/auth/cookie',
    );
    expect(scrubUrl('https://portal.test/password-reset?code=123456&email=ada%40school.test')).toBe(
      'https://portal.test/password-reset',
    );
    expect(scrubUrl('/validate?em=ada@school.test&vc=123456#top')).toBe('/validate');
    expect(scrubUrl('/auth/callback?code=abc&state=xyz')).toBe('/auth/callback');
    expect(scrubUrl('/oidc/auth?client_id=portal&login_hint=ada%40school.test#access_token=x')).toBe(
      '/oidc/auth',
    );
  });

  it('keeps locale, p and error when their value is plain', () => {
    expect(scrubUrl('/log-in?locale=pt-BR&code=1')).toBe('/log-in?locale=pt-BR');
    expect(scrubUrl('/api/social/get_csrf?r=https%3A%2F%2Fx.test%2F%3Ft%3D1&p=google&c=csrf')).toBe(
      '/api/social/get_csrf?p=google',
    );
    expect(scrubUrl('/auth/callback?error=access_denied&state=s')).toBe('/auth/callback?error=access_denied');
    expect(scrubUrl('/email?locale=ada%40school.test')).toBe('/email');
  });

  it("replaces the SPA pages' {code}, {csrf} and {uid} segments", () => {
    expect(scrubUrl('/invite/Zq9xYwkLm')).toBe('/invite/:code');
    for (const page of [
      'log-in',
      'create-account',
      'post-login',
      'access-code',
      'error-generic',
      'error-timeout',
    ])
      expect(scrubUrl(`/${page}/someCsrfValue`)).toBe(`/${page}/:csrf`);
    expect(scrubUrl('/sign-in/abcDEF')).toBe('/sign-in/:uid');
    expect(scrubUrl('/oidc/interaction/abcDEF/login')).toBe('/oidc/interaction/:uid/login');
    expect(scrubUrl('/oidc/oauth2/authorize/KmWbQzXyTuvRsPq')).toBe('/oidc/oauth2/authorize/:uid');
    expect(scrubUrl('/oidc/oauth2/authorize?client_id=portal')).toBe('/oidc/oauth2/authorize');
  });

  it('replaces an email or a token-shaped segment anywhere, and user info', () => {
    expect(scrubUrl('/api/future/ada%40school.test/x')).toBe('/api/future/:email/x');
    expect(scrubUrl('/api/gateway/session/q8Zk2mP0aLx4')).toBe('/api/gateway/session/:token');
    expect(scrubUrl('/api/verify/123456')).toBe('/api/verify/:token');
    expect(scrubUrl('https://user:pass@portal.test/email')).toBe('https://portal.test/email');
    expect(scrubUrl('/API/AccessCodes/Login/k7q2zx/mathworld')).toBe(
      '/API/AccessCodes/Login/:code/mathworld',
    );
    expect(scrubUrl('/api\\accessCodes\\login\\k7q2zx\\mathworld')).toBe(
      '/api\\accessCodes\\login\\:code\\mathworld',
    );
  });

  it('keeps ordinary words with a short number (oauth2, sha256), scrubbing tokens and codes beside them', () => {
    expect(scrubUrl('/oidc/oauth2/authorize?client_id=portal')).toBe('/oidc/oauth2/authorize');
    expect(scrubUrl('/dev/idp/Clever/oauth2/token')).toBe('/dev/idp/Clever/oauth2/token');
    expect(scrubUrl('/api/hash/sha256/utf8-v2')).toBe('/api/hash/sha256/utf8-v2');
    for (const secret of ['k7q2zx', 'abcdef123456', 'oauth2Q8zk', 'Oauth2', 'q8zk2mp0alx4', '000123'])
      expect(scrubUrl(`/oidc/oauth2/${secret}`), secret).toBe('/oidc/oauth2/:token');
  });

  it('leaves URLs without secrets as they are', () => {
    for (const url of [
      '/api/auth/sig',
      '/api/auth/setBasicUserRole/1',
      '/api/v2/auth/microsoft-user-realm',
      '/assets/cfg/config.json',
      'https://portal.test/assets/index-B4x9Kq2w.js',
      '/oidc/.well-known/openid-configuration',
      '/log-in',
      '/',
      '',
    ])
      expect(scrubUrl(url)).toBe(url);
  });
});

const code = fc.stringMatching(/^[A-Z\d]{6}$/);
const token = fc.stringMatching(/^[A-Za-z\d_-]{16,43}$/);
const spId = fc.stringMatching(/^[a-z]{1,20}$/);
const origin = fc.oneof(
  fc.constant(''),
  fc.domain().map((host) => `https://${host}`),
);

/** A §7 call or §2 page carrying the secrets, as the SPA or a mail would build it. */
const secretUrl = fc
  .record({ origin, code, token, email: fc.emailAddress(), spId })
  .chain(({ origin, code, token, email, spId }) =>
    fc.constantFrom(
      { url: `${origin}${api(apiPaths.accessCodeLogin(code, spId))}`, secrets: [code] },
      { url: `${origin}${api(apiPaths.inviteEmail(token))}`, secrets: [token] },
      { url: `${origin}${api(apiPaths.resendVerification(email))}`, secrets: [email] },
      { url: `${origin}${api(apiPaths.accountType(email))}`, secrets: [email] },
      { url: `${origin}${api(apiPaths.getCsrfLogin(token))}`, secrets: [token] },
      {
        url: `${origin}${api(apiPaths.cookie)}?${new URLSearchParams({ hash: token, return_url: `https://x.test/?c=${code}`, token: code })}`,
        secrets: [token, code],
      },
      { url: `${origin}/password-reset?${new URLSearchParams({ code, email })}`, secrets: [code, email] },
      { url: `${origin}/validate?${new URLSearchParams({ em: email, vc: code })}`, secrets: [code, email] },
      { url: `${origin}/invite/${encodeURIComponent(token)}`, secrets: [token] },
      { url: `${origin}/post-login/${token}?locale=fr#${code}`, secrets: [token, code] },
    ),
  );

describe('scrubUrl: properties', () => {
  it('no code, token or email of a §7 call or §2 page survives', () => {
    fc.assert(
      fc.property(secretUrl, ({ url, secrets }) => {
        const scrubbed = scrubUrl(url);
        for (const secret of secrets) expect(scrubbed).not.toContain(secret);
        expect(scrubbed).not.toMatch(/@|%40/);
      }),
    );
  });

  it('never throws, keeps no fragment, no user info and only the kept parameters; scrubbing twice changes nothing', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.string({ maxLength: 80 })),
        (url) => {
          const scrubbed = scrubUrl(url);
          expect(scrubbed).not.toContain('#');
          expect(scrubbed).not.toContain('@');
          const query = scrubbed.includes('?') ? scrubbed.slice(scrubbed.indexOf('?') + 1) : '';
          for (const pair of query ? query.split('&') : [])
            expect(pair).toMatch(/^(locale|p|error)=[\w.-]+$/);
          expect(scrubUrl(scrubbed)).toBe(scrubbed);
        },
      ),
    );
  });
});

/** An address as RFC 5322 allows it unquoted, but with no '/' in its local part (see EMAIL in scrub.ts). */
const address = fc.emailAddress().filter((email) => !email.slice(0, email.lastIndexOf('@')).includes('/'));

describe('maskEmails and scrubText', () => {
  it('masks addresses, plain or encoded, anywhere in text', () => {
    expect(maskEmails('550 <ada@school.test>: Recipient address rejected')).toBe(
      '550 <:email>: Recipient address rejected',
    );
    expect(maskEmails('Key (email)=(ada.l+x@school.test) already exists; ada%40school.test')).toBe(
      'Key (email)=(:email) already exists; :email',
    );
    const stack = 'at onRequest (/app/node_modules/@fastify/cookie/plugin.js:12:3)';
    expect(maskEmails(stack)).toBe(stack);
  });

  it('masks addresses in a JSON line and keeps it valid JSON (escapes are read whole)', () => {
    const line = JSON.stringify({ msg: 'first\nada@school.test', path: 'C:\\b@school.test' });
    expect(JSON.parse(maskEmailsInJson(line))).toEqual({ msg: 'first\n:email', path: 'C:\\:email' });
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), address, fc.string({ maxLength: 20 }), (a, email, b) => {
        const masked = maskEmailsInJson(JSON.stringify({ msg: `${a}${email}${b}` }));
        expect(masked).not.toContain(email);
        expect(() => JSON.parse(masked) as unknown).not.toThrow();
      }),
    );
  });

  it('no email survives, in any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), address, fc.string({ maxLength: 20 }), (a, email, b) => {
        expect(maskEmails(`${a}${email}${b}`)).not.toContain(email);
      }),
    );
  });

  it('scrubs every URL and path in a message', () => {
    expect(
      scrubText(
        'GET https://portal.test/api/accessCodes/login/K7Q2ZX/mathworld failed (see /validate?vc=123456)',
      ),
    ).toBe('GET https://portal.test/api/accessCodes/login/:code/mathworld failed (see /validate)');
    expect(scrubText('Route GET:/api/cognito/get_account_type/ada@school.test not found')).toBe(
      'Route GET:/api/cognito/get_account_type/:email not found',
    );
    expect(scrubText('Failed to fetch')).toBe('Failed to fetch');
  });
});

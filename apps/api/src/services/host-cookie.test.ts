import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER, apiPaths, messages } from '@frontdoor/contract';
import { BROWSER_COOKIE } from '../identity/portal-login.ts';
import { INTERACTION_COOKIE } from '../identity/interactions.ts';
import { createCookieHash } from './cookie-hashes.ts';
import { createLoginRequest } from './login-requests.ts';
import {
  TEST_PASSWORD,
  createTestApp,
  portalAuthorizeUrl,
  seedServiceProvider,
  seedUser,
  type ApiClient,
  type TestApp,
} from '../../test/harness.ts';

const PORTAL = 'https://portal.school.test';

/**
 * A site on a sibling subdomain of a district's domain can set cookies for the whole domain, under
 * any name but a `__Host-` one. Each cookie that binds a browser to something (a CSRF token, the
 * browser an access code's sign-in or a provider's sign-in belongs to, the browser of a password
 * page's interaction) is read only under its `__Host-` name where cookies are Secure: the same value
 * planted under the plain name binds nothing.
 */
describe('where cookies are Secure, a binding cookie planted under its plain name counts for nothing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { PUBLIC_URL: PORTAL } });
  });
  afterAll(async () => t?.close());

  /** `client`'s `__Host-<name>` cookie moved to the plain name, as a sibling subdomain would plant it. */
  const planted = (client: ApiClient, name: string) => {
    const value = client.cookies.get(`__Host-${name}`);
    expect(value).toEqual(expect.any(String));
    client.cookies.delete(`__Host-${name}`);
    client.cookies.set(name, value ?? '');
  };

  it('the CSRF token: __Host-fd_csrf, readable by the SPA, Secure, path /', async () => {
    const client = t.client();
    const res = await client.get(`/api/${apiPaths.sig}`);
    expect(String(res.headers['set-cookie'])).toMatch(
      /^__Host-fd_csrf=[\w-]+; Path=\/; Secure; SameSite=Lax$/,
    );
    const token = client.cookies.get(`__Host-${CSRF_COOKIE}`) ?? '';
    // the answer names it too: the token the SPA echoes, whatever plain fd_csrf a sibling site set
    expect(res.headers[CSRF_HEADER]).toBe(token);
    const validateEmail = () =>
      client.request({
        method: 'POST',
        url: `/api/${apiPaths.validateEmail}`,
        payload: { email: 'someone@school.test' },
        headers: { [CSRF_HEADER]: token },
      });
    expect((await validateEmail()).statusCode).toBe(200);
    planted(client, CSRF_COOKIE);
    const refused = await validateEmail();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('forbidden');
  });

  it("an access code's sign-in is redeemed only with the browser's __Host-fd_csrf (no login CSRF from a sibling site)", async () => {
    await seedServiceProvider(t, 'hostland', ['https://app.hostland.test']);
    const { id: userId } = await seedUser(t, { email: 'host-cookie-code@school.test' });
    const redeem = async (cookie: string) => {
      const hash = await createCookieHash(
        t.db,
        { userId, spId: 'hostland', browser: 'attacker' },
        t.clock.now(),
      );
      const token = await createLoginRequest(
        t.db,
        { spId: 'hostland', url: 'https://app.hostland.test/', isTeacher: false },
        t.clock.now(),
      );
      const query = new URLSearchParams({ hash, token, return_url: 'https://app.hostland.test/' });
      return t.app.inject({ url: `/api/${apiPaths.cookie}?${query.toString()}`, headers: { cookie } });
    };
    const refused = await redeem(`${CSRF_COOKIE}=attacker`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('cookieHashInvalid');
    expect((await redeem(`__Host-${CSRF_COOKIE}=attacker`)).statusCode).toBe(302);
  });

  it("a provider's sign-in comes back only to the browser holding its __Host-fd_browser", async () => {
    const client = t.client();
    const started = await client.get(
      `/api/${apiPaths.getCsrf}?p=Google&r=${encodeURIComponent(`${PORTAL}/log-in`)}`,
    );
    expect(String(started.headers['set-cookie'])).toMatch(
      /__Host-fd_browser=[\w-]+; Path=\/; HttpOnly; Secure; SameSite=Lax/,
    );
    const state = (started.json() as { payload: { csrf: string } }).payload.csrf;
    // the provider refused: the browser the state is bound to is told so, any other gets a refused state
    const callback = () => client.get(`/api/auth/callback?error=access_denied&state=${state}`);
    planted(client, BROWSER_COOKIE);
    expect((await callback()).body).toContain(messages.stateInvalid);
    client.cookies.set(`__Host-${BROWSER_COOKIE}`, client.cookies.get(BROWSER_COOKIE) ?? '');
    const own = await callback();
    expect(own.statusCode).toBe(400);
    expect(own.body).toContain(messages.upstreamRefused);
  });

  it("a password page's sign-in is bound to the browser holding its __Host-fd_interaction and __Host-fd_browser", async () => {
    const user = await seedUser(t, { email: 'host-cookie-interaction@school.test' });
    const client = t.client();
    const started = await client.get(
      `/api/${apiPaths.getCsrf}?p=COGNITO&r=${encodeURIComponent(`${PORTAL}/log-in`)}`,
    );
    const { csrf, code_challenge } = (started.json() as { payload: { csrf: string; code_challenge: string } })
      .payload;
    const authorize = portalAuthorizeUrl(t, {
      scope: 'openid email profile',
      identity_provider: 'COGNITO',
      state: csrf,
      code_challenge,
    });
    const interaction = String((await client.get(authorize)).headers.location);
    // the browser the sign-in was started in, named only under the plain name, is no such browser
    planted(client, BROWSER_COOKIE);
    expect((await client.get(interaction)).statusCode).toBe(400);
    client.cookies.set(`__Host-${BROWSER_COOKIE}`, client.cookies.get(BROWSER_COOKIE) ?? '');
    const toSignIn = await client.get(interaction);
    expect(String(toSignIn.headers['set-cookie'])).toMatch(
      /__Host-fd_interaction=[\w-]+; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax/,
    );
    const uid = String(toSignIn.headers.location).split('?')[0]?.split('/').pop();
    const login = () =>
      client.post(`/api/${apiPaths.cognitoLogin}`, { email: user.email, password: TEST_PASSWORD, uid });
    planted(client, INTERACTION_COOKIE);
    const refused = await login();
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('stateInvalid');
    client.cookies.set(`__Host-${INTERACTION_COOKIE}`, client.cookies.get(INTERACTION_COOKIE) ?? '');
    const signedIn = await login();
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().payload.redirect).toEqual(expect.stringContaining('/oidc/'));
  });
});

import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DestinationStream } from 'pino';
import * as messageCatalogs from '@frontdoor/contract/message-catalogs';
import type { Env } from '../config.ts';
import { createLogger } from '../services/logger.ts';
import { PORTAL_CLIENT_ID } from '../services/portal-config.ts';
import { createTestApp, portalAuthorizeUrl } from '../../test/harness.ts';
import { fillDisk } from '../../test/test-db.ts';
import { inProcessFetch } from './self-fetch.ts';

/** A test app with `env` whose log lines at `level` and above are kept, parsed. */
async function loggedApp(level: string, env: Env = {}) {
  const lines: string[] = [];
  const destination: DestinationStream = { write: (line) => void lines.push(line) };
  const t = await createTestApp('sqlite', { env, logger: createLogger({ level, destination }) });
  return { t, logged: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

/** The warn lines an app writes while it starts with `env`. */
async function startWarnings(env: Env) {
  const { t, logged } = await loggedApp('warn', env);
  await t.close();
  return logged();
}

describe('the identity engine at start', () => {
  it('warns once, naming the providers without credentials and what to set, when no dev identity provider stands in', async () => {
    const warnings = await startWarnings({
      DEV_IDP: 'off',
      GOOGLE_CLIENT_ID: 'google-client',
      GOOGLE_CLIENT_SECRET: 'google-secret',
    });
    expect(warnings).toEqual([
      expect.objectContaining({
        msg: 'identity providers without credentials: their sign-in ends on "Sign-in could not continue"',
        providers: ['Microsoft', 'MicrosoftPersonal', 'SignInWithApple', 'Clever', 'ClassLink'],
        variables: [
          'MICROSOFT_CLIENT_ID',
          'MICROSOFT_PERSONAL_CLIENT_ID',
          'APPLE_CLIENT_ID',
          'CLEVER_CLIENT_ID',
          'CLASSLINK_CLIENT_ID',
        ],
      }),
    ]);
  });

  it('says nothing in development, where the dev identity provider stands in for every provider', async () => {
    expect(await startWarnings({})).toEqual([]);
  });
});

describe('the authorization server', () => {
  it('logs an internal error (its database write failing) at error level, with the request id its answer carries', async () => {
    const { t, logged } = await loggedApp('error');
    try {
      // every write of the oidc-provider adapter fails, as on a broken or full database
      await sql`create trigger oidc_write_fails before insert on oidc_payloads
        begin select raise(abort, 'oidc write failed'); end`.execute(t.db);
      const res = await t.app.inject({ url: portalAuthorizeUrl(t) });
      expect(res.statusCode).toBe(500);
      // the answer oidc-provider wrote itself names the request, and so does the line
      const reqId = res.headers['x-request-id'];
      expect(reqId).toEqual(expect.any(String));
      expect(logged()).toContainEqual(
        expect.objectContaining({
          level: 50,
          reqId,
          msg: 'authorization server error',
          route: 'authorization',
          err: expect.objectContaining({ message: 'oidc write failed', stack: expect.any(String) }),
        }),
      );
    } finally {
      await t.close();
    }
  });

  it('answers a full disk 503 with Retry-After and a "try again later" page, in one error line naming DATA_DIR, and is not ready', async () => {
    const { t, logged } = await loggedApp('info');
    try {
      // each row the adapter writes meets a full disk
      await fillDisk(t.db, 'oidc_payloads');
      for (let i = 0; i < 2; i++) {
        const res = await t.app.inject({ url: portalAuthorizeUrl(t), headers: { 'accept-language': 'fr' } });
        expect(res.statusCode).toBe(503);
        expect(res.headers['retry-after']).toBe('60');
        expect(res.body).toContain(messageCatalogs.fr.internalError);
      }
      expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(503);
      const errors = logged().filter((line) => (line.level as number) >= 50);
      expect(errors).toEqual([
        expect.objectContaining({
          setting: 'DATA_DIR',
          msg: expect.stringMatching(/^the disk of DATA_DIR .* is full: /),
        }),
      ]);
    } finally {
      await t.close();
    }
  });

  it("writes a refusal's OAuth error on its request's line, with the path as sent: what an operator reads of a product's failing integration", async () => {
    const { t, logged } = await loggedApp('info');
    try {
      const authorize = new URLSearchParams({
        client_id: PORTAL_CLIENT_ID,
        response_type: 'code',
        redirect_uri: 'https://evil.example/cb',
        scope: 'openid',
      });
      const page = await t.app.inject({
        url: `/oidc/oauth2/authorize?${authorize.toString()}`,
        headers: { accept: 'text/html' },
      });
      expect(page.statusCode).toBe(400);
      const token = await t.app.inject({
        method: 'POST',
        url: '/oidc/oauth2/token',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from('no-such-client:wrong').toString('base64')}`,
        },
        payload: 'grant_type=authorization_code&code=x&redirect_uri=http%3A%2F%2Fx%2F',
      });
      expect(token.statusCode).toBe(401);
      const lineOf = (reqId: unknown) =>
        logged().find((line) => line.reqId === reqId && line.msg === 'request completed');
      expect(lineOf(page.headers['x-request-id'])).toMatchObject({
        req: { url: '/oidc/oauth2/authorize' },
        oidcError: 'invalid_redirect_uri',
        oidcErrorDescription: expect.stringContaining('redirect_uri'),
      });
      expect(lineOf(token.headers['x-request-id'])).toMatchObject({
        req: { url: '/oidc/oauth2/token' },
        oidcError: 'invalid_client',
      });
    } finally {
      await t.close();
    }
  });

  it("answers a sign-in step whose interaction is gone (its answer lost, the browser asking again) with 'start again' in the person's language, not the engine's words", async () => {
    const { t } = await loggedApp('silent');
    try {
      const page = await t.app.inject({
        url: '/oidc/oauth2/authorize/0123456789abcdefghijk',
        headers: { accept: 'text/html', 'accept-language': 'fr' },
      });
      expect(page.statusCode).toBe(400);
      expect(page.body).toContain(messageCatalogs.fr.stateInvalid);
      expect(page.body).not.toContain('interaction session');
    } finally {
      await t.close();
    }
  });

  it('offers what its one client uses and nothing more: no sign-out page that would not sign out, no pushed requests, one client authentication', async () => {
    const t = await createTestApp('sqlite');
    try {
      const discovery = (await t.app.inject({ url: '/oidc/.well-known/openid-configuration' })).json();
      expect(discovery).not.toHaveProperty('end_session_endpoint');
      expect(discovery).not.toHaveProperty('pushed_authorization_request_endpoint');
      expect(discovery.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic']);
      // the library's own sign-out page said 'Sign-out Success' and left the portal's session as it was
      expect((await t.app.inject({ url: '/oidc/logout' })).statusCode).toBe(404);
      const pushed = await t.app.inject({
        method: 'POST',
        url: '/oidc/request',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `client_id=${PORTAL_CLIENT_ID}&response_type=code`,
      });
      expect(pushed.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe('the authorization server answers its one client the one way its callback reads', () => {
  it.each(['fragment', 'form_post'])(
    'refuses response_mode=%s before any sign-in starts: the callback reads a query only',
    async (mode) => {
      const t = await createTestApp('sqlite');
      try {
        const res = await t.app.inject({ url: portalAuthorizeUrl(t, { response_mode: mode }) });
        expect(res.headers.location ?? '').not.toMatch(/^\/oidc\/interaction\//);
        expect(`${res.headers.location ?? ''}${res.body}`).toMatch(/response_mode/);
        const query = await t.app.inject({ url: portalAuthorizeUrl(t, { response_mode: 'query' }) });
        expect(query.headers.location).toMatch(/^\/oidc\/interaction\//);
      } finally {
        await t.close();
      }
    },
  );
});

describe('the authorization server behind a TLS proxy (PUBLIC_URL https)', () => {
  const PUBLIC_URL = 'https://login.example.test';
  const endpointsOf = (document: string) => {
    const metadata = JSON.parse(document) as Record<string, unknown>;
    return Object.entries(metadata).filter(([key]) => key.endsWith('_endpoint') || key === 'jwks_uri');
  };

  it("names its endpoints on PUBLIC_URL in the discovery the portal's own code exchange reads in process (plain HTTP), so openid-client accepts its token endpoint", async () => {
    const t = await createTestApp('sqlite', { env: { PUBLIC_URL, TRUST_PROXY: '1' } });
    try {
      const fetchInProcess = inProcessFetch(t.app, PUBLIC_URL);
      const res = await fetchInProcess(`${PUBLIC_URL}/oidc/.well-known/openid-configuration`, {
        method: 'GET',
        headers: {},
      } as Parameters<typeof fetchInProcess>[1]);
      const endpoints = endpointsOf(await res.text());
      expect(endpoints.length).toBeGreaterThan(3);
      for (const [key, url] of endpoints) expect(url, key).toMatch(/^https:\/\/login\.example\.test\/oidc\//);
    } finally {
      await t.close();
    }
  });

  it("keeps PUBLIC_URL's origin when a proxy sends its upstream's Host (nginx's default) and passes on a client's X-Forwarded-Host", async () => {
    const t = await createTestApp('sqlite', { env: { PUBLIC_URL, TRUST_PROXY: '1' } });
    try {
      const headers = {
        host: '127.0.0.1:8080',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'http',
        'x-forwarded-for': '203.0.113.7',
      };
      const discovery = await t.app.inject({ url: '/oidc/.well-known/openid-configuration', headers });
      for (const [key, url] of endpointsOf(discovery.body))
        expect(url, key).toMatch(/^https:\/\/login\.example\.test\/oidc\//);
      // the password page resumes the sign-in at the interaction's returnTo, kept from this request
      const authorize = await t.app.inject({ url: portalAuthorizeUrl(t), headers });
      expect(authorize.statusCode).toBe(303);
      const uid = /\/interaction\/([^/?#]+)/.exec(authorize.headers.location ?? '')?.[1];
      const row = await t.db
        .selectFrom('oidc_payloads')
        .select('payload')
        .where('type', '=', 'Interaction')
        .where('id', '=', uid ?? '')
        .executeTakeFirstOrThrow();
      expect((JSON.parse(row.payload) as { returnTo: string }).returnTo).toBe(
        `${PUBLIC_URL}/oidc/oauth2/authorize/${uid}`,
      );
    } finally {
      await t.close();
    }
  });
});

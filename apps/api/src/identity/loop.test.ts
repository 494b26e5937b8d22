import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as messageCatalogs from '@frontdoor/contract/message-catalogs';
import { decodeJwt } from 'jose';
import { sql } from 'kysely';
import {
  LANGUAGE_COOKIE,
  SESSION_COOKIE,
  UPSTREAM_PROVIDERS,
  apiPaths,
  messages,
  sessionSchema,
  type IdentityProvider,
  type LinkedIdentity,
  type UpstreamProvider,
} from '@frontdoor/contract';
import { parseAdminArgs, runAdminCommand } from '../admin/commands.ts';
import { escapeHtml } from '../services/html.ts';
import { registry } from '../services/metrics.ts';
import { readSession } from '../services/sessions.ts';
import { findUserById, hashPassword, newUserRow } from '../services/users.ts';
import { MAIL_LANGUAGES } from '../mail/render.ts';
import { MICROSOFT_PERSONAL_TENANT } from './settings.ts';
import { devAccountId, devClaims, type DevIdentity } from './dev-idp.ts';
import { resolveUpstreamAccount } from './linked-identities.ts';
import { lockAccount } from '../services/accounts.ts';
import { deriveSecret, loadIdentityKeys } from './keys.ts';
import { LOST_CALLBACK_WINDOW_MS, portalPkceVerifier } from './portal-login.ts';
import { PROVIDER_ANSWER_COOKIE, PROVIDER_ANSWER_TTL_MS, openAnswer, sealAnswer } from './provider-answer.ts';
import type { Browser } from '../../test/browser.ts';
import { freePort, startFakeServer, type FakeServer } from '../../test/fake-http.ts';
import {
  DIALECTS,
  createTestApp,
  lastMail,
  type Dialect,
  type ListeningTestApp,
  capturedLines,
  seedServiceProvider,
} from '../../test/harness.ts';
import { createLoginRequest } from '../services/login-requests.ts';

const PASSWORD = 'Correct-Horse-42!';
const isSpaPage = (url: URL) =>
  /^\/(sign-in|post-login|forgot-password|email|log-in)(\/|$)/.test(url.pathname);

async function addPasswordUser(
  h: ListeningTestApp,
  email: string,
  extra: { confirmed?: boolean; mustReset?: boolean } = {},
) {
  const row = newUserRow(
    {
      email,
      first: 'Pat',
      last: 'Lee',
      passwordHash: await hashPassword(PASSWORD),
      confirmed: extra.confirmed ?? true,
      mustReset: extra.mustReset ?? false,
    },
    h.clock.now(),
  );
  await h.db.insertInto('users').values(row).execute();
  return row;
}

/** SPA button → get_csrf → authorize url, exactly as the SPA builds it (with PKCE). */
async function startSignIn(
  h: ListeningTestApp,
  browser: Browser,
  provider: IdentityProvider,
  loginHint?: string,
  loginCsrf = 'login-csrf-1',
) {
  const csrf = await browser.request(
    'GET',
    `/api/${apiPaths.getCsrf}?p=${provider}&r=${encodeURIComponent(`${h.baseUrl}/log-in`)}&c=${loginCsrf}`,
  );
  expect(csrf.status).toBe(200);
  const { payload } = JSON.parse(csrf.body) as { payload: { csrf: string; code_challenge: string } };
  const query = new URLSearchParams({
    client_id: 'frontdoor-portal',
    response_type: 'code',
    redirect_uri: `${h.baseUrl}/api/auth/callback`,
    scope: 'openid email profile',
    state: payload.csrf,
    identity_provider: provider,
    code_challenge: payload.code_challenge,
    code_challenge_method: 'S256',
  });
  if (loginHint) query.set('login_hint', loginHint);
  return { state: payload.csrf, authorizeUrl: `/oidc/oauth2/authorize?${query.toString()}` };
}

/** The portal's own code exchange, replayed at the token endpoint with the right client and verifier. */
async function exchangeAtTokenEndpoint(h: ListeningTestApp, code: string, state: string) {
  const keys = await loadIdentityKeys(h.db, h.clock.now());
  const client = `frontdoor-portal:${deriveSecret(keys.secret, 'portal-client', 'frontdoor-portal')}`;
  return fetch(`${h.baseUrl}/oidc/oauth2/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(client).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${h.baseUrl}/api/auth/callback`,
      code_verifier: portalPkceVerifier(keys.secret, state),
    }).toString(),
  });
}

/** POST cognito/login on the sign-in page of interaction `uid`, as the page would: where it sends the browser. */
async function passwordAt(browser: Browser, email: string, uid: string | undefined): Promise<string> {
  const login = await browser.postJson(`/api/${apiPaths.cognitoLogin}`, { email, password: PASSWORD, uid });
  expect(login.status).toBe(200);
  return (JSON.parse(login.body) as { payload: { redirect: string } }).payload.redirect;
}

/** A COGNITO sign-in up to its password page, then POST cognito/login as the page would. */
async function postPassword(h: ListeningTestApp, email: string, password = PASSWORD) {
  const browser = h.browser();
  const { authorizeUrl, state } = await startSignIn(h, browser, 'COGNITO', email);
  const uid = (await browser.navigate(authorizeUrl, isSpaPage)).url.pathname.split('/').pop();
  const login = await browser.postJson(`/api/${apiPaths.cognitoLogin}`, { email, password, uid });
  return { browser, state, login };
}

async function sessionUser(h: ListeningTestApp, browser: Browser): Promise<string | undefined> {
  const session = await readSession(h.db, browser.cookie(SESSION_COOKIE), h.clock.now());
  return session?.userId;
}

/**
 * What a site on a sibling subdomain can plant in another browser: oidc-provider's `_interaction`
 * cookies (scoped to their interaction's path, so no `__Host-` cookie) copied from its own browser,
 * and, where cookies are not Secure, the plain-named `fd_interaction` too.
 */
function plantInteractionCookies(from: Browser, into: Browser, names: string[]) {
  for (const [key, cookie] of from.cookies)
    if (names.includes(key.slice(0, key.indexOf('|')))) into.cookies.set(key, { ...cookie });
}

/** The audit log's entries about a user, oldest first, as [event, detail]. */
async function auditOf(h: ListeningTestApp, userId: string) {
  const rows = await h.db
    .selectFrom('audit_log')
    .select(['event', 'detail'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return rows.map((r) => [r.event, JSON.parse(r.detail) as unknown]);
}

/**
 * A provider's launch (a code and no state of ours: Clever Instant Login, ClassLink LaunchPad) must
 * start a sign-in of the portal's own: a PKCE authorize for that provider, with a fresh state row.
 */
async function expectOwnSignInStarted(
  h: ListeningTestApp,
  browser: Browser,
  launchUrl: string | URL,
  provider: UpstreamProvider,
): Promise<URL> {
  const launch = await browser.request('GET', launchUrl);
  expect(launch.status).toBe(303);
  const authorize = new URL(launch.headers.get('location') ?? '', h.baseUrl);
  expect(authorize.pathname).toBe('/oidc/oauth2/authorize');
  expect(authorize.searchParams.get('identity_provider')).toBe(provider);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  const issued = await h.db
    .selectFrom('federation_states')
    .selectAll()
    .where('state', '=', authorize.searchParams.get('state') ?? '')
    .executeTakeFirstOrThrow();
  expect(issued).toMatchObject({ provider, login_csrf: null, used_at: null });
  return authorize;
}

/** From `target` to the provider's dev identity page; types the identity (and role) and presses 'Sign in'. */
async function signInAtDevIdp(
  browser: Browser,
  target: string | URL,
  provider: UpstreamProvider,
  who: { email: string; first: string; last: string } & Record<string, string>,
  stop = isSpaPage,
) {
  const page = await browser.navigate(target, isSpaPage);
  expect(page.url.pathname).toMatch(new RegExp(`^/dev/idp/${provider}/interaction/[\\w-]+$`));
  expect(page.body).toContain('<button type="submit">Sign in</button>');
  const action = /<form method="post" action="([^"]+)"/.exec(page.body)?.[1] ?? '';
  return browser.navigate(new URL(action, page.url), stop, 'POST', new URLSearchParams(who).toString());
}

async function upstreamLoop(
  h: ListeningTestApp,
  provider: UpstreamProvider,
  who: { email: string; first: string; last: string } & Record<string, string>,
) {
  const browser = h.browser();
  const { authorizeUrl } = await startSignIn(h, browser, provider, who.email);
  const end = await signInAtDevIdp(browser, authorizeUrl, provider, who);
  return { browser, end };
}

/** What auth/sig tells the SPA and the products: the signature's identities and the token's claims. */
async function whatProductsLearn(browser: Browser) {
  const sig = sessionSchema.parse(JSON.parse((await browser.request('GET', '/api/auth/sig')).body));
  if (!sig.loggedin) throw new Error('not signed in');
  return { signature: sig.payload.signature.user, token: decodeJwt(sig.payload.token) };
}

/** The identity each dev provider asserts for `who`, as the products should learn it. */
function expectedIdentity(provider: UpstreamProvider, who: DevIdentity): LinkedIdentity {
  const accountId = devAccountId(provider, who.email);
  const c = devClaims(provider, accountId, who);
  const asserted = { email: who.email, emailVerified: false, emailTrusted: false };
  switch (provider) {
    // oidc-provider signs the dev account's id as the ID token's sub
    case 'Google':
    case 'SignInWithApple':
      return { provider, subject: accountId, ...asserted, emailVerified: true, emailTrusted: true };
    case 'Microsoft':
    case 'MicrosoftPersonal':
      return { provider, subject: `${String(c.tid)}:${String(c.oid)}`, ...asserted, tenant: String(c.tid) };
    case 'Clever':
      return {
        provider,
        subject: String(c.sub),
        ...asserted,
        district: String(c.district),
        schools: [String(c.school)],
        roles: [who.role ?? 'teacher'],
      };
    case 'ClassLink':
      return {
        provider,
        subject: `${String(c.TenantId)}:${String(c.sub)}`,
        ...asserted,
        tenant: String(c.TenantId),
        schools: [String(c.BuildingId)],
        roles: [who.role ?? 'teacher'],
        rosterId: String(c.SourcedId),
      };
  }
}

function suite(dialect: Dialect, skip: boolean) {
  describe.skipIf(skip)(`sign-in loop (${dialect})`, () => {
    let h: ListeningTestApp;
    // the request lines: how often the dev identity provider's token endpoint was asked
    const { lines, logger } = capturedLines('info');
    const requestsTo = (path: string) =>
      lines.filter((l) => (l.req as { url?: string } | undefined)?.url === path).length;
    beforeAll(async () => {
      h = await createTestApp(dialect, {
        listen: true,
        env: { IDP_IDENTIFIERS: 'district.example=Clever, school.example=Google' },
        logger,
      });
    });
    afterAll(async () => {
      await h?.close();
    });

    it("the authorize request as the portal's pages send it, a form POST, signs in; no URL on the way names the address; another site's POST is refused, its GET taken", async () => {
      const user = await addPasswordUser(h, 'pupil@school.example');
      const browser = h.browser();
      browser.fetchSite = 'same-origin';
      const { authorizeUrl } = await startSignIn(h, browser, 'COGNITO', user.email);
      const [path, query] = authorizeUrl.split('?');
      const signInPage = await browser.navigate(path ?? '', isSpaPage, 'POST', query);
      // 303 (Back never offers to send the form again), then the interaction's own pages
      expect(browser.history.length).toBeGreaterThan(1);
      expect(signInPage.url.pathname).toMatch(/^\/sign-in\/[\w-]+$/);
      expect(browser.history.map(String).filter((u) => u.includes('pupil'))).toEqual([]);
      const uid = signInPage.url.pathname.split('/').pop();
      const redirect = await passwordAt(browser, user.email, uid);
      expect((await browser.navigate(redirect, isSpaPage)).url.pathname).toBe('/post-login/login-csrf-1');
      expect(await sessionUser(h, browser)).toBe(user.id);

      // from another site: a POST carries none of the portal's Lax cookies, so it is not taken; a
      // product's authorize link (a GET) goes on as ever
      const other = h.browser();
      other.fetchSite = 'cross-site';
      const posted = await other.request('POST', path ?? '', {
        body: query,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(posted.status).toBe(403);
      const linked = await other.request('GET', authorizeUrl);
      expect(linked.status).toBe(303);
      expect(new URL(linked.headers.get('location') ?? '', h.baseUrl).pathname).toMatch(
        /^\/oidc\/interaction\//,
      );
    });

    it('COGNITO: authorize → /sign-in/<uid> → cognito/login → callback → session → /post-login/<csrf>', async () => {
      const user = await addPasswordUser(h, 'teacher@school.example');
      const browser = h.browser();
      const { authorizeUrl } = await startSignIn(h, browser, 'COGNITO', user.email);
      const signInPage = await browser.navigate(authorizeUrl, isSpaPage);
      expect(signInPage.url.pathname).toMatch(/^\/sign-in\/[\w-]+$/);
      // the end of the redirect chain is a visit a shared computer's history lists: no email in it
      expect(signInPage.url.search).toBe('');
      const uid = signInPage.url.pathname.split('/').pop();

      const redirect = await passwordAt(browser, user.email, uid);
      const end = await browser.navigate(redirect, isSpaPage);
      expect(end.url.pathname).toBe('/post-login/login-csrf-1');
      expect(await sessionUser(h, browser)).toBe(user.id);
      expect(await auditOf(h, user.id)).toEqual([
        ['sign-in', { method: 'password' }],
        ['session.started', { via: 'callback' }],
      ]);
      // a password, through the authorization server: the products learn how it signed in
      const { token } = await whatProductsLearn(browser);
      expect(token.amr).toEqual(['pwd']);
      expect(token.sign_in_sp).toBeUndefined();
    });

    it("user delete leaves no sign-in history with an address: the account's audit rows keep their events without one, and no authorization-server row names it", async () => {
      // a password sign-in and a Clever one: sessions, grants, codes and tokens of the authorization server
      const user = await addPasswordUser(h, 'erased-pupil@school.example');
      const { browser, login } = await postPassword(h, user.email);
      expect(login.status).toBe(200);
      const { payload } = JSON.parse(login.body) as { payload: { redirect: string } };
      await browser.navigate(payload.redirect, isSpaPage);
      expect(await sessionUser(h, browser)).toBe(user.id);
      await postPassword(h, user.email, 'Wrong-password-1!');
      const { browser: rostered } = await upstreamLoop(h, 'Clever', {
        email: 'erased-rostered@district.example',
        first: 'Ro',
        last: 'Ster',
      });
      const rosteredId = (await sessionUser(h, rostered)) ?? '';
      const bystander = await addPasswordUser(h, 'stays@school.example');
      await (await postPassword(h, bystander.email)).browser.navigate(payload.redirect, isSpaPage);

      const history = (id: string) =>
        h.db
          .selectFrom('audit_log')
          .select(['event', 'address'])
          .where('user_id', '=', id)
          .orderBy('id')
          .execute();
      const naming = async (id: string) =>
        (
          await h.db
            .selectFrom('oidc_payloads')
            .select(['type', 'payload'])
            .where('payload', 'like', `%${id}%`)
            .execute()
        ).map((row) => row.type);
      const before = new Map<string, { event: string; address: string | null }[]>();
      for (const id of [user.id, rosteredId]) {
        before.set(id, await history(id));
        expect(before.get(id)?.every((row) => row.address !== null)).toBe(true);
        // the provider session ends as its code is issued (oidc-common.ts); the grant, code and token stay
        expect(await naming(id)).toEqual(
          expect.arrayContaining(['Grant', 'AuthorizationCode', 'AccessToken']),
        );
      }
      const bystanderRows = await naming(bystander.id);

      for (const id of [user.id, rosteredId]) {
        const { positionals, values } = parseAdminArgs(['user', 'delete', '--id', id, '--yes']);
        expect(await runAdminCommand(h.ctx, positionals, values)).toEqual({ deleted: true });
        // the events stay (what happened to the account, by its id), their addresses do not
        expect(await history(id)).toEqual([
          ...(before.get(id) ?? []).map((row) => ({ ...row, address: null })),
          { event: 'account.deleted', address: null },
        ]);
        expect(await naming(id)).toEqual([]);
      }
      // another account's keep theirs
      expect((await history(bystander.id)).every((row) => row.address !== null)).toBe(true);
      expect(await naming(bystander.id)).toEqual(bystanderRows);
    });

    it('COGNITO: a wrong password answers the contract message and signs nobody in', async () => {
      const user = await addPasswordUser(h, 'wrong-pw@school.example');
      const { browser, login } = await postPassword(h, user.email, 'Wrong-password-1!');
      expect(login.status).toBe(401);
      expect(JSON.parse(login.body)).toEqual({
        status: 'error',
        msg: messages.incorrectCredentials,
        code: 'incorrectCredentials',
      });
      expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
    });

    it('COGNITO: an account turned off (user disable): a wrong password is the counted 401; the right one hears accountDisabled on the password page, before any redirect', async () => {
      const user = await addPasswordUser(h, 'turned-off-teacher@school.example');
      const { positionals, values } = parseAdminArgs(['user', 'disable', '--id', user.id, '--yes']);
      await runAdminCommand(h.ctx, positionals, values);
      const wrong = await postPassword(h, user.email, 'Wrong-password-1!');
      expect(wrong.login.status).toBe(401);
      expect((await findUserById(h.db, user.id))?.failed_attempts).toBe(1);
      const { browser, login } = await postPassword(h, user.email);
      expect(login.status).toBe(403);
      expect(JSON.parse(login.body)).toEqual({
        status: 'error',
        msg: messages.accountDisabled,
        code: 'accountDisabled',
      });
      expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
      // no sign-in is recorded for it
      expect((await auditOf(h, user.id)).map(([event]) => event)).not.toContain('sign-in');
    });

    it("a provider sign-in of an account turned off (user disable): the callback's page says so in the person's language, no session; user enable lets it in", async () => {
      const who = { email: 'turned-off@district.example', first: 'Off', last: 'Pupil', role: 'student' };
      const first = await upstreamLoop(h, 'Clever', who);
      const userId = (await sessionUser(h, first.browser)) ?? '';
      expect(userId).not.toBe('');
      const admin = (...argv: string[]) => {
        const { positionals, values } = parseAdminArgs(argv);
        return runAdminCommand(h.ctx, positionals, values);
      };
      expect(await admin('user', 'disable', '--id', userId, '--yes')).toEqual({
        disabled: true,
        sessionsEnded: 1,
      });
      expect(await sessionUser(h, first.browser)).toBeUndefined();

      const browser = h.browser();
      browser.cookies.set(`${LANGUAGE_COOKIE}|/`, { value: 'fr', path: '/' });
      const { authorizeUrl } = await startSignIn(h, browser, 'Clever', who.email);
      const refused = await signInAtDevIdp(browser, authorizeUrl, 'Clever', who);
      expect(refused.url.pathname).toBe('/api/auth/callback');
      expect(refused.status).toBe(403);
      expect(refused.body).toContain(escapeHtml(messageCatalogs.fr.accountDisabled));
      expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
      const sessions = await h.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .execute();
      expect(sessions).toEqual([]);
      // the log shows the refused attempt, never a sign-in that did not happen
      const signIns = await h.db
        .selectFrom('audit_log')
        .select(['event', 'detail'])
        .where('user_id', '=', userId)
        .where('event', 'in', ['sign-in', 'sign-in.failed'])
        .orderBy('id')
        .execute();
      expect(signIns.map((e) => [e.event, JSON.parse(e.detail)]).at(-1)).toEqual([
        'sign-in.failed',
        { method: 'federated', provider: 'Clever', reason: 'disabled' },
      ]);

      expect(await admin('user', 'enable', '--id', userId)).toEqual({ enabled: true });
      const again = await upstreamLoop(h, 'Clever', who);
      expect(await sessionUser(h, again.browser)).toBe(userId);
    });

    it('COGNITO: an unconfirmed account answers userNotConfirmed', async () => {
      const user = await addPasswordUser(h, 'unconfirmed@school.example', { confirmed: false });
      const { login } = await postPassword(h, user.email);
      expect(login.status).toBe(403);
      expect(JSON.parse(login.body)).toMatchObject({
        msg: messages.userNotConfirmed,
        code: 'userNotConfirmed',
      });
    });

    it('COGNITO: a must-reset account is sent to the reset flow with a reset mail, not signed in', async () => {
      const user = await addPasswordUser(h, 'must-reset@school.example', { mustReset: true });
      const { browser, login } = await postPassword(h, user.email);
      expect(login.status).toBe(200);
      expect(JSON.parse(login.body)).toEqual({
        status: 'success',
        payload: { redirect: '/forgot-password' },
        msg: messages.passwordResetRequired,
      });
      expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
      await h.ctx.outbox.drain();
      const mails = await h.db
        .selectFrom('mailbox')
        .selectAll()
        .where('to_address', '=', user.email)
        .execute();
      expect(mails).toHaveLength(1);
    });

    it('COGNITO: cognito/login refuses an interaction uid this browser did not start', async () => {
      const user = await addPasswordUser(h, 'foreign-uid@school.example');
      const owner = h.browser();
      const { authorizeUrl } = await startSignIn(h, owner, 'COGNITO', user.email);
      const uid = (await owner.navigate(authorizeUrl, isSpaPage)).url.pathname.split('/').pop();
      const attacker = h.browser();
      await attacker.request('GET', '/healthz');
      const login = await attacker.postJson(`/api/${apiPaths.cognitoLogin}`, {
        email: user.email,
        password: PASSWORD,
        uid,
      });
      expect(login.status).toBe(400);
      expect(JSON.parse(login.body)).toMatchObject({ msg: messages.stateInvalid, code: 'stateInvalid' });
    });

    it("COGNITO: an attacker's interaction cookies planted in a child's browser: the child's password finishes nobody's sign-in", async () => {
      const child = await addPasswordUser(h, 'planted-password@school.example');
      const attacker = h.browser();
      const { authorizeUrl } = await startSignIn(h, attacker, 'COGNITO');
      const uid = (await attacker.navigate(authorizeUrl, isSpaPage)).url.pathname.split('/').pop() ?? '';
      const victim = h.browser();
      await victim.request('GET', '/healthz');
      plantInteractionCookies(attacker, victim, ['_interaction', '_interaction.sig']);
      // the interaction page hands its binding only to the browser that started the sign-in
      const page = await victim.request('GET', `/oidc/interaction/${uid}`);
      expect(page.status).toBe(400);
      expect(victim.cookie('fd_interaction')).toBeUndefined();
      // nor does the password call take a planted binding from a browser that did not start it
      plantInteractionCookies(attacker, victim, ['fd_interaction']);
      const login = await victim.postJson(`/api/${apiPaths.cognitoLogin}`, {
        email: child.email,
        password: PASSWORD,
        uid,
      });
      expect(login.status).toBe(400);
      expect(JSON.parse(login.body)).toMatchObject({ code: 'stateInvalid' });
      await attacker.navigate(`/oidc/oauth2/authorize/${uid}`, isSpaPage);
      expect(await sessionUser(h, attacker)).toBeUndefined();
    });

    it("an attacker's interaction cookie planted in a child's browser: the child's provider sign-in finishes nobody's sign-in", async () => {
      const who = { email: 'planted-upstream@school.example', first: 'Kid', last: 'Child' };
      const own = await upstreamLoop(h, 'Google', who);
      const childId = await sessionUser(h, own.browser);
      expect(childId).toBeDefined();
      const attacker = h.browser();
      const { authorizeUrl } = await startSignIn(h, attacker, 'Google');
      // the attacker stops at the provider's sign-in page, whose state is its interaction's uid
      const atProvider = await attacker.navigate(authorizeUrl, (url) => url.pathname.startsWith('/dev/idp/'));
      const uid = atProvider.url.searchParams.get('state') ?? '';
      expect(uid).toMatch(/^[\w-]{10,}$/);
      const victim = h.browser();
      plantInteractionCookies(attacker, victim, ['_interaction', '_interaction.sig']);
      const end = await signInAtDevIdp(victim, atProvider.url, 'Google', who);
      expect(end.url.pathname).toBe(`/oidc/interaction/${uid}/federated`);
      expect(end.status).toBe(400);
      expect(end.body).toContain(messages.stateInvalid);
      await attacker.navigate(`/oidc/oauth2/authorize/${uid}`, isSpaPage);
      expect(await sessionUser(h, attacker)).toBeUndefined();
    });

    it('forgotPassword: mails the reset code and 303s to /forgot-password, which names no address (a shared device keeps every URL); without a valid email to /email', async () => {
      const user = await addPasswordUser(h, 'forgot@school.example');
      const browser = h.browser();
      // the SPA's form POST: the address in its body, never in a URL
      const posted = await browser.request('POST', '/oidc/forgotPassword', {
        body: new URLSearchParams({ client_id: 'frontdoor-portal', login_hint: user.email }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(posted.status).toBe(303);
      expect(posted.headers.get('location')).toBe('/forgot-password');
      await h.ctx.outbox.drain();
      const mails = await h.db
        .selectFrom('mailbox')
        .selectAll()
        .where('to_address', '=', user.email)
        .execute();
      expect(mails).toHaveLength(1);
      // a page the browser opens: in the language menu's choice (its cookie) before the browser's
      const other = await addPasswordUser(h, 'forgot-fr@school.example');
      browser.cookies.set(`${LANGUAGE_COOKIE}|/`, { value: 'fr', path: '/' });
      // the url as §7 builds it, followed as a GET, is taken alike
      const sent = await browser.request(
        'GET',
        `/oidc/forgotPassword?client_id=frontdoor-portal&response_type=code&login_hint=${encodeURIComponent(other.email)}`,
        { headers: { 'accept-language': 'es-ES' } },
      );
      expect(sent.status).toBe(303);
      expect(sent.headers.get('location')).toBe('/forgot-password');
      await h.ctx.outbox.drain();
      const french = await h.db
        .selectFrom('mailbox')
        .selectAll()
        .where('to_address', '=', other.email)
        .executeTakeFirstOrThrow();
      expect(french.subject).toBe(MAIL_LANGUAGES.fr.reset.subject);
      expect(french.text).toContain('&locale=fr');
      const invalid = await browser.request('GET', '/oidc/forgotPassword?login_hint=not-an-email');
      expect(invalid.status).toBe(303);
      expect(invalid.headers.get('location')).toBe('/email');
    });

    it('refuses a replayed authorization code and a reused state', async () => {
      const user = await addPasswordUser(h, 'replay@school.example');
      const { browser, state, login } = await postPassword(h, user.email);
      const { payload } = JSON.parse(login.body) as { payload: { redirect: string } };
      const atCallback = await browser.navigate(
        payload.redirect,
        (url) => url.pathname === '/api/auth/callback',
      );
      const code = atCallback.url.searchParams.get('code') ?? '';
      expect(code).not.toBe('');
      const first = await browser.navigate(atCallback.url, isSpaPage);
      expect(first.url.pathname).toBe('/post-login/login-csrf-1');

      // the same callback again: the state is used up (this browser holds the session it started)
      const again = await browser.request('GET', atCallback.url);
      expect(again.status).toBe(400);
      expect(again.body).toContain(messages.stateInvalid);
      // and in another browser, within the minute a lost answer may be asked again
      const other = h.browser();
      await startSignIn(h, other, 'COGNITO');
      const elsewhere = await other.request('GET', atCallback.url);
      expect(elsewhere.status).toBe(400);
      expect(elsewhere.body).toContain(messages.stateInvalid);
      expect(other.cookie(SESSION_COOKIE)).toBeUndefined();

      // the code itself, replayed at the token endpoint with the right client and verifier
      const token = await exchangeAtTokenEndpoint(h, code, state);
      expect(token.status).toBe(400);
      expect(((await token.json()) as { error: string }).error).toBe('invalid_grant');
    });

    /**
     * A password sign-in whose callback the server handled but whose answer never reached the
     * browser (a crowded school network dropping it): the state spent, the session started, its
     * Set-Cookie lost with the answer.
     */
    async function lostCallbackAnswer(email: string) {
      const user = await addPasswordUser(h, email);
      const { browser, login } = await postPassword(h, user.email);
      const { payload } = JSON.parse(login.body) as { payload: { redirect: string } };
      const callback = (
        await browser.navigate(payload.redirect, (url) => url.pathname === '/api/auth/callback')
      ).url;
      browser.blocksCookies = true;
      const lost = await browser.request('GET', callback);
      browser.blocksCookies = false;
      expect(lost.status).toBe(303);
      expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
      return { user, browser, callback };
    }
    /** The same callback asked again, refused: 'start again', and the browser still signed out. */
    async function expectRetryRefused({ browser, callback }: Awaited<ReturnType<typeof lostCallbackAnswer>>) {
      const again = await browser.request('GET', callback);
      expect(again.status).toBe(400);
      expect(again.body).toContain(messages.stateInvalid);
      expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
    }
    const sessionsOf = (userId: string) =>
      h.db
        .selectFrom('sessions')
        .select(['revoked_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute();

    it('a callback whose answer was lost, asked again by its own browser, lands where the first would have, signed in; another browser gets 400', async () => {
      const { user, browser, callback } = await lostCallbackAnswer('lost-callback@school.example');
      // another browser (its own sign-in's binding) asking the same URL gets nobody's session
      const other = h.browser();
      await startSignIn(h, other, 'COGNITO');
      const elsewhere = await other.request('GET', callback);
      expect(elsewhere.status).toBe(400);
      expect(elsewhere.body).toContain(messages.stateInvalid);
      expect(other.cookie(SESSION_COOKIE)).toBeUndefined();

      // Chromium's reload of its error page: where the first answer sent it, signed in
      const reload = await browser.request('GET', callback);
      expect(reload.status).toBe(303);
      expect(reload.headers.get('location')).toBe('/post-login/login-csrf-1');
      expect(await sessionUser(h, browser)).toBe(user.id);
      // the session whose cookie never arrived ended: one live session, the browser's
      expect((await sessionsOf(user.id)).map((row) => row.revoked_at === null)).toEqual([false, true]);
      expect(await auditOf(h, user.id)).toEqual([
        ['sign-in', { method: 'password' }],
        ['session.started', { via: 'callback' }],
        ['session.started', { via: 'callback' }],
      ]);
      // once the answer arrived, the same URL again is refused: the browser holds that session
      const again = await browser.request('GET', callback);
      expect(again.status).toBe(400);
      expect(await sessionUser(h, browser)).toBe(user.id);
      // and so is it for the other browser still
      expect((await other.request('GET', callback)).status).toBe(400);
    });

    it('a callback whose answer was lost, asked again by its own browser after the pupil signed out, is 400 (a shared device)', async () => {
      const { user, browser, callback } = await lostCallbackAnswer('shared-device@school.example');
      const reload = await browser.navigate(callback, isSpaPage);
      expect(reload.url.pathname).toBe('/post-login/login-csrf-1');
      expect(await sessionUser(h, browser)).toBe(user.id);
      // pupil A signs out; pupil B, at the same Chromebook, presses Back to A's callback
      browser.fetchSite = 'same-origin';
      expect((await browser.request('GET', `/api/${apiPaths.cognitoLogout}`)).status).toBe(200);
      browser.fetchSite = undefined;
      expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
      await expectRetryRefused({ user, browser, callback });
      expect((await sessionsOf(user.id)).every((row) => row.revoked_at !== null)).toBe(true);
    });

    it('a callback whose answer was lost is 400 once this browser started another sign-in (the next pupil at a shared Chromebook, pressing Back to it)', async () => {
      const { user, browser, callback } = await lostCallbackAnswer('lost-then-next@school.example');
      h.clock.advance(1_000);
      await startSignIn(h, browser, 'COGNITO', 'next-pupil@school.example');
      await expectRetryRefused({ user, browser, callback });
      expect((await sessionsOf(user.id)).map((row) => row.revoked_at)).toEqual([null]);
    });

    it('a callback whose answer was lost, asked again by its own browser after the window, is 400', async () => {
      const { user, browser, callback } = await lostCallbackAnswer('lost-late@school.example');
      h.clock.advance(LOST_CALLBACK_WINDOW_MS + 1_000);
      await expectRetryRefused({ user, browser, callback });
      // the session whose cookie never arrived is left to idle out, nobody's browser holding it
      expect((await sessionsOf(user.id)).map((row) => row.revoked_at)).toEqual([null]);
    });

    it("the resume whose answer was lost, asked again: 'start again' goes to the product's login page of this browser's sign-in, else to /log-in", async () => {
      await seedServiceProvider(h, 'resume-lost');
      const csrf = await createLoginRequest(
        h.db,
        { spId: 'resume-lost', url: 'https://app.resume-lost.test/home', isTeacher: false },
        h.clock.now(),
      );
      const user = await addPasswordUser(h, 'lost-resume@school.example');
      const browser = h.browser();
      const { authorizeUrl } = await startSignIn(h, browser, 'COGNITO', user.email, csrf);
      const uid = (await browser.navigate(authorizeUrl, isSpaPage)).url.pathname.split('/').pop();
      const login = await browser.postJson(`/api/${apiPaths.cognitoLogin}`, {
        email: user.email,
        password: PASSWORD,
        uid,
      });
      const { payload } = JSON.parse(login.body) as { payload: { redirect: string } };
      // the resume's answer (the redirect to the callback, its cookies) lost on the way
      browser.blocksCookies = true;
      expect((await browser.request('GET', payload.redirect)).status).toBe(303);
      browser.blocksCookies = false;
      const again = await browser.request('GET', payload.redirect);
      expect(again.status).toBe(400);
      expect(again.body).toContain(messages.stateInvalid);
      expect(again.body).toContain(`href="/log-in/${csrf}"`);

      // a sign-in without a product's request (or another browser, which has none): the login page
      const plain = await postPassword(
        h,
        (await addPasswordUser(h, 'lost-resume-plain@school.example')).email,
      );
      const redirect = (JSON.parse(plain.login.body) as { payload: { redirect: string } }).payload.redirect;
      plain.browser.blocksCookies = true;
      await plain.browser.request('GET', redirect);
      plain.browser.blocksCookies = false;
      expect((await plain.browser.request('GET', redirect)).body).toContain('href="/log-in"');
      const other = h.browser();
      await startSignIn(h, other, 'COGNITO');
      expect((await other.request('GET', payload.redirect)).body).toContain('href="/log-in"');
    });

    /** The authorization server's next read of its table (the adapter's find) fails as PostgreSQL's lock_timeout does. */
    function holdNextPayloadRead() {
      const selectFrom = h.db.selectFrom.bind(h.db);
      const spy = vi.spyOn(h.db, 'selectFrom').mockImplementation(((table: string) => {
        if (table !== 'oidc_payloads') return selectFrom(table as never);
        spy.mockRestore();
        throw Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' });
      }) as never);
    }
    const heldLines = () =>
      lines.filter((l) =>
        String(l.msg).startsWith('a PostgreSQL lock or a long statement held this request'),
      );

    /** A password sign-in up to the URL of its callback (the code and the state), not yet loaded. */
    async function atCallback(email: string) {
      const user = await addPasswordUser(h, email);
      const { browser, state, login } = await postPassword(h, user.email);
      const { payload } = JSON.parse(login.body) as { payload: { redirect: string } };
      const callback = await browser.navigate(
        payload.redirect,
        (url) => url.pathname === '/api/auth/callback',
      );
      return { user, browser, state, callback: callback.url };
    }

    it("the code exchange held by a lock on the authorization server's table: 503 serverBusy with Retry-After, in the page's language; the same callback again signs in, its code exchanged once", async () => {
      const { user, browser, state, callback } = await atCallback('held-exchange@school.example');
      browser.cookies.set(`${LANGUAGE_COOKIE}|/`, { value: 'fr', path: '/' });
      lines.length = 0;
      holdNextPayloadRead();
      const held = await browser.request('GET', callback);
      expect(held.status).toBe(503);
      expect(held.headers.get('retry-after')).toBe('5');
      expect(held.body).toContain(escapeHtml(messageCatalogs.fr.serverBusy));
      expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
      // the token endpoint's line says what held it, as the API's does; no error line, no stack
      expect(heldLines()).toEqual([
        expect.objectContaining({ level: 40, reason: 'canceling statement due to lock timeout' }),
      ]);
      expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
      expect(lines.find((l) => l.msg === 'code exchange failed')).toMatchObject({
        status: 503,
        temporary: true,
      });

      // the reload: the state was given back and the code is unused
      const end = await browser.navigate(callback, isSpaPage);
      expect(end.url.pathname).toBe('/post-login/login-csrf-1');
      expect(await sessionUser(h, browser)).toBe(user.id);
      // and spent now: neither the callback nor the code goes a second time
      expect((await browser.request('GET', callback)).body).toContain(messageCatalogs.fr.stateInvalid);
      const token = await exchangeAtTokenEndpoint(h, callback.searchParams.get('code') ?? '', state);
      expect(token.status).toBe(400);
    });

    it('a password sign-in whose code the authorization server refuses (spent): the callback says start again, never that a provider failed', async () => {
      const { browser, callback } = await atCallback('spent-code@school.example');
      await h.db
        .updateTable('oidc_payloads')
        .set({ consumed_at: h.clock.now() })
        .where('type', '=', 'AuthorizationCode')
        .execute();
      const end = await browser.request('GET', callback);
      expect(end.status).toBe(400);
      expect(end.body).toContain(escapeHtml(messages.stateInvalid));
      expect(end.body).not.toContain(escapeHtml(messages.upstreamFailed));
      expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
    });

    it("the resume step held by a lock: 503 serverBusy with Retry-After, in the page's language; the same step again signs in", async () => {
      const user = await addPasswordUser(h, 'held-resume@school.example');
      const { browser, login } = await postPassword(h, user.email);
      const { payload } = JSON.parse(login.body) as { payload: { redirect: string } };
      lines.length = 0;
      holdNextPayloadRead();
      const held = await browser.request('GET', payload.redirect, { headers: { 'accept-language': 'de' } });
      expect(held.status).toBe(503);
      expect(held.headers.get('retry-after')).toBe('5');
      expect(held.body).toContain(escapeHtml(messageCatalogs.de.serverBusy));
      expect(heldLines()).toHaveLength(1);
      expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
      const end = await browser.navigate(payload.redirect, isSpaPage);
      expect(end.url.pathname).toBe('/post-login/login-csrf-1');
      expect(await sessionUser(h, browser)).toBe(user.id);
    });

    it.skipIf(dialect !== 'postgres')(
      "PostgreSQL: a real lock on the authorization server's table (VACUUM FULL, a migration) past lock_timeout during the callback: 503, and once it is gone the same callback signs in",
      async () => {
        const { user, browser, callback } = await atCallback('locked-table@school.example');
        // another connection holds the table (a transaction of the test's own) while the callback runs
        await h.db.transaction().execute(async (holder) => {
          await sql`lock table oidc_payloads in access exclusive mode`.execute(holder);
          const held = await browser.request('GET', callback);
          expect(held.status).toBe(503);
          expect(held.headers.get('retry-after')).toBe('5');
          expect(held.body).toContain(escapeHtml(messages.serverBusy));
        });
        expect((await browser.navigate(callback, isSpaPage)).url.pathname).toBe('/post-login/login-csrf-1');
        expect(await sessionUser(h, browser)).toBe(user.id);
      },
    );

    it('refuses a wrong redirect_uri and an unknown client with a page, never a redirect', async () => {
      const browser = h.browser();
      const { authorizeUrl } = await startSignIn(h, browser, 'COGNITO');
      const wrongRedirect = await browser.request(
        'GET',
        authorizeUrl.replace(
          encodeURIComponent(`${h.baseUrl}/api/auth/callback`),
          encodeURIComponent('https://evil.example/cb'),
        ),
      );
      expect(wrongRedirect.status).toBe(400);
      expect(wrongRedirect.headers.get('location')).toBeNull();
      expect(wrongRedirect.body).toContain('redirect_uri');
      const unknownClient = await browser.request(
        'GET',
        authorizeUrl.replace('client_id=frontdoor-portal', 'client_id=someone-else'),
      );
      expect(unknownClient.status).toBe(400);
      expect(unknownClient.headers.get('location')).toBeNull();
      // oidc-provider's own error page, in the browser's language
      const inArabic = await browser.request(
        'GET',
        authorizeUrl.replace('client_id=frontdoor-portal', 'client_id=someone-else'),
        { headers: { 'accept-language': 'ar-EG,ar;q=0.9' } },
      );
      expect(inArabic.status).toBe(400);
      expect(inArabic.body).toContain('<html lang="ar" dir="rtl">');
      expect(inArabic.body).toContain(messageCatalogs.ar.badRequest);
      expect(inArabic.body).toContain(messageCatalogs.ar.backToSignIn);
    });

    it('refuses an authorization request without PKCE, and an unknown identity_provider, back at the callback', async () => {
      const browser = h.browser();
      const { authorizeUrl } = await startSignIn(h, browser, 'COGNITO');
      const noPkce = await browser.navigate(authorizeUrl.replace(/&code_challenge=[^&]+/, ''), isSpaPage);
      expect(noPkce.status).toBe(400);
      expect(noPkce.body).toContain(messages.upstreamFailed);
      expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
      const second = await startSignIn(h, browser, 'COGNITO');
      const badIdp = await browser.navigate(
        second.authorizeUrl.replace('identity_provider=COGNITO', 'identity_provider=Facebook'),
        isSpaPage,
      );
      expect(badIdp.status).toBe(400);
      expect(badIdp.body).toContain(messages.upstreamFailed);
    });

    it('idp_identifier without identity_provider picks the provider IDP_IDENTIFIERS names for it', async () => {
      const browser = h.browser();
      const { authorizeUrl } = await startSignIn(h, browser, 'COGNITO');
      const byIdentifier = authorizeUrl.replace(
        'identity_provider=COGNITO',
        'idp_identifier=District.Example',
      );
      const end = await signInAtDevIdp(browser, byIdentifier, 'Clever', {
        email: 'by-id@district.example',
        first: 'Id',
        last: 'P',
      });
      expect(end.url.pathname).toBe('/post-login/login-csrf-1');
      const identity = await h.db
        .selectFrom('user_identities')
        .select('provider')
        .where('user_id', '=', (await sessionUser(h, browser)) ?? '')
        .executeTakeFirstOrThrow();
      expect(identity.provider).toBe('Clever');
    });

    it('identity_provider wins over idp_identifier; an identifier matching no provider is refused', async () => {
      const browser = h.browser();
      const both = await startSignIn(h, browser, 'COGNITO');
      const page = await browser.navigate(`${both.authorizeUrl}&idp_identifier=district.example`, isSpaPage);
      expect(page.url.pathname).toMatch(/^\/sign-in\//);

      const unknown = await startSignIn(h, browser, 'COGNITO');
      const refused = await browser.navigate(
        unknown.authorizeUrl.replace('identity_provider=COGNITO', 'idp_identifier=nowhere.example'),
        isSpaPage,
      );
      expect(refused.status).toBe(400);
      expect(refused.body).toContain(messages.upstreamFailed);
      expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
    });

    it('refuses a forged state and a state issued to another browser', async () => {
      const user = await addPasswordUser(h, 'foreign-state@school.example');
      const forged = await h.browser().request('GET', '/api/auth/callback?code=abc&state=forged-state');
      expect(forged.status).toBe(400);
      expect(forged.body).toContain(messages.stateInvalid);
      const inFrench = await h.browser().request('GET', '/api/auth/callback?code=abc&state=forged-state', {
        headers: { 'accept-language': 'fr-CA,fr;q=0.9' },
      });
      expect(inFrench.status).toBe(400);
      expect(inFrench.body).toContain('<html lang="fr" dir="ltr">');
      expect(inFrench.body).toContain(messageCatalogs.fr.stateInvalid);

      // the victim's browser got the state; the attacker's browser tries a sign-in with it: its
      // password page is refused, and so is its callback
      const victim = h.browser();
      const { state } = await startSignIn(h, victim, 'COGNITO');
      const attacker = h.browser();
      const own = await startSignIn(h, attacker, 'COGNITO', user.email);
      const page = await attacker.navigate(own.authorizeUrl.replace(own.state, state), isSpaPage);
      expect(page.url.pathname).toMatch(/^\/oidc\/interaction\/[\w-]+$/);
      expect(page.status).toBe(400);
      expect(page.body).toContain(messages.stateInvalid);
      const end = await attacker.navigate(`/api/auth/callback?code=abc&state=${state}`, isSpaPage);
      expect(end.status).toBe(400);
      expect(end.body).toContain(messages.stateInvalid);
      expect(attacker.cookie(SESSION_COOKIE)).toBeUndefined();
    });

    it("a browser that blocks the portal's cookies is told so at the step that needs one, not that its sign-in is no longer valid", async () => {
      const user = await addPasswordUser(h, 'blocked-cookies@school.example');
      const blocking = (fetchSite = 'same-origin') => {
        const browser = h.browser();
        browser.blocksCookies = true;
        browser.fetchSite = fetchSite;
        return browser;
      };
      // a provider's button, and the email page's sign-in: the interaction finds no cookie of its own
      for (const provider of ['Google', 'COGNITO'] as const) {
        const browser = blocking();
        const { authorizeUrl } = await startSignIn(h, browser, provider, user.email);
        const page = await browser.navigate(authorizeUrl, isSpaPage);
        expect(page.url.pathname, provider).toMatch(/^\/oidc\/interaction\/[\w-]+$/);
        expect(page.status, provider).toBe(403);
        expect(page.body, provider).toContain(escapeHtml(messages.cookiesBlocked));
        expect(page.body, provider).not.toContain(messages.stateInvalid);
        // the same address typed or pasted, with no cookie: nothing says cookies are the cause
        const pasted = await h.browser().request('GET', page.url);
        expect(pasted.status, provider).toBe(400);
        expect(pasted.body, provider).toContain(messages.stateInvalid);
      }
      // the password call of the password page, refused by the CSRF check already
      const login = await blocking().postJson(`/api/${apiPaths.cognitoLogin}`, {
        email: user.email,
        password: PASSWORD,
        uid: 'some-interaction-uid',
      });
      expect(login.status).toBe(403);
      expect(JSON.parse(login.body)).toMatchObject({ code: 'cookiesBlocked' });
      // the steps a provider's redirect back reaches (cross-site), without the binding cookie at all
      const states = await startSignIn(h, h.browser(), 'Google');
      for (const step of [
        '/oidc/interaction/some-interaction-uid/federated?code=abc',
        '/api/auth/callback?code=abc',
      ]) {
        const url = `${step}&state=${states.state}`;
        const blocked = await blocking('cross-site').request('GET', url);
        expect(blocked.status, step).toBe(403);
        expect(blocked.body, step).toContain(escapeHtml(messages.cookiesBlocked));
        // a browser that keeps cookies, its binding wrong or missing: the sign-in is not its own
        const other = h.browser();
        other.fetchSite = 'cross-site';
        await other.request('GET', '/healthz');
        const refused = await other.request('GET', url);
        expect(refused.status, step).toBe(400);
        expect(refused.body, step).toContain(messages.stateInvalid);
      }
      // a launch from a school's portal (Clever Instant Login): its redirect chain began on Clever's site
      const launched = await blocking('cross-site').navigate(
        '/oidc/interaction/callback/Clever?code=instant-login-code',
        isSpaPage,
      );
      expect(launched.url.pathname).toMatch(/^\/oidc\/interaction\/[\w-]+$/);
      expect(launched.status).toBe(403);
      expect(launched.body).toContain(escapeHtml(messages.cookiesBlocked));
    });

    it('an upstream error (the person cancels) ends at the callback page that says the provider did not sign them in, signed out', async () => {
      const federatedFailures = async () =>
        Number(
          /^frontdoor_sign_ins_total\{method="federated",outcome="failure"\} (\d+)$/m.exec(
            await registry.metrics(),
          )?.[1] ?? 0,
        );
      const failuresBefore = await federatedFailures();
      const browser = h.browser();
      const { authorizeUrl } = await startSignIn(h, browser, 'Google', 'cancel@school.example');
      const page = await browser.navigate(authorizeUrl, isSpaPage);
      const uid =
        browser.history.map((u) => /^\/oidc\/interaction\/([\w-]+)$/.exec(u.pathname)?.[1]).find(Boolean) ??
        '';
      expect(page.url.pathname).toMatch(/^\/dev\/idp\/Google\/interaction\//);
      const end = await browser.navigate(
        `/oidc/interaction/callback/Google?error=access_denied&state=${uid}`,
        isSpaPage,
      );
      expect(end.url.pathname).toBe('/api/auth/callback');
      expect(end.status).toBe(400);
      // the person said no: nothing broke, so the page does not ask to try again
      expect(end.body).toContain(escapeHtml(messages.upstreamRefused));
      // nor does the address it ends at
      expect(end.url.searchParams.get('error_description')).toBe(messages.upstreamRefused);
      expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
      // /metrics counts it (services/metrics.ts)
      expect(await federatedFailures()).toBe(failuresBefore + 1);
    });

    it('links a verified Google email to the existing account', async () => {
      const user = await addPasswordUser(h, 'linked@school.example');
      const { browser } = await upstreamLoop(h, 'Google', {
        email: user.email,
        first: 'Other',
        last: 'Name',
      });
      expect(await sessionUser(h, browser)).toBe(user.id);
      const methods = await h.db
        .selectFrom('user_identities')
        .select('provider')
        .where('user_id', '=', user.id)
        .execute();
      expect(methods.map((m) => m.provider)).toEqual(['Google']);
    });

    it("a verified Google email confirms a sign-up nobody confirmed: the sign-up's password goes and the provider's names replace its own", async () => {
      const user = await addPasswordUser(h, 'stranger-typed@school.example', { confirmed: false });
      const { browser } = await upstreamLoop(h, 'Google', {
        email: user.email,
        first: 'Real',
        last: 'Owner',
      });
      expect(await sessionUser(h, browser)).toBe(user.id);
      expect(
        await h.db
          .selectFrom('users')
          .select(['confirmed', 'password_hash', 'first', 'last', 'names_proven'])
          .where('id', '=', user.id)
          .executeTakeFirst(),
      ).toEqual({ confirmed: 1, password_hash: null, first: 'Real', last: 'Owner', names_proven: 1 });

      // confirmed already, from another browser: its unproven names give way too, its password stays
      const away = await addPasswordUser(h, 'confirmed-away@school.example');
      await h.db.updateTable('users').set({ names_proven: 0 }).where('id', '=', away.id).execute();
      await upstreamLoop(h, 'Google', { email: away.email, first: 'Real', last: 'Owner' });
      expect(
        await h.db
          .selectFrom('users')
          .select(['first', 'names_proven'])
          .where('id', '=', away.id)
          .executeTakeFirst(),
      ).toEqual({ first: 'Real', names_proven: 1 });
      expect((await findUserById(h.db, away.id))?.password_hash).toBe(away.password_hash);
    });

    it("an Apple ID on a school's address opens no account that has the address, nor a second one: the page says an account exists", async () => {
      const user = await addPasswordUser(h, 'apple-id-on-school@school.example');
      const usersBefore = await h.db.selectFrom('users').select('id').execute();
      const { browser, end } = await upstreamLoop(h, 'SignInWithApple', {
        email: user.email,
        first: 'Once',
        last: 'Verified',
      });
      expect(end.status).toBe(409);
      expect(end.body).toContain(messages.accountExists);
      // and what to do: the email page, where its owner's password (or a new one) signs in
      expect(end.body).toContain(messages.useEmailInstead);
      expect(end.body).toContain(`<a class="button" href="/email">${messages.backToSignIn}</a>`);
      expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
      expect(await h.db.selectFrom('users').select('id').execute()).toHaveLength(usersBefore.length);
      expect(
        await h.db.selectFrom('user_identities').select('id').where('user_id', '=', user.id).execute(),
      ).toEqual([]);
    });

    it('after "an account exists", another Apple ID chosen in the same sign-in signs in at once: the answer taken first is given back', async () => {
      const user = await addPasswordUser(h, 'apple-then-own@school.example');
      const browser = h.browser();
      const { authorizeUrl, state } = await startSignIn(h, browser, 'SignInWithApple', user.email);
      const who = { email: user.email, first: 'School', last: 'Address' };
      expect((await signInAtDevIdp(browser, authorizeUrl, 'SignInWithApple', who)).status).toBe(409);
      // back to the provider in the same sign-in (its interaction still open), another Apple ID this time
      const { id: uid } = await h.db
        .selectFrom('oidc_payloads')
        .select('id')
        .where('type', '=', 'Interaction')
        .where('payload', 'like', `%${state}%`)
        .executeTakeFirstOrThrow();
      const other = { email: 'own-apple-id@privaterelay.appleid.com', first: 'Own', last: 'Apple' };
      const end = await signInAtDevIdp(browser, `/oidc/interaction/${uid}`, 'SignInWithApple', other);
      expect(end.url.pathname).toMatch(/^\/post-login\//);
      const signedIn = await sessionUser(h, browser);
      expect((await findUserById(h.db, signedIn ?? ''))?.email).toBe(other.email);
    });

    it("a password set by mailed code unlinks every provider: an Apple ID that once verified a school's recycled address keeps no way into its new holder's account; Google links again", async () => {
      const email = 'recycled@school.example';
      // a former holder of the address signs in with Apple first: the account gets the address
      const before = await upstreamLoop(h, 'SignInWithApple', { email, first: 'Former', last: 'Holder' });
      const accountId = await sessionUser(h, before.browser);
      expect((await findUserById(h.db, accountId ?? ''))?.email).toBe(email);
      // its new holder sets a password with the code mailed there
      const owner = h.browser();
      await owner.request('GET', '/api/auth/sig');
      await owner.postJson('/api/cognito/sendreset', { un: email });
      const { code } = await lastMail(h, email);
      const pw = 'Quartz-Lantern-5823';
      expect(
        (await owner.postJson('/api/cognito/reset', { un: email, code, pw, confirmPw: pw })).status,
      ).toBe(200);
      expect(
        await h.db
          .selectFrom('user_identities')
          .select('provider')
          .where('user_id', '=', accountId ?? '')
          .execute(),
      ).toEqual([]);
      expect((await auditOf(h, accountId ?? '')).filter(([event]) => event === 'identity.unlinked')).toEqual([
        ['identity.unlinked', { provider: 'SignInWithApple', by: 'password-reset' }],
      ]);
      // the Apple ID signs into it no more
      const again = await upstreamLoop(h, 'SignInWithApple', { email, first: 'Former', last: 'Holder' });
      expect(again.end.status).toBe(409);
      expect(again.browser.cookie(SESSION_COOKIE)).toBeUndefined();

      // a provider that owns the address (Google on a Gmail address) is the holder: it links again
      const gmail = 'linked-again@gmail.com';
      const google = await upstreamLoop(h, 'Google', { email: gmail, first: 'Gee', last: 'Mail' });
      const googleAccount = await sessionUser(h, google.browser);
      await owner.postJson('/api/cognito/sendreset', { un: gmail });
      const mailed = await lastMail(h, gmail);
      expect(
        (await owner.postJson('/api/cognito/reset', { un: gmail, code: mailed.code, pw, confirmPw: pw }))
          .status,
      ).toBe(200);
      const relinked = await upstreamLoop(h, 'Google', { email: gmail, first: 'Gee', last: 'Mail' });
      expect(await sessionUser(h, relinked.browser)).toBe(googleAccount);
    });

    it('never links a second Google account to an account that has one: a reassigned school address gets an account of its own', async () => {
      const user = await addPasswordUser(h, 'reassigned@school.example');
      await h.db
        .insertInto('user_identities')
        .values({
          user_id: user.id,
          provider: 'Google',
          subject: 'the-departed-pupil',
          email: user.email,
          created_at: Date.now(),
          claims: null,
        })
        .execute();
      const { browser } = await upstreamLoop(h, 'Google', { email: user.email, first: 'New', last: 'Pupil' });
      const userId = await sessionUser(h, browser);
      expect(userId).toBeDefined();
      expect(userId).not.toBe(user.id);
      const created = await h.db
        .selectFrom('users')
        .select('email')
        .where('id', '=', userId ?? '')
        .executeTakeFirstOrThrow();
      expect(created.email).toMatch(/^google-[0-9a-f]{20}@federated\.invalid$/);
    });

    it('never links on a Clever email: a separate account with a placeholder address', async () => {
      const user = await addPasswordUser(h, 'not-linked@school.example');
      const { browser } = await upstreamLoop(h, 'Clever', {
        email: user.email,
        first: 'Clever',
        last: 'Student',
      });
      const userId = await sessionUser(h, browser);
      expect(userId).toBeDefined();
      expect(userId).not.toBe(user.id);
      const created = await h.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', userId ?? '')
        .executeTakeFirstOrThrow();
      expect(created.email).toMatch(/^clever-[0-9a-f]{20}@federated\.invalid$/);
      const identity = await h.db
        .selectFrom('user_identities')
        .selectAll()
        .where('user_id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(identity.email).toBe(user.email);
    });

    it('Clever Instant Login: a code without our state starts a sign-in of our own and ends signed in', async () => {
      const browser = h.browser();
      const authorize = await expectOwnSignInStarted(
        h,
        browser,
        '/oidc/interaction/callback/Clever?code=instant-login-code',
        'Clever',
      );

      const end = await signInAtDevIdp(browser, authorize, 'Clever', {
        email: 'instant@school.example',
        first: 'Ina',
        last: 'Stant',
      });
      expect(end.url.pathname).toBe('/post-login');
      expect(await sessionUser(h, browser)).toBeDefined();
    });

    it('ClassLink LaunchPad: the dev LaunchPad tile (a code, no state) starts a sign-in of our own and ends signed in', async () => {
      const browser = h.browser();
      const launchpad = await browser.request('GET', '/dev/idp/ClassLink/launchpad');
      expect(launchpad.status).toBe(200);
      const tile = /<a class="button" href="([^"]+)">Frontdoor<\/a>/.exec(launchpad.body)?.[1] ?? '';
      const launchUrl = new URL(tile.replaceAll('&amp;', '&'), h.baseUrl);
      expect(launchUrl.pathname).toBe('/oidc/interaction/callback/ClassLink');
      expect(launchUrl.searchParams.get('code')).toMatch(/^[\w-]{32,}$/);
      expect(launchUrl.searchParams.has('state')).toBe(false);

      const authorize = await expectOwnSignInStarted(h, browser, launchUrl, 'ClassLink');

      const who = { email: 'launchpad@school.example', first: 'Lana', last: 'Pad', role: 'student' as const };
      const end = await signInAtDevIdp(browser, authorize, 'ClassLink', who);
      expect(end.url.pathname).toBe('/post-login');
      const { signature } = await whatProductsLearn(browser);
      expect(signature.identities).toEqual([expectedIdentity('ClassLink', who)]);
    });

    /** A Clever sign-in up to the provider's answer at /oidc/interaction/<uid>/federated, not sent. */
    const cleverAnswer = async (browser: Browser, email: string) => {
      const { authorizeUrl } = await startSignIn(h, browser, 'Clever', email);
      const isFederated = (url: URL) => /^\/oidc\/interaction\/[\w-]+\/federated$/.test(url.pathname);
      const answer = await signInAtDevIdp(
        browser,
        authorizeUrl,
        'Clever',
        { email, first: 'Re', last: 'Try' },
        isFederated,
      );
      expect(answer.url.searchParams.get('code')).toEqual(expect.any(String));
      return answer.url;
    };
    const cleverTokenRequests = () => requestsTo('/dev/idp/Clever/oauth2/token');

    it("the provider's answer sent again (its response lost on a school's Wi-Fi): still signed in, its code exchanged once", async () => {
      const browser = h.browser();
      const answer = await cleverAnswer(browser, 'retry@school.example');
      const exchanged = cleverTokenRequests();
      const lost = await browser.request('GET', answer);
      expect(lost.status).toBe(303);
      const end = await browser.navigate(answer, isSpaPage);
      expect(end.url.pathname).toBe('/post-login/login-csrf-1');
      expect(await sessionUser(h, browser)).toBeDefined();
      expect(cleverTokenRequests()).toBe(exchanged + 1);
    });

    it("two tabs loading the provider's answer at once: signed in, each tab on a page (no JSON), its code exchanged once", async () => {
      const browser = h.browser();
      const answer = await cleverAnswer(browser, 'two-tabs@school.example');
      const exchanged = cleverTokenRequests();
      const tabs = await Promise.all([
        browser.navigate(answer, isSpaPage),
        browser.navigate(answer, isSpaPage),
      ]);
      for (const tab of tabs) expect(tab.body.trimStart().startsWith('{'), tab.body).toBe(false);
      expect(tabs.map((t) => t.url.pathname)).toContain('/post-login/login-csrf-1');
      expect(await sessionUser(h, browser)).toBeDefined();
      expect(cleverTokenRequests()).toBe(exchanged + 1);
    });

    it('a state-less callback is refused for every other provider, and for Clever or ClassLink without a code', async () => {
      for (const target of [
        '/oidc/interaction/callback/Google?code=some-code',
        '/oidc/interaction/callback/Microsoft?code=some-code',
        '/oidc/interaction/callback/Clever?error=access_denied',
        '/oidc/interaction/callback/ClassLink?error=access_denied',
      ]) {
        const browser = h.browser();
        const visit = await browser.request('GET', target);
        expect(visit.status).toBe(400);
        expect(visit.body).toContain(messages.stateInvalid);
        expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
      }
    });

    it("a sign-in ends the browser's previous session, password then Google (shared devices)", async () => {
      const first = await addPasswordUser(h, 'shared-first@school.example');
      const { browser, login } = await postPassword(h, first.email);
      await browser.navigate(
        (JSON.parse(login.body) as { payload: { redirect: string } }).payload.redirect,
        isSpaPage,
      );
      const firstToken = browser.cookie(SESSION_COOKIE);
      expect(await sessionUser(h, browser)).toBe(first.id);

      const { authorizeUrl } = await startSignIn(h, browser, 'Google', 'shared-second@school.example');
      const end = await signInAtDevIdp(browser, authorizeUrl, 'Google', {
        email: 'shared-second@school.example',
        first: 'Sec',
        last: 'Ond',
      });

      expect(end.url.pathname).toBe('/post-login/login-csrf-1');
      const secondUser = await sessionUser(h, browser);
      expect(secondUser).toBeDefined();
      expect(secondUser).not.toBe(first.id);
      expect(await readSession(h.db, firstToken, h.clock.now())).toBeNull();
    });

    it("a provider's rename of an account's address waits for the account's code request in progress (PostgreSQL: the locks in one order)", async () => {
      const before = { email: 'held.renamed@school.example', first: 'Held', last: 'Renamed' };
      const first = await upstreamLoop(h, 'Google', before);
      const accountId = (await sessionUser(h, first.browser)) ?? '';
      let renaming: Promise<unknown> | undefined;
      await h.db.transaction().execute(async (trx) => {
        await lockAccount(trx, accountId);
        renaming = resolveUpstreamAccount(
          h.db,
          {
            provider: 'Google',
            subject: devAccountId('Google', before.email),
            email: 'held.moved@school.example',
            emailVerified: true,
            emailTrusted: true,
            linkableEmail: true,
            first: before.first,
            last: before.last,
            directory: {},
          },
          h.clock.now(),
        );
        const answer = await Promise.race([
          renaming.then(() => 'renamed'),
          new Promise((resolve) => setTimeout(() => resolve('waiting'), 300)),
        ]);
        expect(answer).toBe('waiting');
      });
      await renaming;
      expect((await findUserById(h.db, accountId))?.email).toBe('held.moved@school.example');
    });

    it("a provider that reports the person at a new address (a school renamed them): the account's address follows, so the old address's next holder resets nothing", async () => {
      const before = { email: 'alice.renamed@school.example', first: 'Alice', last: 'Renamed' };
      const first = await upstreamLoop(h, 'Google', before);
      const accountId = (await sessionUser(h, first.browser)) ?? '';
      expect((await findUserById(h.db, accountId))?.email).toBe(before.email);
      // the same Google account (its sub) at a new address; the dev IdP derives the sub from the address
      const moveTo = (email: string) =>
        h.db
          .updateTable('user_identities')
          .set({ subject: devAccountId('Google', email) })
          .where('user_id', '=', accountId)
          .execute();
      // the old address's next holder asked for a reset code there just before the rename
      const early = h.browser();
      await early.request('GET', '/api/auth/sig');
      await early.postJson('/api/cognito/sendreset', { un: before.email });
      const { code: earlyCode } = await lastMail(h, before.email);
      expect(earlyCode).toBeDefined();
      const after = { ...before, email: 'alicia.renamed@school.example' };
      await moveTo(after.email);
      const second = await upstreamLoop(h, 'Google', after);
      expect(await sessionUser(h, second.browser)).toBe(accountId);
      expect((await findUserById(h.db, accountId))?.email).toBe(after.email);
      // the old address's next holder asks for a reset there: no account has it, no code is mailed
      const next = h.browser();
      await next.request('GET', '/api/auth/sig');
      await next.postJson('/api/cognito/sendreset', { un: before.email });
      expect((await lastMail(h, before.email)).mail?.text).toContain(earlyCode);
      // and the code mailed before the rename opens it no more
      const pw = 'Quartz-Lantern-5823';
      expect(
        (await early.postJson('/api/cognito/reset', { un: after.email, code: earlyCode, pw, confirmPw: pw }))
          .status,
      ).toBe(400);

      // a sign-in that carries no address (Apple sends it once) renames nothing
      const silent = await resolveUpstreamAccount(
        h.db,
        {
          provider: 'Google',
          subject: devAccountId('Google', after.email),
          email: null,
          emailVerified: false,
          emailTrusted: false,
          linkableEmail: false,
          first: '',
          last: '',
          directory: {},
        },
        h.clock.now(),
      );
      expect(silent.user.email).toBe(after.email);

      // renamed to an address another account has: the account keeps neither
      const other = await addPasswordUser(h, 'taken.renamed@school.example');
      await moveTo(other.email);
      const third = await upstreamLoop(h, 'Google', { ...before, email: other.email });
      expect(await sessionUser(h, third.browser)).toBe(accountId);
      expect((await findUserById(h.db, accountId))?.email).toMatch(
        /^google-[0-9a-f]{20}@federated\.invalid$/,
      );
    });

    it('a later sign-in refreshes what the roster asserted; the account keeps its own email', async () => {
      const who = { email: 'promoted@school.example', first: 'Pro', last: 'Moted' };
      const first = await upstreamLoop(h, 'Clever', { ...who, role: 'student' });
      const before = await whatProductsLearn(first.browser);
      expect(before.signature.identities?.[0]?.roles).toEqual(['student']);
      const second = await upstreamLoop(h, 'Clever', { ...who, role: 'teacher' });
      const after = await whatProductsLearn(second.browser);
      expect(after.signature.id).toBe(before.signature.id);
      expect(after.signature.email).toBe(before.signature.email);
      expect(after.signature.identities).toEqual([expectedIdentity('Clever', { ...who, role: 'teacher' })]);
    });

    it("Apple's posted answer (the code, the name and email it sends once) reaches no address a shared device's history keeps, and is read once", async () => {
      const who = { email: 'posted-once@school.example', first: 'Kim', last: 'Posted' };
      const { browser, end } = await upstreamLoop(h, 'SignInWithApple', who);
      expect(end.url.pathname).toBe('/post-login/login-csrf-1');
      expect(await sessionUser(h, browser)).toBeDefined();
      const federated = browser.history.filter((u) => u.pathname.endsWith('/federated'));
      expect(federated).toHaveLength(1);
      // from Apple's answer on (the authorize address's login_hint is the product's own choice)
      const answered = browser.history.slice(
        browser.history.findIndex((u) => u.pathname.includes('/callback/')),
      );
      expect(answered.length).toBeGreaterThan(2);
      for (const url of answered) {
        expect(url.href).not.toContain('Posted');
        expect(url.href).not.toContain(encodeURIComponent(who.email));
        expect(url.searchParams.has('user')).toBe(false);
      }
      expect(federated[0]?.search).toBe('');
      // read once: gone from the jar
      expect(browser.cookie(PROVIDER_ANSWER_COOKIE)).toBeUndefined();
    });

    it('a posted answer sealed for one interaction opens for no other, nor once altered, nor after its minute', () => {
      const secret = Buffer.alloc(32, 7);
      const now = 1_800_000_000_000;
      const answer = new URLSearchParams({ code: 'c-1', state: 'uid-aaaaaaaaaa', user: '{"name":{}}' });
      const sealed = sealAnswer(secret, 'uid-aaaaaaaaaa', answer, now);
      expect(openAnswer(secret, 'uid-aaaaaaaaaa', sealed, now)?.toString()).toBe(answer.toString());
      expect(openAnswer(secret, 'uid-bbbbbbbbbb', sealed, now)).toBeNull();
      expect(openAnswer(Buffer.alloc(32, 8), 'uid-aaaaaaaaaa', sealed, now)).toBeNull();
      const altered = Buffer.from(sealed, 'base64url');
      altered[altered.length - 1] = (altered[altered.length - 1] ?? 0) ^ 1;
      expect(openAnswer(secret, 'uid-aaaaaaaaaa', altered.toString('base64url'), now)).toBeNull();
      expect(openAnswer(secret, 'uid-aaaaaaaaaa', undefined, now)).toBeNull();
      expect(openAnswer(secret, 'uid-aaaaaaaaaa', 'not sealed', now)).toBeNull();
      // a browser that kept the cookie past its Max-Age (or a copy of it) opens nothing
      const late = now + PROVIDER_ANSWER_TTL_MS;
      expect(openAnswer(secret, 'uid-aaaaaaaaaa', sealed, late - 1)?.toString()).toBe(answer.toString());
      expect(openAnswer(secret, 'uid-aaaaaaaaaa', sealed, late)).toBeNull();
    });

    it('signs the same upstream person into the same account the second time', async () => {
      const who = { email: 'twice@school.example', first: 'Twice', last: 'Seen' };
      const first = await upstreamLoop(h, 'Microsoft', who);
      const second = await upstreamLoop(h, 'Microsoft', who);
      expect(await sessionUser(h, second.browser)).toBe(await sessionUser(h, first.browser));
    });

    for (const provider of UPSTREAM_PROVIDERS) {
      it(`${provider}: auth/sig's signature and the product token carry the identity the provider asserted`, async () => {
        const who: DevIdentity = {
          email: `${provider.toLowerCase()}-learns@school.example`,
          first: 'Pro',
          last: 'Duct',
          ...(provider === 'Clever' || provider === 'ClassLink' ? { role: 'student' as const } : {}),
        };
        const { browser } = await upstreamLoop(h, provider, { ...who });
        const { signature, token } = await whatProductsLearn(browser);
        const expected = expectedIdentity(provider, who);
        expect(signature.identities).toEqual([expected]);
        expect(token.identities).toEqual([expected]);
        // how the session started: the provider it came through
        expect(token.amr).toEqual([provider]);
        if (provider === 'MicrosoftPersonal') expect(expected.tenant).toBe(MICROSOFT_PERSONAL_TENANT);
        // an untrusted provider's email never becomes the account's own
        expect(signature.email).toEqual(
          expected.emailTrusted ? who.email : expect.stringMatching(/@federated\.invalid$/),
        );
      });

      it(`${provider}: authorize → dev IdP 'Sign in' → federated → callback → session`, async () => {
        const email = `${provider.toLowerCase()}-person@school.example`;
        const { browser, end } = await upstreamLoop(h, provider, { email, first: 'Ada', last: 'Byron' });
        expect(end.url.pathname).toBe('/post-login/login-csrf-1');
        const userId = await sessionUser(h, browser);
        expect(userId).toBeDefined();
        const identity = await h.db
          .selectFrom('user_identities')
          .selectAll()
          .where('user_id', '=', userId ?? '')
          .executeTakeFirstOrThrow();
        expect(identity.provider).toBe(provider);
        expect(await auditOf(h, userId ?? '')).toEqual([
          ['sign-in', { method: 'federated', provider, account: 'created' }],
          ['session.started', { via: 'callback' }],
        ]);
        const user = await h.db
          .selectFrom('users')
          .selectAll()
          .where('id', '=', userId ?? '')
          .executeTakeFirstOrThrow();
        expect([user.first, user.last]).toEqual(['Ada', 'Byron']);
        // the session's start dates the account's last sign-in (`user list --inactive-since`)
        const started = await h.db
          .selectFrom('audit_log')
          .select('at')
          .where('user_id', '=', user.id)
          .where('event', '=', 'session.started')
          .executeTakeFirstOrThrow();
        expect(user.last_sign_in_at).toBe(started.at);
      });
    }
  });
}

for (const { dialect, skip } of DIALECTS) suite(dialect, skip);

describe('sign-in behind a proxy (TRUST_PROXY=1) that names every client', () => {
  it("the callback's code exchange (the server asking itself) is no client without X-Forwarded-For, and its token request's line carries the callback's reqId", async () => {
    const { lines, logger } = capturedLines('info');
    const h = await createTestApp('sqlite', { listen: true, env: { TRUST_PROXY: '1' }, logger });
    try {
      const user = await addPasswordUser(h, 'proxied@school.example');
      const browser = h.browser();
      browser.forwardedFor = '203.0.113.9';
      const { authorizeUrl } = await startSignIn(h, browser, 'COGNITO', user.email);
      const uid = (await browser.navigate(authorizeUrl, isSpaPage)).url.pathname.split('/').pop();
      const login = await browser.postJson(`/api/${apiPaths.cognitoLogin}`, {
        email: user.email,
        password: PASSWORD,
        uid,
      });
      const { payload } = JSON.parse(login.body) as { payload: { redirect: string } };
      expect((await browser.navigate(payload.redirect, isSpaPage)).url.pathname).toBe(
        '/post-login/login-csrf-1',
      );

      expect(lines.filter((l) => String(l.msg).startsWith('TRUST_PROXY is set'))).toEqual([]);
      const lineOf = (path: string) =>
        lines.filter((l) => (l.req as { url?: string } | undefined)?.url?.startsWith(path));
      const [callback] = lineOf('/api/auth/callback');
      const token = lineOf('/oidc/oauth2/token');
      expect(callback?.reqId).toEqual(expect.any(String));
      expect(token).toHaveLength(1);
      expect(token[0]?.reqId).toBe(callback?.reqId);
    } finally {
      await h.close();
    }
  });
});

describe("a provider that fails at its token endpoint (a real OIDC provider's double on this machine)", () => {
  let provider: FakeServer;
  let tokenStatus = 500;
  let h: ListeningTestApp;
  const { lines, logger } = capturedLines('info');
  beforeAll(async () => {
    provider = await startFakeServer((req, _body, res) => {
      const issuer = provider.url;
      if (req.url === '/.well-known/openid-configuration') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            issuer,
            authorization_endpoint: `${issuer}/authorize`,
            token_endpoint: `${issuer}/token`,
            jwks_uri: `${issuer}/jwks`,
          }),
        );
        return;
      }
      res.writeHead(tokenStatus, { 'content-type': 'application/json' });
      res.end(tokenStatus === 400 ? JSON.stringify({ error: 'invalid_grant' }) : '<html>busy</html>');
    });
    h = await createTestApp('sqlite', {
      listen: true,
      env: {
        GOOGLE_CLIENT_ID: 'google-client',
        GOOGLE_CLIENT_SECRET: 'google-secret',
        GOOGLE_ISSUER: provider.url,
      },
      logger,
    });
  });
  afterAll(async () => {
    await h?.close();
    await provider?.close();
  });

  /** A Google sign-in whose answer carries `code`, to the page it ends on. */
  async function answerWith(code: string) {
    const browser = h.browser();
    const { authorizeUrl } = await startSignIn(h, browser, 'Google');
    const atProvider = await browser.navigate(authorizeUrl, (url) => url.origin === provider.url);
    const uid = atProvider.url.searchParams.get('state') ?? '';
    lines.length = 0;
    const end = await browser.navigate(
      `/oidc/interaction/callback/Google?code=${code}&state=${uid}`,
      isSpaPage,
    );
    expect(end.url.pathname).toBe('/api/auth/callback');
    expect(end.status).toBe(400);
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
    // no line holds the provider's code, nor the portal's client secret
    for (const line of lines) expect(JSON.stringify(line)).not.toMatch(new RegExp(`${code}|google-secret`));
    return end;
  }
  const lineOf = (msg: string) => lines.find((l) => l.msg === msg);

  it('a 5xx: the log names the token endpoint and its status, the callback says unavailable, the page says try again', async () => {
    tokenStatus = 500;
    const end = await answerWith('code-of-a-5xx-exchange');
    expect(lineOf('upstream sign-in failed')).toMatchObject({
      provider: 'Google',
      step: 'token',
      status: 500,
      reqId: expect.any(String),
    });
    expect(lineOf('sign-in failed')).toMatchObject({ error: 'temporarily_unavailable' });
    expect(lineOf('authorization refused')).toBeUndefined();
    expect(end.body).toContain(escapeHtml(messages.upstreamFailed));
  });

  it('a refusal (invalid_grant): logged with its status as a refusal; the page does not say the portal broke', async () => {
    tokenStatus = 400;
    const end = await answerWith('code-of-a-refused-exchange');
    expect(lineOf('upstream sign-in failed')).toMatchObject({
      provider: 'Google',
      step: 'token',
      status: 400,
    });
    expect(lineOf('authorization refused')).toMatchObject({ error: 'access_denied' });
    expect(end.body).toContain(escapeHtml(messages.upstreamRefused));
    expect(end.body).not.toContain(escapeHtml(messages.upstreamFailed));
  });
});

describe('a provider whose discovery does not answer (GOOGLE_ISSUER on a port nothing listens on)', () => {
  let h: ListeningTestApp;
  const { lines, logger } = capturedLines('info');
  beforeAll(async () => {
    h = await createTestApp('sqlite', {
      listen: true,
      env: {
        GOOGLE_CLIENT_ID: 'google-client',
        GOOGLE_CLIENT_SECRET: 'google-secret',
        GOOGLE_ISSUER: `http://127.0.0.1:${await freePort()}`,
      },
      logger,
    });
  });
  afterAll(async () => h?.close());

  it("one warn line per click, named by the click's reqId, with the step and the provider; the page says try again", async () => {
    const browser = h.browser();
    const { authorizeUrl } = await startSignIn(h, browser, 'Google');
    lines.length = 0;
    const end = await browser.navigate(authorizeUrl, isSpaPage);
    expect(end.status).toBe(400);
    expect(end.body).toContain(escapeHtml(messages.upstreamFailed));
    const failed = lines.filter((l) => l.msg === 'upstream sign-in failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      level: 40,
      provider: 'Google',
      step: 'discovery',
      reqId: expect.any(String),
    });
    // the line the operator finds from the interaction's request (its x-request-id) is this one
    const interaction = lines.find((l) =>
      String((l.req as { url?: string } | undefined)?.url).startsWith('/oidc/interaction/'),
    );
    expect(failed[0]?.reqId).toBe(interaction?.reqId);
    expect(lines.filter((l) => Number(l.level) >= 50)).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@frontdoor/contract';
import { MICROSOFT_PERSONAL_TENANT } from './settings.ts';
import { devAccountId, devClaims } from './dev-idp.ts';
import type { Browser } from '../../test/browser.ts';
import { createTestApp, type ListeningTestApp } from '../../test/harness.ts';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const who = { email: 'ada@school.example', first: 'Ada', last: 'Byron' };

async function authorize(browser: Browser, provider: string, loginHint: string) {
  const csrf = JSON.parse((await browser.request('GET', `/api/social/get_csrf?p=${provider}`)).body) as {
    payload: { csrf: string; code_challenge: string };
  };
  const query = new URLSearchParams({
    client_id: 'frontdoor-portal',
    response_type: 'code',
    redirect_uri: `${browser.baseUrl}/api/auth/callback`,
    scope: 'openid email profile',
    state: csrf.payload.csrf,
    identity_provider: provider,
    login_hint: loginHint,
    code_challenge: csrf.payload.code_challenge,
    code_challenge_method: 'S256',
  });
  return browser.navigate(`/oidc/oauth2/authorize?${query.toString()}`, (url) =>
    url.pathname.startsWith('/post-login'),
  );
}

describe('dev identity provider claims', () => {
  it('answer in each provider’s shape', () => {
    const id = devAccountId('Microsoft', who.email);
    expect(devAccountId('Microsoft', 'ADA@school.example')).toBe(id);
    const entra = devClaims('Microsoft', id, who);
    expect(entra.tid).toMatch(GUID);
    expect(entra.tid).not.toBe(MICROSOFT_PERSONAL_TENANT);
    expect(entra.oid).toMatch(GUID);
    expect(devClaims('MicrosoftPersonal', id, who).tid).toBe(MICROSOFT_PERSONAL_TENANT);
    expect(devClaims('SignInWithApple', id, who)).toMatchObject({
      email_verified: 'true',
      is_private_email: 'false',
    });
    expect(devClaims('SignInWithApple', id, who)).not.toHaveProperty('given_name');
    expect(devClaims('Google', id, who)).toMatchObject({
      email_verified: true,
      hd: 'school.example',
      given_name: 'Ada',
    });
    expect(devClaims('Google', id, { ...who, email: 'ada@gmail.com' })).not.toHaveProperty('hd');
    expect(devClaims('ClassLink', id, who).TenantId).toEqual(expect.any(Number));
  });

  it('the roster providers give a district or tenant, a school per email domain, and the chosen role', () => {
    const id = devAccountId('Clever', who.email);
    const sameSchool = devClaims('Clever', devAccountId('Clever', 'bo@school.example'), {
      ...who,
      email: 'bo@school.example',
    });
    expect(devClaims('Clever', id, who)).toMatchObject({
      user_type: 'teacher',
      district: sameSchool.district,
      school: sameSchool.school,
    });
    expect(devClaims('Clever', id, { ...who, role: 'student' }).user_type).toBe('student');
    expect(devClaims('ClassLink', id, { ...who, role: 'student' })).toMatchObject({
      Role: 'Student',
      BuildingId: expect.any(Number),
      SourcedId: expect.stringMatching(GUID),
    });
    expect(devClaims('ClassLink', id, who).Role).toBe('Teacher');
  });
});

describe('dev identity provider page', () => {
  let h: ListeningTestApp;
  beforeAll(async () => {
    h = await createTestApp('sqlite', { listen: true });
  });
  afterAll(() => h?.close());

  it('is a labelled, escaped, mobile-ready form with a "Sign in" button, prefilled from login_hint', async () => {
    const page = await authorize(h.browser(), 'Google', '"><script>alert(1)</script>@x.example');
    expect(page.status).toBe(200);
    expect(page.url.pathname).toMatch(/^\/dev\/idp\/Google\/interaction\//);
    expect(page.body).not.toContain('<script>alert(1)</script>');
    expect(page.body).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@x.example"');
    for (const [id, label] of [
      ['email', 'Email'],
      ['first', 'First name'],
      ['last', 'Last name'],
    ]) {
      expect(page.body).toContain(`<label for="${id}">${label}</label>`);
      expect(page.body).toContain(`id="${id}"`);
    }
    expect(page.body).toContain('<button type="submit">Sign in</button>');
    expect(page.body).toMatch(/<meta name="viewport" content="width=device-width, initial-scale=1"\s*\/?>/);
    expect(page.body).toContain('<html lang="en" dir="ltr">');
  });

  it('asks the roster providers for a Role (Student or Teacher), the others not', async () => {
    for (const provider of ['Clever', 'ClassLink']) {
      const page = await authorize(h.browser(), provider, '');
      expect(page.body).toContain('<label for="role">Role</label>');
      expect(page.body).toMatch(/<select id="role" name="role">/);
      expect(page.body).toMatch(/<option value="student"\s*>\s*Student\s*<\/option>/);
      expect(page.body).toMatch(/<option value="teacher" selected>\s*Teacher\s*<\/option>/);
    }
    expect((await authorize(h.browser(), 'Google', '')).body).not.toContain('name="role"');
  });

  it('ClassLink LaunchPad: a page whose app tile opens the portal with a code and no state', async () => {
    const page = await h.browser().request('GET', '/dev/idp/ClassLink/launchpad');
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.body).toContain('<h1>ClassLink LaunchPad (development)</h1>');
    const href = /<a class="button" href="([^"]+)">Frontdoor<\/a>/.exec(page.body)?.[1] ?? '';
    const tile = new URL(href.replaceAll('&amp;', '&'), h.baseUrl);
    expect(tile.pathname).toBe('/oidc/interaction/callback/ClassLink');
    expect([...tile.searchParams.keys()]).toEqual(['code', 'response_type']);
    const again = await h.browser().request('GET', '/dev/idp/ClassLink/launchpad');
    expect(again.body).not.toContain(tile.searchParams.get('code'));
  });

  it('re-asks with an accessible error for an invalid email', async () => {
    const browser = h.browser();
    const page = await authorize(browser, 'Clever', '');
    const action = /<form method="post" action="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const again = await browser.request('POST', action, {
      body: new URLSearchParams({ email: 'nope', first: 'A', last: 'B' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(again.status).toBe(400);
    expect(again.body).toContain('role="alert"');
    expect(again.body).toContain('aria-invalid="true"');
  });

  it('Clever and ClassLink take a pupil without an email (most have none): signed in without one, the same name the same person; Google still asks for one', async () => {
    const signInWithout = async (provider: string, first: string) => {
      const browser = h.browser();
      const page = await authorize(browser, provider, '');
      expect(page.body).not.toMatch(/id="email"[^>]*required/);
      const action = /<form method="post" action="([^"]+)"/.exec(page.body)?.[1] ?? '';
      const end = await browser.navigate(
        new URL(action.replaceAll('&amp;', '&'), h.baseUrl),
        (url) => url.pathname.startsWith('/post-login'),
        'POST',
        new URLSearchParams({ email: '', first, last: 'Pupil', role: 'student' }).toString(),
      );
      expect(end.url.pathname, provider).toMatch(/^\/post-login/);
      const sig = JSON.parse((await browser.request('GET', '/api/auth/sig')).body) as {
        payload: { signature: { user: { identities: { email: string | null; subject: string }[] } } };
      };
      const [identity] = sig.payload.signature.user.identities;
      expect(identity?.email, provider).toBeNull();
      return identity?.subject;
    };
    for (const provider of ['Clever', 'ClassLink']) {
      const kim = await signInWithout(provider, 'Kim');
      expect(await signInWithout(provider, 'Kim')).toBe(kim);
      expect(await signInWithout(provider, 'Lou')).not.toBe(kim);
    }
    const browser = h.browser();
    const page = await authorize(browser, 'Google', '');
    expect(page.body).toMatch(/id="email"[^>]*required/);
    const action = /<form method="post" action="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const again = await browser.request('POST', action, {
      body: new URLSearchParams({ email: '', first: 'Kim', last: 'Pupil' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(again.status).toBe(400);
  });
});

describe('without the dev identity provider (as in production)', () => {
  let h: ListeningTestApp;
  beforeAll(async () => {
    // Microsoft is configured but its issuer cannot be reached
    h = await createTestApp('sqlite', {
      listen: true,
      env: { DEV_IDP: '0', MICROSOFT_CLIENT_ID: 'm', MICROSOFT_ISSUER: 'http://127.0.0.1:9/v2.0' },
    });
  });
  afterAll(() => h?.close());

  it('serves no /dev/idp and refuses an unconfigured identity_provider at the callback', async () => {
    const browser = h.browser();
    const discovery = await browser.request('GET', '/dev/idp/Google/.well-known/openid-configuration', {
      headers: { accept: 'application/json' },
    });
    expect(discovery.status).toBe(404);
    expect(discovery.body).not.toContain('issuer');
    const launchpad = await browser.request('GET', '/dev/idp/ClassLink/launchpad', {
      headers: { accept: 'application/json' },
    });
    expect(launchpad.status).toBe(404);
    const end = await authorize(browser, 'Google', who.email);
    expect(end.url.pathname).toBe('/api/auth/callback');
    expect(end.status).toBe(400);
    expect(end.body).toContain(messages.upstreamFailed);
  });

  it('an unreachable upstream ends at the callback page instead of an error', async () => {
    const end = await authorize(h.browser(), 'Microsoft', who.email);
    expect(end.url.pathname).toBe('/api/auth/callback');
    expect(end.status).toBe(400);
    expect(end.body).toContain(messages.upstreamFailed);
  });
});

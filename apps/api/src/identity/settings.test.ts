import { describe, expect, it } from 'vitest';
import { exportPKCS8, generateKeyPair } from 'jose';
import { UPSTREAM_PROVIDERS } from '@frontdoor/contract';
import { identitySettings, parseDevRealms, parseIdpIdentifiers } from './settings.ts';

const PUBLIC = 'http://localhost:8080';

describe('identity settings from the environment', () => {
  it('without configuration the dev identity provider serves every upstream (OIDC, roster ones as plain OAuth 2.0)', () => {
    const { upstreams } = identitySettings({}, PUBLIC, true);
    expect(upstreams.map((u) => u.provider)).toEqual(UPSTREAM_PROVIDERS);
    expect(upstreams.every((u) => u.dev && u.issuer === `${PUBLIC}/dev/idp/${u.provider}`)).toBe(true);
    expect(Object.fromEntries(upstreams.map((u) => [u.provider, u.protocol]))).toEqual({
      Google: 'oidc',
      Microsoft: 'oidc',
      MicrosoftPersonal: 'oidc',
      SignInWithApple: 'oidc',
      Clever: 'oauth2',
      ClassLink: 'oauth2',
    });
  });

  it('with the dev identity provider off, unconfigured providers are unavailable', () => {
    expect(identitySettings({}, PUBLIC, false).upstreams).toEqual([]);
  });

  it('a client id makes a provider real, with the vendor defaults', () => {
    const { upstreams } = identitySettings(
      {
        GOOGLE_CLIENT_ID: 'g',
        GOOGLE_CLIENT_SECRET: 'gs',
        MICROSOFT_CLIENT_ID: 'm',
        MICROSOFT_ALLOWED_TENANTS: 't1, t2',
        CLEVER_CLIENT_ID: 'c',
        CLASSLINK_CLIENT_ID: 'l',
        CLASSLINK_ISSUER: 'https://launchpad.classlink.com',
        OIDC_COOKIE_KEYS: 'a,b',
      },
      PUBLIC,
      false,
    );
    const by = Object.fromEntries(upstreams.map((u) => [u.provider, u]));
    expect(by.Google).toMatchObject({
      protocol: 'oidc',
      issuer: 'https://accounts.google.com',
      clientSecret: 'gs',
      dev: false,
    });
    expect(by.Microsoft).toMatchObject({
      issuer: 'https://login.microsoftonline.com/organizations/v2.0',
      allowedTenants: ['t1', 't2'],
    });
    expect(by.Clever).toMatchObject({
      protocol: 'oauth2',
      authorizationEndpoint: 'https://clever.com/oauth/authorize',
      tokenEndpoint: 'https://clever.com/oauth/tokens',
      apiUrl: 'https://api.clever.com',
      clientAuth: 'client_secret_basic',
    });
    expect(by.ClassLink).toMatchObject({ protocol: 'oidc', issuer: 'https://launchpad.classlink.com' });
    expect(identitySettings({ OIDC_COOKIE_KEYS: 'a,b' }, PUBLIC, false).cookieKeys).toEqual(['a', 'b']);
  });

  it('Sign in with Apple needs its team id, key id and private key', async () => {
    expect(() => identitySettings({ APPLE_CLIENT_ID: 'com.example.web' }, PUBLIC, false)).toThrow(
      /APPLE_TEAM_ID/,
    );
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const pem = (await exportPKCS8(privateKey)).replace(/\n/g, '\\n');
    const { upstreams } = identitySettings(
      {
        APPLE_CLIENT_ID: 'com.example.web',
        APPLE_TEAM_ID: 'TEAM',
        APPLE_KEY_ID: 'KEY',
        APPLE_PRIVATE_KEY: pem,
      },
      PUBLIC,
      false,
    );
    expect(upstreams[0]?.apple).toMatchObject({ teamId: 'TEAM', keyId: 'KEY' });
    expect(upstreams[0]?.apple?.privateKey).toContain('-----BEGIN PRIVATE KEY-----\n');
  });

  it('IDP_IDENTIFIERS maps identifiers (case-insensitive) to providers and refuses anything else', () => {
    expect([...parseIdpIdentifiers(' District.k12.us=Clever , contoso.edu = Microsoft ')]).toEqual([
      ['district.k12.us', 'Clever'],
      ['contoso.edu', 'Microsoft'],
    ]);
    expect(parseIdpIdentifiers(undefined).size).toBe(0);
    expect(() => parseIdpIdentifiers('contoso.edu=Facebook')).toThrow(/IDP_IDENTIFIERS/);
    expect(() => parseIdpIdentifiers('=Google')).toThrow(/IDP_IDENTIFIERS/);
  });

  it('DEV_REALMS maps domains (case-insensitive) to account types, with a default per outcome, dev only', () => {
    expect([...identitySettings({}, PUBLIC, true).devRealms]).toEqual([
      ['managed.example', 'Managed'],
      ['personal.example', 'Federated'],
    ]);
    expect(identitySettings({ DEV_REALMS: '' }, PUBLIC, true).devRealms.size).toBe(0);
    expect(identitySettings({ DEV_REALMS: 'x=Nope' }, PUBLIC, false).devRealms.size).toBe(0);
    expect([...parseDevRealms(' Contoso.Test=Managed ,fabrikam.test = Federated')]).toEqual([
      ['contoso.test', 'Managed'],
      ['fabrikam.test', 'Federated'],
    ]);
    expect(() => parseDevRealms('contoso.test=Sometimes')).toThrow(/DEV_REALMS/);
    expect(() => parseDevRealms('=Managed')).toThrow(/DEV_REALMS/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_JWKS_PATH, configSchema } from '@frontdoor/contract';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { mailboxMailer } from '../mail/mailer.ts';

describe('dev mailbox outside production', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    const mailer = mailboxMailer(t.db, t.clock.now);
    await mailer.send({ to: 'a@school.test', subject: 'First <b>', text: 'one & two', html: '<p>1</p>' });
    t.clock.advance(1000);
    await mailer.send({
      to: 'b@school.test',
      subject: 'Second',
      text: '<script>alert(1)</script>',
      html: '<p>2</p>',
    });
  });
  afterAll(async () => t.close());

  it('lists messages newest first as JSON, filterable by recipient', async () => {
    const all = (await t.app.inject({ url: '/dev/mailbox.json' })).json();
    expect(all.map((m: { subject: string }) => m.subject)).toEqual(['Second', 'First <b>']);
    expect(Object.keys(all[0]).sort()).toEqual(['html', 'sentAt', 'subject', 'text', 'to']);
    const one = (await t.app.inject({ url: '/dev/mailbox.json?to=A@school.test' })).json();
    expect(one).toHaveLength(1);
    expect(one[0].to).toBe('a@school.test');
  });

  it('renders an HTML page with every message escaped', async () => {
    const res = await t.app.inject({ url: '/dev/mailbox' });
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).not.toContain('<script>');
    expect(res.body.indexOf('Second')).toBeLessThan(res.body.indexOf('First &lt;b&gt;'));
  });
});

describe('production', () => {
  const production = {
    APP_ENV: 'production',
    DATA_DIR: '/var/lib/frontdoor',
    SMTP_URL: 'smtp://127.0.0.1:1',
    SECRET: 'a-production-secret-of-32-bytes-at-least-0123456789',
    PUBLIC_URL: 'https://portal.frontdoor.test',
  };
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: production });
  });
  afterAll(async () => t.close());

  it('answers 404 for the dev mailbox, also to browsers', async () => {
    expect((await t.app.inject({ url: '/dev/mailbox.json' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/dev/mailbox', headers: { accept: 'text/html' } })).statusCode).toBe(
      404,
    );
  });

  it('answers 404 for the API docs unless API_DOCS=on', async () => {
    for (const url of ['/api/docs', '/api/docs.json']) {
      const res = await t.app.inject({ url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ status: 'error', code: 'notFound' });
    }
  });

  it('serves the API docs with API_DOCS=on', async () => {
    const withDocs = await createTestApp('sqlite', { env: { ...production, API_DOCS: 'on' } });
    expect((await withDocs.app.inject({ url: '/api/docs' })).statusCode).toBe(200);
    expect((await withDocs.app.inject({ url: '/api/docs.json' })).json().openapi).toBe('3.1.0');
    await withDocs.close();
  });

  it('writes production values into config.json and sets Secure cookies', async () => {
    const res = await t.app.inject({ url: '/assets/cfg/config.json' });
    const cfg = configSchema.parse(res.json());
    expect(cfg).toMatchObject({
      env: 'production',
      apiUrl: '/api/',
      loginUrl: 'https://portal.frontdoor.test/oidc',
    });
    expect(cfg.siteUrls.root).toBe('https://www.frontdoor.education');
    expect(res.cookies.find((c) => c.name === '__Host-fd_csrf')?.secure).toBe(true);
  });
});

describe('API docs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => t.close());

  it('serves an OpenAPI 3.1 document generated from the contract schemas', async () => {
    const doc = (await t.app.inject({ url: '/api/docs.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    const signup = doc.paths['/cognito/signup'].post;
    expect(signup.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['first', 'last', 'email', 'pw', 'description']),
    );
    expect(
      doc.paths['/accessCodes/login/{code}/{sp_id}'].get.parameters.map((p: { name: string }) => p.name),
    ).toEqual(['code', 'sp_id']);
    expect(doc.paths['/gateway/createCsrfLogin'].post.security).toEqual([{ serviceProvider: [] }]);
    expect(doc.paths['/gateway/session/{sid}'].get.security).toEqual([{ serviceProvider: [] }]);
    // a page of another site is refused (the cross-site check): a documented answer
    for (const path of ['/cognito/logout', '/accessCodes/login/{code}/{sp_id}'])
      expect(Object.keys(doc.paths[path].get.responses), path).toContain('403');
    // auth/cookie is a redirect, whose failures a browser gets as a page
    const cookie = doc.paths['/auth/cookie'].get.responses;
    // 403: a browser that keeps no cookies is told so (cookiesBlocked)
    expect(Object.keys(cookie)).toEqual(['302', '400', '403', '429']);
    expect(cookie['302'].description).toMatch(/^Redirects to return_url/);
    expect(cookie['400'].description).toMatch(/portal page/);
    // the keys products verify the token with, at the site's root
    const jwks = doc.paths[PRODUCT_JWKS_PATH];
    expect(jwks.servers).toEqual([{ url: t.ctx.config.publicUrl }]);
    expect(jwks.get.responses['200']).toBeDefined();
    expect(Object.keys(doc.paths)).toHaveLength(19);
    // two calls on one path: the stored preferences beside the spec's POST, each its own operation
    const subscription = doc.paths['/hs/subscription'];
    expect(subscription.get.operationId).not.toBe(subscription.post.operationId);
    // what the server answers, status included, is what a generated client is told to expect
    const sig = doc.paths['/auth/sig'].get.responses['200'].content['application/json'].schema;
    for (const branch of sig.oneOf) {
      expect(branch.required).toEqual(expect.arrayContaining(['status', 'loggedin', 'payload']));
      expect(branch.properties.status).toMatchObject({ const: 'success' });
    }
    expect(Object.keys((await t.app.inject({ url: '/api/auth/sig' })).json()).sort()).toEqual(
      Object.keys(sig.oneOf[1].properties).sort(),
    );
  });

  it('renders a page for humans', async () => {
    const res = await t.app.inject({ url: '/api/docs' });
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('POST /api/cognito/signup');
    // an integrator reads how each call authenticates and what else it may answer
    const gateway = res.body.slice(res.body.indexOf('POST /api/gateway/createCsrfLogin'));
    expect(gateway.slice(0, gateway.indexOf('</article>'))).toMatch(
      /HTTP Basic <code>clientId:clientSecret<\/code>.*no CSRF header[\s\S]*Besides 400 and 429: 401/,
    );
  });
});

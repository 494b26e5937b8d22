import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  developmentBanner,
  developmentLinks,
  developmentWarning,
  proxyWarning,
  corsOriginsWarning,
  loadConfig,
  logLevel,
} from './config.ts';
import { createLogger } from './services/logger.ts';
import { startupFailure } from './startup-failure.ts';
import { newMessageId } from './mail/mailer.ts';

/** The least a production start needs. */
const PRODUCTION_ENV = {
  APP_ENV: 'production',
  DATA_DIR: '/var/lib/frontdoor',
  PUBLIC_URL: 'https://portal.test',
  SMTP_URL: 'smtp://mail.test',
  SECRET: 'q8Vn2zR4xY7mK1pL9sT3wB6cD0fG5hJ=',
};

describe('loadConfig', () => {
  it('has development defaults: port 8080, localhost public url, dev mailbox and dev IdP, cookies not Secure', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      env: 'development',
      production: false,
      port: 8080,
      publicUrl: 'http://localhost:8080',
      devMailbox: true,
      devIdp: true,
      cookieSecure: false,
      rateLimitMultiplier: 1,
      redisUrl: undefined,
      redisPrefix: 'frontdoor:',
    });
  });

  it('reads the environment', () => {
    const c = loadConfig({
      PORT: '9000',
      PUBLIC_URL: 'https://portal.test/',
      CORS_ORIGINS: 'https://a.test, https://b.test/',
      SMTP_URL: 'smtp://mail.test',
      RATE_LIMIT_MULTIPLIER: '50',
      REDIS_URL: 'redis://cache.test:6379/2',
      REDIS_PREFIX: 'portal-a:',
    });
    expect(c).toMatchObject({
      port: 9000,
      publicUrl: 'https://portal.test',
      corsOrigins: ['https://a.test', 'https://b.test'],
      devMailbox: false,
      cookieSecure: true,
      rateLimitMultiplier: 50,
      redisUrl: 'redis://cache.test:6379/2',
      redisPrefix: 'portal-a:',
    });
  });

  it('refuses production without SMTP_URL, with the dev IdP or mailbox, or without SECRET', () => {
    const prod = PRODUCTION_ENV;
    expect(loadConfig(prod)).toMatchObject({
      production: true,
      devIdp: false,
      devMailbox: false,
      host: '0.0.0.0',
    });
    expect(() => loadConfig({ ...prod, SMTP_URL: '' })).toThrow(/SMTP_URL is required/);
    expect(() => loadConfig({ ...prod, DEV_IDP: '1' })).toThrow(/DEV_IDP/);
    expect(() => loadConfig({ ...prod, DEV_MAILBOX: 'true' })).toThrow(/DEV_MAILBOX/);
    expect(() => loadConfig({ ...prod, SECRET: undefined })).toThrow(ConfigError);
  });

  it('refuses production on SQLite without an absolute DATA_DIR: an upgrade started in a new checkout would make a new, empty database there', () => {
    const advice =
      "set it to an absolute path outside the release's directory (e.g. DATA_DIR=/var/lib/frontdoor), where the database stays across upgrades";
    for (const DATA_DIR of [undefined, '', ' '])
      expect(() => loadConfig({ ...PRODUCTION_ENV, DATA_DIR })).toThrow(
        `configuration refused: DATA_DIR is required in production with SQLite: ${advice}; `,
      );
    const parent = mkdtempSync(path.join(tmpdir(), 'fd-config-data-'));
    try {
      // a relative DATA_DIR with no database: where a release that kept the default has its accounts
      const empty = path.relative(process.cwd(), parent);
      expect(() => loadConfig({ ...PRODUCTION_ENV, DATA_DIR: empty })).toThrow(
        new ConfigError(
          `configuration refused: DATA_DIR must be an absolute path in production, got ${empty}, which depends on the directory the server is started from: ${advice}; a release that kept the default has its accounts in data/frontdoor.sqlite of its own directory: point DATA_DIR there, or move frontdoor.sqlite* into the new DATA_DIR first`,
        ),
      );
      // one that holds the accounts (an upgrade in place, from a release that kept ./data): it is named
      writeFileSync(path.join(parent, 'frontdoor.sqlite'), '');
      expect(() => loadConfig({ ...PRODUCTION_ENV, DATA_DIR: empty })).toThrow(
        new ConfigError(
          `configuration refused: DATA_DIR must be an absolute path in production, got ${empty}, which depends on the directory the server is started from: ${advice}; the accounts are in ${path.join(parent, 'frontdoor.sqlite')}: set DATA_DIR=${parent}, or stop the server and move frontdoor.sqlite* into the new DATA_DIR first`,
        ),
      );
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
    expect(loadConfig({ ...PRODUCTION_ENV, DATA_DIR: '/var/lib/frontdoor' }).dataDir).toBe(
      '/var/lib/frontdoor',
    );
    // PostgreSQL keeps no file in DATA_DIR
    expect(
      loadConfig({ ...PRODUCTION_ENV, DATA_DIR: undefined, DATABASE_URL: 'postgres://db.test/frontdoor' }),
    ).toMatchObject({ production: true, databaseUrl: 'postgres://db.test/frontdoor' });
    // development keeps ./data of the directory it starts in (`npm ci && npm start`)
    expect(loadConfig({}).dataDir).toBe(path.resolve('data'));
    expect(loadConfig({ DATA_DIR: 'elsewhere' }).dataDir).toBe(path.resolve('elsewhere'));
  });

  it('refuses production without PUBLIC_URL: links, cookies and the issuer would name localhost', () => {
    const prod = {
      APP_ENV: 'production',
      DATA_DIR: '/var/lib/frontdoor',
      SMTP_URL: 'smtp://mail.test',
      SECRET: 'q8Vn2zR4xY7mK1pL9sT3wB6cD0fG5hJ=',
    };
    for (const PUBLIC_URL of [undefined, '', '  '])
      expect(() => loadConfig({ ...prod, PUBLIC_URL })).toThrow(/PUBLIC_URL is required in production/);
    expect(loadConfig({ ...prod, PUBLIC_URL: 'https://portal.test' })).toMatchObject({
      publicUrl: 'https://portal.test',
      cookieSecure: true,
    });
    // development keeps its default
    expect(loadConfig({ SMTP_URL: 'smtp://mail.test' }).publicUrl).toBe('http://localhost:8080');
  });

  it('refuses an http:// PUBLIC_URL in production unless its host is this machine: its cookies are Secure and HSTS is sent, so no browser could sign in', () => {
    for (const PUBLIC_URL of ['http://login.school.test', 'http://portal.test:8080', 'http://192.0.2.10'])
      expect(() => loadConfig({ ...PRODUCTION_ENV, MAIL_FROM: 'no-reply@school.test', PUBLIC_URL })).toThrow(
        new ConfigError(
          `configuration refused: PUBLIC_URL must be https:// in production, the origin of the TLS proxy in front of the portal (docs/DEPLOYMENT.md), got ${PUBLIC_URL}`,
        ),
      );
    // a production build tried on this machine (the e2e tests) keeps plain http and cookies without Secure
    for (const PUBLIC_URL of ['http://localhost:8080', 'http://127.0.0.1:8204', 'http://[::1]:8080'])
      expect(loadConfig({ ...PRODUCTION_ENV, MAIL_FROM: 'no-reply@school.test', PUBLIC_URL })).toMatchObject({
        production: true,
        cookieSecure: false,
      });
    // development on a LAN name is not refused
    expect(loadConfig({ PUBLIC_URL: 'http://portal.lan:8080' }).publicUrl).toBe('http://portal.lan:8080');
  });

  it('refuses a PUBLIC_URL that is no origin: served from the root, a portal under a path would answer its own links with 404', () => {
    for (const PUBLIC_URL of [
      'https://www.district.test/login',
      'https://portal.test/?x=1',
      'https://portal.test/#top',
      'https://admin:pw@portal.test',
      'ftp://portal.test',
    ])
      expect(() => loadConfig({ PUBLIC_URL }), PUBLIC_URL).toThrow(/PUBLIC_URL must be an origin/);
    for (const PUBLIC_URL of ['https://portal.test', 'https://portal.test/', 'http://127.0.0.1:8204'])
      expect(loadConfig({ PUBLIC_URL }).publicUrl, PUBLIC_URL).toBe(PUBLIC_URL.replace(/\/$/, ''));
    // kept as browsers write the origin, so the issuer and the host the authorization server is given agree
    expect(loadConfig({ PUBLIC_URL: 'HTTPS://Login.School.test:443/' }).publicUrl).toBe(
      'https://login.school.test',
    );
    expect(loadConfig({ PUBLIC_URL: 'https://anmeldung.schüle.test' }).publicUrl).toBe(
      'https://anmeldung.xn--schle-mva.test',
    );
  });

  it('refuses an SMTP_URL or DATABASE_URL that is not a URL of its kind, never showing its password', () => {
    for (const SMTP_URL of ['smtp://mail.test', 'smtps://user:pw@mail.test:465', 'SMTP://mail.test:587'])
      expect(loadConfig({ SMTP_URL }).smtpUrl).toBe(SMTP_URL);
    const hidden =
      " (a user and password were given and are not shown: a '#', '/', '?', '@' or '%' in them must be percent-encoded, '#' as %23)";
    for (const [SMTP_URL, shown] of [
      ['notaurl', 'notaurl'],
      ['mail.test:587', 'mail.test:587'],
      ['https://user:s3cret-pw@mail.test', `https://mail.test${hidden}`],
      ['user:s3cret-pw@mail.test:587', `mail.test:587${hidden}`],
      // a '#' in the password: the URL ends at it, so what is shown looks right and is not
      ['smtp://fd:pa#ss@mail.test:587', `smtp://mail.test:587${hidden}`],
      ['smtp://', 'smtp://'],
    ] as const) {
      const refusal = () => loadConfig({ SMTP_URL });
      expect(refusal).toThrow(
        `SMTP_URL must be an smtp:// or smtps:// URL naming the mail server, e.g. smtp://mail.example.org:587 (with a user: smtp://user:password@…), got ${shown}`,
      );
    }
    for (const DATABASE_URL of ['postgres://u:pw@db.test:5432/fd', 'postgresql://db.test/fd'])
      expect(loadConfig({ DATABASE_URL }).databaseUrl).toBe(DATABASE_URL);
    expect(() => loadConfig({ DATABASE_URL: 'notaurl' })).toThrow(
      /DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL.*, got notaurl$/,
    );
    // one slash (or three and a path): no host, and pg took `127.0.0.1/fd` for the database's name
    for (const DATABASE_URL of ['postgresql:/127.0.0.1/fd', 'postgres:fd', 'postgres:///127.0.0.1/fd'])
      expect(() => loadConfig({ DATABASE_URL })).toThrow(
        `DATABASE_URL names no database server: write it as postgres://user@host:5432/database (two slashes before the host), got ${DATABASE_URL}`,
      );
    // three slashes and a database: this machine's server (PGHOST, else localhost), as pg reads it
    expect(loadConfig({ DATABASE_URL: 'postgres:///fd' }).databaseUrl).toBe('postgres:///fd');
    // a Unix socket named by its directory has its host in the query
    expect(loadConfig({ DATABASE_URL: 'postgres:///fd?host=/var/run/postgresql' }).databaseUrl).toBe(
      'postgres:///fd?host=/var/run/postgresql',
    );
    expect(() => loadConfig({ DATABASE_URL: 'mysql://fd:s3cret-pw@db.test/fd' })).toThrow(
      `got mysql://db.test/fd${hidden}`,
    );
    expect(() => loadConfig({ REDIS_URL: ':s3cret-pw@cache.test:6379' })).toThrow(
      `got cache.test:6379${hidden}`,
    );
  });

  it('asks an smtp:// server off this machine for STARTTLS; smtps:// and this machine need not', () => {
    const requireTls = (SMTP_URL: string) => loadConfig({ SMTP_URL }).smtpRequireTls;
    expect(requireTls('smtp://user:pw@mail.test:587')).toBe(true);
    expect(requireTls('SMTP://mail.test')).toBe(true);
    expect(requireTls('smtps://mail.test:465')).toBe(false);
    expect(requireTls('smtp://127.0.0.1:1025')).toBe(false);
    expect(requireTls('smtp://localhost:1025')).toBe(false);
    expect(requireTls('smtp://127.0.0.2:1025')).toBe(false);
    // a URL that already says how it treats TLS keeps its word (nodemailer lets the URL win)
    for (const option of ['requireTLS=false', 'ignoreTLS=true', 'opportunisticTLS=true'])
      expect(requireTls(`smtp://relay.district.lan:25?${option}`), option).toBe(false);
    expect(loadConfig({}).smtpRequireTls).toBe(false);
  });

  it('reads MAIL_FROM and MAIL_REPLY_TO as one address each, refusing a name alone or a list', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://login.school.test' }).mailSender).toEqual({
      from: 'Frontdoor <no-reply@login.school.test>',
      address: 'no-reply@login.school.test',
      replyTo: undefined,
    });
    const set = { MAIL_FROM: '"District Login" <login@district.test>', MAIL_REPLY_TO: 'help@district.test' };
    expect(loadConfig(set).mailSender).toEqual({
      from: '"District Login" <login@district.test>',
      address: 'login@district.test',
      replyTo: 'help@district.test',
    });
    // nodemailer sent the first with no From header and an empty envelope sender, the second from two;
    // the refusal shows no address, which the log would mask
    for (const [MAIL_FROM, got] of [
      ['Frontdoor', 'no address'],
      ['a@district.test, b@district.test', '2 addresses'],
      ['Frontdoor <no-reply>', 'an address without its domain'],
    ])
      expect(() => loadConfig({ MAIL_FROM })).toThrow(
        `MAIL_FROM must name one address, with a name before it or without, got ${got}`,
      );
    expect(() => loadConfig({ MAIL_REPLY_TO: 'help desk' })).toThrow('MAIL_REPLY_TO must name one address');
  });

  it('never makes a sender or Message-ID of a bare IP: production asks for MAIL_FROM, development brackets it', () => {
    const production = {
      APP_ENV: 'production',
      DATA_DIR: '/var/lib/frontdoor',
      SMTP_URL: 'smtp://mail.test',
      SECRET: 'q8Vn2zR4xY7mK1pL9sT3wB6cD0fG5hJ=',
    };
    for (const PUBLIC_URL of ['http://127.0.0.1:8204', 'https://192.0.2.10', 'http://[::1]:8080']) {
      const refusal = `MAIL_FROM is required when PUBLIC_URL's host is an IP address (${new URL(PUBLIC_URL).hostname})`;
      expect(() => loadConfig({ ...production, PUBLIC_URL })).toThrow(refusal);
      expect(
        loadConfig({ ...production, PUBLIC_URL, MAIL_FROM: 'Frontdoor <no-reply@district.test>' }),
      ).toMatchObject({ mailSender: { address: 'no-reply@district.test' } });
    }
    // the refusal's example survives the log's address masking
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line) => void lines.push(line) } });
    const refused = (() => {
      try {
        loadConfig({ ...production, PUBLIC_URL: 'http://127.0.0.1:8204' });
      } catch (err) {
        return err;
      }
    })();
    logger.fatal(startupFailure(refused).fields, startupFailure(refused).message);
    expect(lines.join('')).toContain('e.g. MAIL_FROM=Frontdoor <no-reply@…> with that domain after the @');

    // development keeps working with an address literal (RFC 5321 §4.1.3), valid in a Message-ID too
    const sender = (PUBLIC_URL: string) => loadConfig({ PUBLIC_URL }).mailSender;
    expect(sender('http://127.0.0.1:8303')).toMatchObject({
      from: 'Frontdoor <no-reply@[127.0.0.1]>',
      address: 'no-reply@[127.0.0.1]',
    });
    expect(newMessageId(sender('http://127.0.0.1:8303'))).toMatch(/^<[\w-]+@\[127\.0\.0\.1\]>$/);
    expect(sender('http://[::1]:8080').address).toBe('no-reply@[IPv6:::1]');
    expect(sender('http://localhost:8080').address).toBe('no-reply@localhost');

    // an IP written as a domain is refused in any environment
    expect(() => loadConfig({ MAIL_FROM: 'no-reply@127.0.0.1' })).toThrow(
      'MAIL_FROM must name one address, with a name before it or without, got an IP address for its domain',
    );
    expect(loadConfig({ MAIL_FROM: 'no-reply@[127.0.0.1]' }).mailSender.address).toBe('no-reply@[127.0.0.1]');
  });

  it("keeps a refusal's example whole in the log, whose email masking would turn a user@host into ':email'", () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line) => void lines.push(line) } });
    for (const env of [{ SMTP_URL: 'notaurl' }, { DATABASE_URL: 'notaurl' }]) {
      const refused = (() => {
        try {
          loadConfig(env);
        } catch (err) {
          return err;
        }
      })();
      logger.fatal(startupFailure(refused).fields, startupFailure(refused).message);
    }
    const logged = lines.map((line) => String((JSON.parse(line) as { msg: string }).msg));
    expect(logged[0]).toContain('e.g. smtp://mail.example.org:587 (with a user: smtp://user:password@…)');
    expect(logged[1]).toContain(
      'e.g. postgres://db.example.org:5432/frontdoor (with a user: postgres://user:password@…)',
    );
    expect(logged.join('')).not.toContain(':email');
  });

  it('accepts APP_ENV production or development in any case and refuses anything else', () => {
    const prod = { ...PRODUCTION_ENV, APP_ENV: undefined };
    expect(loadConfig({ ...prod, APP_ENV: 'Production' })).toMatchObject({
      env: 'production',
      production: true,
    });
    expect(loadConfig({ APP_ENV: ' DEVELOPMENT ' })).toMatchObject({ env: 'development', production: false });
    for (const APP_ENV of ['staging', 'prod', 'test', 'productio'])
      expect(() => loadConfig({ ...prod, APP_ENV })).toThrow(/APP_ENV must be production or development/);
  });

  it('refuses a production SECRET shorter than 32 bytes, patterned, or the development one', () => {
    const prod = {
      APP_ENV: 'production',
      DATA_DIR: '/var/lib/frontdoor',
      PUBLIC_URL: 'https://portal.test',
      SMTP_URL: 'smtp://mail.test',
    };
    for (const SECRET of [
      's',
      's3cret',
      'x'.repeat(64),
      '0123456789'.repeat(4),
      'frontdoor-development-secret-not-for-production',
    ])
      expect(() => loadConfig({ ...prod, SECRET })).toThrow(/SECRET must/);
    expect(() => loadConfig({ ...prod, SECRET: '' })).toThrow(/SECRET is required/);
  });

  it('refuses a CRM webhook in production without a signing secret of at least 32 bytes', () => {
    const prod = {
      APP_ENV: 'production',
      DATA_DIR: '/var/lib/frontdoor',
      PUBLIC_URL: 'https://portal.test',
      SMTP_URL: 'smtp://mail.test',
      SECRET: 'q8Vn2zR4xY7mK1pL9sT3wB6cD0fG5hJ=',
      CRM_WEBHOOK_URL: 'https://crm.test/hook',
    };
    expect(() => loadConfig(prod)).toThrow(/CRM_WEBHOOK_SECRET/);
    expect(() => loadConfig({ ...prod, CRM_WEBHOOK_SECRET: 'short' })).toThrow(/CRM_WEBHOOK_SECRET/);
    const secret = 'c'.repeat(8) + '0123456789abcdef0123456789abcdef';
    expect(loadConfig({ ...prod, CRM_WEBHOOK_SECRET: secret }).crmWebhookSecret).toBe(secret);
    // development may post unsigned (a local test receiver)
    expect(loadConfig({ CRM_WEBHOOK_URL: 'http://localhost:9000/hook' }).crmWebhookSecret).toBeUndefined();
  });

  it('binds development to this machine and turns development tools on only for a local portal', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    // a development server behind a public name does not offer the dev IdP or the public mailbox
    expect(loadConfig({ PUBLIC_URL: 'https://staging.school.test' })).toMatchObject({
      devIdp: false,
      devMailbox: false,
    });
    expect(loadConfig({ PUBLIC_URL: 'https://staging.school.test', DEV_IDP: 'on' }).devIdp).toBe(true);
  });

  it('warns at start in development about the tools that are on, never in production', () => {
    expect(developmentWarning(loadConfig({}))).toMatch(
      /DEVELOPMENT MODE.*127\.0\.0\.1.*identity provider.*mailbox.*development SECRET/,
    );
    const prod = PRODUCTION_ENV;
    expect(developmentWarning(loadConfig(prod))).toBeNull();
  });

  it('warns at start when PUBLIC_URL is https behind a proxy it does not trust: every client would be one address', () => {
    const prod = PRODUCTION_ENV;
    expect(proxyWarning(loadConfig(prod))).toMatch(/TRUST_PROXY is off.*one address/);
    expect(proxyWarning(loadConfig({ ...prod, TRUST_PROXY: '1', HOST: '127.0.0.1' }))).toBeNull();
    // a plain-HTTP PUBLIC_URL may be served straight to its clients
    expect(proxyWarning(loadConfig({}))).toBeNull();
  });

  it('warns at start about http CORS_ORIGINS under an https PUBLIC_URL: an http page is another site than the portal, and never sees its session', () => {
    const https = { PUBLIC_URL: 'https://login.school.test' };
    expect(
      corsOriginsWarning(
        loadConfig({ ...https, CORS_ORIGINS: 'https://math.school.test, http://art.school.test' }),
      ),
    ).toMatch(
      /CORS_ORIGINS lists http:\/\/art\.school\.test, http under an https PUBLIC_URL.*Serve those products over https/,
    );
    expect(corsOriginsWarning(loadConfig({ ...https, CORS_ORIGINS: 'https://math.school.test' }))).toBeNull();
    expect(corsOriginsWarning(loadConfig({ CORS_ORIGINS: 'http://127.0.0.1:5173' }))).toBeNull();
  });

  it('warns at start when a hop count is trusted on every interface: a client past the proxy would choose its own address', () => {
    const prod = { ...PRODUCTION_ENV, TRUST_PROXY: '1' };
    // production listens on 0.0.0.0 by default
    expect(proxyWarning(loadConfig(prod))).toMatch(
      /HOST is 0\.0\.0\.0.*chooses its own address.*HOST=127\.0\.0\.1/,
    );
    expect(proxyWarning(loadConfig({ ...prod, HOST: '::' }))).toMatch(/HOST is ::/);
    // the proxy's own addresses: only they may speak for a client
    expect(proxyWarning(loadConfig({ ...prod, TRUST_PROXY: '10.0.0.0/24' }))).toBeNull();
    expect(proxyWarning(loadConfig({ ...prod, HOST: '127.0.0.1' }))).toBeNull();
  });

  it('prints a start banner in development: the URL, the links of the tools that are on, the warning', () => {
    const config = loadConfig({ PORT: '9090' });
    const banner = developmentBanner(config) ?? '';
    expect(banner.split('\n')).toEqual(
      expect.arrayContaining([
        '  Frontdoor is running in development mode at http://localhost:9090',
        '  Portal                  http://localhost:9090',
        '  Demo product            http://localhost:9090/dev/sp   (what a product receives after a sign-in)',
        '  Dev mailbox             http://localhost:9090/dev/mailbox   (every mail sent)',
        '  Dev identity provider   http://localhost:9090/dev/idp/<provider>   (behind every provider button)',
        '  API docs                http://localhost:9090/api/docs',
        '  Demo data               npm run seed   (demo accounts, an access code and a sign-in link)',
        '  Admin CLI               npm run admin -- --help',
        `  ${developmentWarning(config)}`,
      ]),
    );
    // a tool that is off is not offered
    const quiet = developmentLinks(loadConfig({ DEV_MAILBOX: 'off', DEV_IDP: 'off', API_DOCS: 'off' }));
    expect(quiet.map((link) => link.label)).toEqual(['Portal', 'Demo product', 'Demo data', 'Admin CLI']);
    expect(
      developmentBanner(
        loadConfig({
          APP_ENV: 'production',
          DATA_DIR: '/var/lib/frontdoor',
          PUBLIC_URL: 'https://portal.test',
          SMTP_URL: 'smtp://mail.test',
          SECRET: 'q8Vn2zR4xY7mK1pL9sT3wB6cD0fG5hJ=',
        }),
      ),
    ).toBeNull();
  });

  it('realm discovery: the dev identity provider stands in for Microsoft when it is on; a timeout of a few seconds', () => {
    expect(loadConfig({})).toMatchObject({
      realmUpstreamUrl: 'http://localhost:8080/dev/idp/realm',
      realmTimeoutMs: 3000,
    });
    expect(loadConfig({ DEV_IDP: '0' }).realmUpstreamUrl).toBe(
      'https://login.microsoftonline.com/getuserrealm.srf',
    );
    expect(
      loadConfig({ REALM_UPSTREAM_URL: 'http://127.0.0.1:9/realm', REALM_TIMEOUT_MS: '500' }),
    ).toMatchObject({ realmUpstreamUrl: 'http://127.0.0.1:9/realm', realmTimeoutMs: 500 });
    for (const bad of ['0', '-1', '1.5', 'soon'])
      expect(() => loadConfig({ REALM_TIMEOUT_MS: bad })).toThrow(/REALM_TIMEOUT_MS/);
  });

  it('PostgreSQL: 10 connections per process unless DATABASE_POOL_SIZE says otherwise', () => {
    expect(loadConfig({}).databasePoolSize).toBe(10);
    expect(loadConfig({ DATABASE_POOL_SIZE: ' 4 ' }).databasePoolSize).toBe(4);
    for (const bad of ['0', '-2', '2.5', 'many'])
      expect(() => loadConfig({ DATABASE_POOL_SIZE: bad })).toThrow(/DATABASE_POOL_SIZE/);
  });

  it('a session unused for 60 minutes ends unless SESSION_IDLE_MINUTES says otherwise, within its 8 h', () => {
    expect(loadConfig({}).sessionIdleMs).toBe(60 * 60_000);
    expect(loadConfig({ SESSION_IDLE_MINUTES: '25' }).sessionIdleMs).toBe(25 * 60_000);
    expect(loadConfig({ SESSION_IDLE_MINUTES: '2' }).sessionIdleMs).toBe(2 * 60_000);
    // its use is written once a minute: one minute would end sessions in use
    for (const bad of ['0', '1', '-5', '2.5', 'an hour', '481'])
      expect(() => loadConfig({ SESSION_IDLE_MINUTES: bad })).toThrow(/SESSION_IDLE_MINUTES/);
  });

  it('a SIGTERM drains 5 s in production (behind a load balancer), none in development; SHUTDOWN_DRAIN_SECONDS sets it', () => {
    expect(loadConfig(PRODUCTION_ENV).shutdownDrainMs).toBe(5000);
    expect(loadConfig({}).shutdownDrainMs).toBe(0);
    expect(loadConfig({ ...PRODUCTION_ENV, SHUTDOWN_DRAIN_SECONDS: '0' }).shutdownDrainMs).toBe(0);
    expect(loadConfig({ SHUTDOWN_DRAIN_SECONDS: '12.5' }).shutdownDrainMs).toBe(12_500);
    for (const bad of ['-1', 'soon', 'Infinity'])
      expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: bad })).toThrow(/SHUTDOWN_DRAIN_SECONDS/);
  });

  it('reads LOG_LEVEL apart, in any case, refusing a level pino does not have with the list of those it has', () => {
    expect(logLevel({})).toBe('info');
    expect(logLevel({ LOG_LEVEL: ' Warn ' })).toBe('warn');
    expect(logLevel({ LOG_LEVEL: 'silent' })).toBe('silent');
    expect(() => logLevel({ LOG_LEVEL: 'verbose' })).toThrow(
      new ConfigError(
        'LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got "verbose"',
      ),
    );
  });

  it('refuses a bad port, on/off word, public url, multiplier or Redis URL', () => {
    // a typo is no port, nor the digits before it (PORT=80abc listened on 80)
    for (const port of ['eighty', '80abc', '8303.9', '65536', '-1', '0x50'])
      expect(() => loadConfig({ PORT: port }), port).toThrow(ConfigError);
    expect(loadConfig({ PORT: ' 8303 ' }).port).toBe(8303);
    // an on/off setting in other words is refused, not read as off (METRICS=enabled served no metrics)
    expect(() => loadConfig({ METRICS: 'enabled', METRICS_TOKEN: 'x'.repeat(32) })).toThrow(
      /METRICS must be one of 1, true, yes, on, 0, false, no, off, got enabled/,
    );
    expect(() => loadConfig({ API_DOCS: 'disable' })).toThrow(/API_DOCS must be one of/);
    expect(loadConfig({ API_DOCS: 'Off', DEV_MAILBOX: 'NO' })).toMatchObject({
      apiDocs: false,
      devMailbox: false,
    });
    expect(() => loadConfig({ PUBLIC_URL: 'not a url' })).toThrow(ConfigError);
    expect(() => loadConfig({ RATE_LIMIT_MULTIPLIER: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ REDIS_URL: 'cache.test:6379' })).toThrow(/REDIS_URL/);
  });

  it('reads the identity settings with the rest, a bad one refused as a configuration error', () => {
    const { identity } = loadConfig({ IDP_IDENTIFIERS: 'contoso.edu=Microsoft', DEV_IDP: 'off' });
    expect([...identity.idpIdentifiers]).toEqual([['contoso.edu', 'Microsoft']]);
    expect(identity.upstreams).toEqual([]);
    expect(loadConfig({ DEV_IDP: 'on' }).identity.upstreams.every((u) => u.dev)).toBe(true);
    for (const bad of [
      { IDP_IDENTIFIERS: 'contoso.edu=Facebook' },
      { DEV_IDP: 'on', DEV_REALMS: 'contoso.test=Sometimes' },
      { APPLE_CLIENT_ID: 'com.example.web' },
    ])
      expect(() => loadConfig(bad), JSON.stringify(bad)).toThrow(ConfigError);
  });

  it('reads TRUST_PROXY as a hop count or proxy addresses, never "trust anything"', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.0.2.1',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/choose its own address/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.internal' })).toThrow(/TRUST_PROXY/);
  });

  it('reads the abuse limits, refusing values that are not positive', () => {
    const { limits } = loadConfig({ LIMIT_FLOOD_PER_MINUTE: '12000', LIMIT_ALLOWLIST: '198.51.100.0/24' });
    expect(limits).toMatchObject({
      floodRequestsPerMinute: 12000,
      addressFailuresPerHour: 100,
      allowlist: ['198.51.100.0/24'],
    });
    expect(() => loadConfig({ LIMIT_ADDRESS_FAILURES_PER_HOUR: '0' })).toThrow(
      /LIMIT_ADDRESS_FAILURES_PER_HOUR/,
    );
    expect(() => loadConfig({ LIMIT_ALLOWLIST: 'school.example' })).toThrow(/LIMIT_ALLOWLIST/);
    expect(() => loadConfig({ ACCESS_CODE_DAILY_RISK: '1.5' })).toThrow(/ACCESS_CODE_DAILY_RISK/);
    // a code must expire: past a year, every code made would be refused (createAccessCode)
    expect(loadConfig({ ACCESS_CODE_TTL_DAYS: '365' }).limits.accessCodeTtlDays).toBe(365);
    expect(() => loadConfig({ ACCESS_CODE_TTL_DAYS: '366' })).toThrow(
      'ACCESS_CODE_TTL_DAYS must be at most 365 (a code must expire), got 366',
    );
  });
});

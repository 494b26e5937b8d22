import { BlockList, isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import addressparser from 'nodemailer/lib/addressparser';
import pino from 'pino';
import {
  ABUSE_LIMITS,
  API_PREFIX,
  DEV_SP_PATH,
  SESSION_SEEN_REFRESH_MS,
  SESSION_TTL_MS,
} from '@frontdoor/contract';
import { DEV_REALM_PATH, identitySettings, type IdentitySettings } from './identity/settings.ts';
import { ENV_VARIABLES, setting, type EnvName } from './env-variables.ts';
import { SQLITE_FILE } from './db/sqlite-file.ts';

/** Raw environment, as read once at start by loadConfig. */
export type Env = Record<string, string | undefined>;

export interface AppConfig {
  /** APP_ENV: exactly `production` or `development` (any case); anything else refuses to start. */
  env: AppEnv;
  production: boolean;
  port: number;
  host: string;
  /** SESSION_IDLE_MINUTES in ms: a session unused this long ends (services/sessions.ts liveSession). */
  sessionIdleMs: number;
  /** SHUTDOWN_DRAIN_SECONDS in ms: how long a SIGTERM'd server goes on answering, marked not ready (main.ts). */
  shutdownDrainMs: number;
  /**
   * TRUST_PROXY: the number of proxies in front (hops of X-Forwarded-For to trust) or their
   * addresses; false = the socket's address. Never "trust anything": a client could pick its address.
   */
  trustProxy: false | number | string[];
  /** Origin the browser sees, without a trailing slash. */
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** DATABASE_POOL_SIZE: PostgreSQL connections of this process. */
  databasePoolSize: number;
  smtpUrl: string | undefined;
  /**
   * An smtp:// server off this machine must offer STARTTLS (the password and the codes never cross a
   * network in clear); a relay without TLS opts out in its URL with `?requireTLS=false`.
   */
  smtpRequireTls: boolean;
  mailSender: MailSender;
  /** Origins of products' pages, which may read auth/sig and sign out with the person's cookies (PRODUCT_CALLS); empty = none. */
  corsOrigins: string[];
  translationKey: string | null;
  translationScriptUrl: string | null;
  sentryDsn: string | null;
  crmWebhookUrl: string | undefined;
  /** CRM_WEBHOOK_SECRET: key of each webhook call's HMAC-SHA256 signature; required with a webhook in production. */
  crmWebhookSecret: string | undefined;
  /**
   * REALM_UPSTREAM_URL: Microsoft realm discovery (getuserrealm.srf's shape). Default Microsoft's; with
   * the dev identity provider on, its local stand-in (DEV_REALMS), so the work/school modal works offline.
   */
  realmUpstreamUrl: string;
  /** REALM_TIMEOUT_MS: how long realm discovery waits before it answers Unknown (the work/school provider). */
  realmTimeoutMs: number;
  /** Loosens the traffic limits (flood guard, service-provider calls) for tests; 1 in normal operation. */
  rateLimitMultiplier: number;
  /** The abuse limits (docs/SECURITY.md); defaults from the contract's ABUSE_LIMITS. */
  limits: LimitSettings;
  /** REDIS_URL: limit counters shared by every instance; unset = counters per process. */
  redisUrl: string | undefined;
  /** Prefix of every Redis key, so several portals (or test runs) can share one Redis. */
  redisPrefix: string;
  /** Server secret: pepper of stored codes and key of the product token (auth/sig). */
  secret: string;
  /** Cookies are Secure unless the portal runs on http://localhost. */
  cookieSecure: boolean;
  /** Built SPA served by this process. */
  webDist: string;
  /** Non-production only: the bundled development identity provider at /dev/idp/<provider>. */
  devIdp: boolean;
  /** Non-production without SMTP_URL: mails go to the database mailbox shown at /dev/mailbox. */
  devMailbox: boolean;
  /** API_DOCS: /api/docs and /api/docs.json; on outside production, off in production unless API_DOCS=on. */
  apiDocs: boolean;
  /** METRICS=on: the bearer token (METRICS_TOKEN) GET /metrics requires; null = /metrics is off. */
  metricsToken: string | null;
  siteUrls: { root: string; contactUs: string; privacy: string; terms: string; help: string };
  providerName: string;
  /** The identity side: upstream providers (<PREFIX>_*), OIDC_COOKIE_KEYS, IDP_IDENTIFIERS, DEV_REALMS. */
  identity: IdentitySettings;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_WEB_DIST = path.resolve(here, '../../web/dist');
const DEV_SECRET = 'frontdoor-development-secret-not-for-production';
const APP_ENVS = ['production', 'development'] as const;
export type AppEnv = (typeof APP_ENVS)[number];
/** A production SECRET is at least 32 bytes (`openssl rand -base64 32`) and not a repeated pattern. */
const MIN_SECRET_BYTES = 32;
const MIN_SECRET_DISTINCT_CHARS = 12;
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
const MICROSOFT_REALM_URL = 'https://login.microsoftonline.com/getuserrealm.srf';

const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const ON = ['1', 'true', 'yes', 'on'];
const OFF = ['0', 'false', 'no', 'off'];

/** An on/off setting, undefined when unset; a word of neither kind (METRICS=enabled) is refused, not read as off. */
function flag(env: Env, name: EnvName, problems: string[]): boolean | undefined {
  const value = env[name]?.trim().toLowerCase();
  if (!value) return undefined;
  if (ON.includes(value)) return true;
  if (!OFF.includes(value))
    problems.push(`${name} must be one of ${[...ON, ...OFF].join(', ')}, got ${env[name]}`);
  return false;
}

function siteUrls(root: string): AppConfig['siteUrls'] {
  return {
    root,
    contactUs: `${root}/contact-us`,
    privacy: `${root}/privacy`,
    terms: `${root}/terms`,
    help: `${root}/help`,
  };
}

export interface LimitSettings {
  addressFailuresPerHour: number;
  floodRequestsPerMinute: number;
  signInStepsPerMinute: number;
  mailSendsPerAccountPerHour: number;
  mailSendsPerAddressPerHour: number;
  serviceProviderCallsPerMinute: number;
  accessCodeDailyRisk: number;
  accessCodeTtlDays: number;
  /** LIMIT_ALLOWLIST: networks (addresses or CIDRs) exempt from the per-address limits. */
  allowlist: string[];
  passwordHashConcurrency: number;
  passwordHashQueue: number;
}

export class ConfigError extends Error {}

/** A URL setting as a refusal may show it: everything up to its last `@` (user and password) left out. */
function withoutCredentials(value: string): string {
  const shown = value.replace(/^([a-z][a-z\d+.-]*:\/\/)?.*@/is, '$1');
  // the credentials hidden may be what is wrong, and the rest may read as valid
  return shown === value
    ? shown
    : `${shown} (a user and password were given and are not shown: a '#', '/', '?', '@' or '%' in them must be percent-encoded, '#' as %23)`;
}

/** `value` as a URL with one of `schemes` (`smtp:`), or null. */
function urlOf(value: string, schemes: string[]): URL | null {
  const url = URL.parse(value);
  return url && schemes.includes(url.protocol) ? url : null;
}

const LOG_LEVELS = [...Object.keys(pino.levels.values), 'silent'];

/**
 * LOG_LEVEL, read apart from loadConfig because the logger that reports a refused configuration
 * is made first; pino itself would throw on an unknown level, as a stack trace.
 */
export function logLevel(env: Env): string {
  const level = setting(env, 'LOG_LEVEL').toLowerCase();
  if (!LOG_LEVELS.includes(level))
    throw new ConfigError(
      `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(env.LOG_LEVEL)}`,
    );
  return level;
}

/** APP_ENV, fail-closed: a typo or `staging` must not start with development tools and secrets. */
function parseAppEnv(value: string | undefined): AppEnv {
  const v = (value?.trim() || ENV_VARIABLES.APP_ENV.default).toLowerCase();
  const env = APP_ENVS.find((e) => e === v);
  if (!env)
    throw new ConfigError(
      `APP_ENV must be production or development, got ${JSON.stringify(value)} (a staging server is production with its own SECRET, SMTP_URL and identity providers)`,
    );
  return env;
}

/** Why a production SECRET is refused, or null: a short or patterned one can be guessed offline. */
function weakSecretReason(secret: string | undefined): string | null {
  if (!secret) return 'SECRET is required in production';
  if (secret === DEV_SECRET) return 'SECRET must not be the public development secret';
  if (Buffer.byteLength(secret) < MIN_SECRET_BYTES || new Set(secret).size < MIN_SECRET_DISTINCT_CHARS)
    return `SECRET must be at least ${MIN_SECRET_BYTES} random bytes (e.g. openssl rand -base64 32)`;
  return null;
}

/** Parses an address or CIDR (10.0.0.0/8, 2001:db8::/32) into `list`; false when it is neither. */
export function addNetwork(list: BlockList, entry: string): boolean {
  const [address = '', bits] = entry.split('/');
  const family = isIP(address);
  if (!family) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (bits === undefined) {
    list.addAddress(address, type);
    return true;
  }
  const prefix = Number(bits);
  if (!/^\d+$/.test(bits) || prefix > (family === 4 ? 32 : 128)) return false;
  list.addSubnet(address, prefix, type);
  return true;
}

function parseTrustProxy(value: string | undefined, problems: string[]): AppConfig['trustProxy'] {
  const v = value?.trim() ?? '';
  if (v === '' || ['0', 'false', 'no', 'off'].includes(v.toLowerCase())) return false;
  if (/^\d+$/.test(v)) return Number(v);
  const entries = list(v);
  const bad = entries.filter((e) => !addNetwork(new BlockList(), e));
  if (bad.length)
    problems.push(
      `TRUST_PROXY must be the number of proxies in front (e.g. 1) or their addresses/CIDRs, got ${bad.join(', ')}` +
        (['true', 'yes', 'on'].includes(v.toLowerCase())
          ? ' (trusting any client would let it choose its own address)'
          : ''),
    );
  return entries;
}

function limitSettings(env: Env, problems: string[]): LimitSettings {
  const number = (name: EnvName, integer = true, fallback = Number(setting({}, name))): number => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const n = Number(raw);
    if (!(n > 0) || (integer && !Number.isInteger(n))) {
      problems.push(`${name} must be a positive ${integer ? 'integer' : 'number'}, got ${raw}`);
      return fallback;
    }
    return n;
  };
  const allowlist = list(env.LIMIT_ALLOWLIST);
  const bad = allowlist.filter((e) => !addNetwork(new BlockList(), e));
  if (bad.length) problems.push(`LIMIT_ALLOWLIST must list addresses or CIDRs, got ${bad.join(', ')}`);
  const risk = number('ACCESS_CODE_DAILY_RISK', false);
  if (risk >= 1) problems.push(`ACCESS_CODE_DAILY_RISK must be below 1, got ${risk}`);
  const accessCodeTtlDays = number('ACCESS_CODE_TTL_DAYS');
  if (accessCodeTtlDays > ABUSE_LIMITS.accessCodeMaxTtlDays)
    problems.push(
      `ACCESS_CODE_TTL_DAYS must be at most ${ABUSE_LIMITS.accessCodeMaxTtlDays} (a code must expire), got ${accessCodeTtlDays}`,
    );
  const cores = availableParallelism();
  const concurrency = number('PASSWORD_HASH_CONCURRENCY', true, cores);
  return {
    addressFailuresPerHour: number('LIMIT_ADDRESS_FAILURES_PER_HOUR'),
    floodRequestsPerMinute: number('LIMIT_FLOOD_PER_MINUTE'),
    signInStepsPerMinute: number('LIMIT_SIGN_IN_STEPS_PER_MINUTE'),
    mailSendsPerAccountPerHour: number('LIMIT_MAIL_PER_ACCOUNT_PER_HOUR'),
    mailSendsPerAddressPerHour: number('LIMIT_MAIL_PER_ADDRESS_PER_HOUR'),
    serviceProviderCallsPerMinute: number('LIMIT_SP_CALLS_PER_MINUTE'),
    accessCodeDailyRisk: risk,
    accessCodeTtlDays,
    allowlist,
    passwordHashConcurrency: concurrency,
    passwordHashQueue: number(
      'PASSWORD_HASH_QUEUE',
      true,
      ABUSE_LIMITS.passwordHashQueuePerCore * concurrency,
    ),
  };
}

/** The warning a development server prints at start: which tools are on that production never has. */
export function developmentWarning(config: AppConfig): string | null {
  if (config.production) return null;
  const tools = [
    config.devIdp &&
      `the development identity provider at ${config.publicUrl}/dev/idp/<provider>, behind every provider button (it vouches for any email typed)`,
    config.devMailbox &&
      `the development mailbox at ${config.publicUrl}/dev/mailbox (every mail, readable by anyone who reaches it)`,
    config.secret === DEV_SECRET && 'the public development SECRET',
  ].filter(Boolean);
  return `DEVELOPMENT MODE (APP_ENV=development), listening on ${config.host}: ${
    tools.length ? `development tools are on: ${tools.join('; ')}` : 'no development tools are on'
  }. Never expose this server; run production with APP_ENV=production.`;
}

/** HOST values that listen on every interface: anyone on the network may connect straight to the server. */
const ALL_INTERFACES = ['0.0.0.0', '::', '[::]'];

/**
 * The start's warning about TRUST_PROXY. PUBLIC_URL https with TRUST_PROXY off: the server speaks plain
 * HTTP, so a TLS proxy stands in front, and without trusting it every client is the proxy's one
 * address. A number of hops on every interface: a client that connects past the proxy writes its own
 * X-Forwarded-For and chooses the address the limits and the logs see.
 */
export function proxyWarning(config: AppConfig): string | null {
  if (typeof config.trustProxy === 'number' && ALL_INTERFACES.includes(config.host))
    return `TRUST_PROXY is a number of proxies (${config.trustProxy}) and HOST is ${config.host}: a client that connects to this port past the proxy chooses its own address (X-Forwarded-For) for the abuse limits and the logs. Set HOST=127.0.0.1 when the proxy runs on this machine, or TRUST_PROXY to the proxies' addresses (e.g. 10.0.0.0/24).`;
  if (config.trustProxy !== false || !config.publicUrl.startsWith('https://')) return null;
  return "PUBLIC_URL is https, but TRUST_PROXY is off: behind the TLS proxy every client counts as the proxy's one address for the abuse limits (a whole district as one school). Set TRUST_PROXY to the number of proxies in front (usually 1).";
}

/**
 * The start's warning about http CORS_ORIGINS under an https PUBLIC_URL: an http page is another site
 * than the portal, which never carries the session cookie (SameSite=Lax), so listing it lets its
 * calls in but never shows it a session.
 */
export function corsOriginsWarning(config: Pick<AppConfig, 'publicUrl' | 'corsOrigins'>): string | null {
  if (!config.publicUrl.startsWith('https://')) return null;
  const plain = config.corsOrigins.filter((origin) => origin.startsWith('http://'));
  if (!plain.length) return null;
  return `CORS_ORIGINS lists ${plain.join(', ')}, http under an https PUBLIC_URL: another site, whose pages never carry the session cookie, so they cannot read auth/sig. Serve those products over https (docs/identity.md, "Integrating a product").`;
}

export interface DevelopmentLink {
  label: string;
  /** A URL to open or a command to run. */
  target: string;
  note?: string;
}

/** Where a newcomer goes on a development server, each only while its tool is on (the start banner). */
export function developmentLinks(config: AppConfig): DevelopmentLink[] {
  const url = config.publicUrl;
  const links: (DevelopmentLink | false)[] = [
    { label: 'Portal', target: url },
    {
      label: 'Demo product',
      target: `${url}${DEV_SP_PATH}`,
      note: 'what a product receives after a sign-in',
    },
    config.devMailbox && { label: 'Dev mailbox', target: `${url}/dev/mailbox`, note: 'every mail sent' },
    config.devIdp && {
      label: 'Dev identity provider',
      target: `${url}/dev/idp/<provider>`,
      note: 'behind every provider button',
    },
    config.apiDocs && { label: 'API docs', target: `${url}${API_PREFIX}docs` },
    { label: 'Demo data', target: 'npm run seed', note: 'demo accounts, an access code and a sign-in link' },
    { label: 'Admin CLI', target: 'npm run admin -- --help' },
  ];
  return links.filter((link) => link !== false);
}

/**
 * The start banner of a development server, plain lines for a person at a terminal (main.ts): the
 * URL, the links, and the warning. Null in production.
 */
export function developmentBanner(config: AppConfig): string | null {
  const warning = developmentWarning(config);
  if (!warning) return null;
  const links = developmentLinks(config);
  const width = Math.max(...links.map((link) => link.label.length)) + 3;
  return [
    '',
    `  Frontdoor is running in development mode at ${config.publicUrl}`,
    '',
    ...links.map(
      ({ label, target, note }) => `  ${label.padEnd(width)}${target}${note ? `   (${note})` : ''}`,
    ),
    '',
    `  ${warning}`,
    '',
  ].join('\n');
}

/** The URL options by which an SMTP_URL already says how it treats TLS (nodemailer's, which win). */
const SMTP_TLS_OPTIONS = ['requireTLS', 'ignoreTLS', 'opportunisticTLS', 'secure'];

/**
 * Whether an SMTP_URL must get STARTTLS: an smtp:// server off this machine whose URL says nothing of
 * TLS (a relay set up with `?ignoreTLS=true` before this rule keeps working).
 */
function requiresStartTls(url: URL | null): boolean {
  if (url?.protocol !== 'smtp:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopback = host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
  return !loopback && !SMTP_TLS_OPTIONS.some((option) => url.searchParams.has(option));
}

/** Who the mails are from: MAIL_FROM as the From header and its address (the envelope sender, Message-IDs). */
export interface MailSender {
  from: string;
  address: string;
  /** MAIL_REPLY_TO: where a reader's answer goes (a school's help desk); unset, to nobody. */
  replyTo: string | undefined;
}

/**
 * A mail setting naming exactly one address, or a refusal: nodemailer would send `Frontdoor` with no
 * From at all, and `a@x, b@y` with two. The refusal says what was found rather than showing the value,
 * since the log masks every address in a text.
 */
function oneMailAddress(name: string, value: string, problems: string[]): string {
  const found = addressparser(value, { flatten: true }).filter((entry) => entry.address);
  const address = found[0]?.address ?? '';
  // an IP is no domain: an address names it in brackets (RFC 5321 §4.1.3), no-reply@[192.0.2.1]
  const bareIp = isIP(address.slice(address.lastIndexOf('@') + 1)) !== 0;
  // a sender on this machine (no-reply@localhost) is a development one, not a mistake
  if (found.length === 1 && !bareIp && /^[^@\s]+@[^@\s]+$/.test(address)) return address;
  const got =
    found.length > 1
      ? `${found.length} addresses`
      : found.length === 0
        ? 'no address'
        : bareIp
          ? 'an IP address for its domain (a domain name, or the IP in brackets: @[192.0.2.1])'
          : 'an address without its domain';
  problems.push(`${name} must name one address, with a name before it or without, got ${got}`);
  return '';
}

/**
 * The sender when MAIL_FROM is unset: no-reply at the PUBLIC_URL host. An IP host names no domain a
 * receiver could check (SPF, DKIM), so production asks for MAIL_FROM; development writes the IP as
 * an address literal (no-reply@[127.0.0.1]), which is a valid address and Message-ID domain.
 */
function defaultMailFrom(host: string, production: boolean, problems: string[]): string {
  const family = isIP(host.replace(/^\[|\]$/g, ''));
  if (family === 0) return `Frontdoor <no-reply@${host}>`;
  if (production)
    problems.push(
      `MAIL_FROM is required when PUBLIC_URL's host is an IP address (${host}): a mail's sender needs your mail domain, e.g. MAIL_FROM=Frontdoor <no-reply@…> with that domain after the @`,
    );
  const literal = family === 6 ? `[IPv6:${host.slice(1, -1)}]` : `[${host}]`;
  return `Frontdoor <no-reply@${literal}>`;
}

/**
 * Why a production start on SQLite must not use DATA_DIR as set: the default ./data, or any relative
 * path, is the directory the server starts in, and an upgrade started from a new checkout would make a
 * new, empty database there (no account, new signing keys) without a word.
 */
function productionDataDirProblem(dataDir: string | undefined): string | undefined {
  if (dataDir && path.isAbsolute(dataDir)) return undefined;
  // a release that kept the default has its accounts there: the operator must carry them over, not
  // start again on a new, empty database where the message's example points
  const kept = path.resolve(dataDir || setting({}, 'DATA_DIR'), SQLITE_FILE);
  const data = existsSync(kept)
    ? `; the accounts are in ${kept}: set DATA_DIR=${path.dirname(kept)}, or stop the server and move ${SQLITE_FILE}* into the new DATA_DIR first`
    : `; a release that kept the default has its accounts in data/${SQLITE_FILE} of its own directory: point DATA_DIR there, or move ${SQLITE_FILE}* into the new DATA_DIR first`;
  const advice = `set it to an absolute path outside the release's directory (e.g. DATA_DIR=/var/lib/frontdoor), where the database stays across upgrades${data}`;
  if (!dataDir) return `DATA_DIR is required in production with SQLite: ${advice}`;
  return `DATA_DIR must be an absolute path in production, got ${dataDir}, which depends on the directory the server is started from: ${advice}`;
}

/** Reads the environment into a typed config; throws ConfigError on a setting production must not run with. */
export function loadConfig(env: Env = process.env): AppConfig {
  const appEnv = parseAppEnv(env.APP_ENV);
  const production = appEnv === 'production';
  const rawPort = setting(env, 'PORT').trim();
  // digits only: parseInt would read PORT=80abc as 80
  const port = /^\d{1,5}$/.test(rawPort) ? Number(rawPort) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) throw new ConfigError(`PORT is not a port number: ${env.PORT}`);
  const typedUrl = (env.PUBLIC_URL?.trim() || `http://localhost:${port}`).replace(/\/+$/, '');
  let publicOrigin: URL;
  try {
    publicOrigin = new URL(typedUrl);
  } catch {
    throw new ConfigError(`PUBLIC_URL is not a URL: ${typedUrl}`);
  }
  // pages, static files, the API and /oidc are served from the root: under a path every link would 404
  if (!['http:', 'https:'].includes(publicOrigin.protocol) || publicOrigin.origin + '/' !== publicOrigin.href)
    throw new ConfigError(
      `PUBLIC_URL must be an origin, the scheme and host people type (https://login.example.org), with no path, query or user: ${typedUrl}. Frontdoor is served from the root of its own host name; a proxy that serves it under a path is not supported.`,
    );
  // as browsers write it (lower case, no default port, an international name in ASCII): the issuer,
  // the product token's iss and the authorization server's pinned host (pinPublicOrigin) agree
  const publicUrl = publicOrigin.origin;
  const smtpUrl = env.SMTP_URL?.trim() || undefined;
  // development tools come on by themselves only for a portal reached on this machine
  const local = publicOrigin.protocol === 'http:' && LOOPBACK_HOSTS.includes(publicOrigin.hostname);
  const problems: string[] = [];
  const devIdp = flag(env, 'DEV_IDP', problems) ?? (!production && local);
  const devMailbox = flag(env, 'DEV_MAILBOX', problems) ?? (!production && local && !smtpUrl);
  const multiplier = Number(setting(env, 'RATE_LIMIT_MULTIPLIER'));
  const redisUrl = env.REDIS_URL?.trim() || undefined;
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  const metrics = flag(env, 'METRICS', problems) ?? false;
  const metricsToken = env.METRICS_TOKEN?.trim() ?? '';
  const apiDocs = flag(env, 'API_DOCS', problems) ?? !production;

  const trustProxy = parseTrustProxy(env.TRUST_PROXY, problems);
  const limits = limitSettings(env, problems);
  if (production) {
    // without it links, cookies and the issuer would name http://localhost
    if (!env.PUBLIC_URL?.trim())
      problems.push(
        'PUBLIC_URL is required in production: the https:// origin people reach the portal at (e.g. https://login.example.org), which mail links, Secure cookies and the issuer are made from',
      );
    // its cookies are Secure (__Host-) off this machine, and HSTS is sent: over http no browser signs in
    else if (publicOrigin.protocol === 'http:' && !local)
      problems.push(
        `PUBLIC_URL must be https:// in production, the origin of the TLS proxy in front of the portal (docs/DEPLOYMENT.md), got ${publicUrl}`,
      );
    if (!smtpUrl) problems.push('SMTP_URL is required in production (mail cannot go to the dev mailbox)');
    if (devIdp) problems.push('DEV_IDP must be off in production');
    if (devMailbox) problems.push('DEV_MAILBOX must be off in production');
    const weak = weakSecretReason(env.SECRET);
    if (weak) problems.push(weak);
    const dataDirProblem = databaseUrl ? undefined : productionDataDirProblem(env.DATA_DIR?.trim());
    if (dataDirProblem) problems.push(dataDirProblem);
    // the CRM must be able to tell the portal's calls from anyone's
    if (
      env.CRM_WEBHOOK_URL?.trim() &&
      Buffer.byteLength(env.CRM_WEBHOOK_SECRET?.trim() ?? '') < MIN_SECRET_BYTES
    )
      problems.push(
        `CRM_WEBHOOK_SECRET of at least ${MIN_SECRET_BYTES} bytes is required with CRM_WEBHOOK_URL in production (e.g. openssl rand -hex 32)`,
      );
  }
  const poolSize = Number(setting(env, 'DATABASE_POOL_SIZE'));
  if (!Number.isInteger(poolSize) || poolSize < 1)
    problems.push(
      `DATABASE_POOL_SIZE must be a whole number of connections (1 or more), got ${env.DATABASE_POOL_SIZE}`,
    );
  const idleMinutes = Number(setting(env, 'SESSION_IDLE_MINUTES'));
  // a session's use is written at most every SESSION_SEEN_REFRESH_MS: a shorter idle end would end
  // sessions in use
  const fewestIdleMinutes = (2 * SESSION_SEEN_REFRESH_MS) / 60_000;
  if (
    !Number.isInteger(idleMinutes) ||
    idleMinutes < fewestIdleMinutes ||
    idleMinutes * 60_000 > SESSION_TTL_MS
  )
    problems.push(
      `SESSION_IDLE_MINUTES must be a whole number of minutes from ${fewestIdleMinutes} to ${SESSION_TTL_MS / 60_000} (a session's lifetime), got ${env.SESSION_IDLE_MINUTES}`,
    );
  const drainSeconds = Number(env.SHUTDOWN_DRAIN_SECONDS?.trim() || (production ? 5 : 0));
  if (!Number.isFinite(drainSeconds) || drainSeconds < 0)
    problems.push(
      `SHUTDOWN_DRAIN_SECONDS must be a number of seconds (0 or more), got ${env.SHUTDOWN_DRAIN_SECONDS}`,
    );
  const realmTimeoutMs = Number(setting(env, 'REALM_TIMEOUT_MS'));
  if (!Number.isInteger(realmTimeoutMs) || realmTimeoutMs <= 0)
    problems.push(`REALM_TIMEOUT_MS must be a positive integer (milliseconds), got ${env.REALM_TIMEOUT_MS}`);
  // /metrics shows traffic, sign-in failures and queue depths: never to anyone who asks
  if (metrics && Buffer.byteLength(metricsToken) < (production ? MIN_SECRET_BYTES : 1))
    problems.push(
      `METRICS_TOKEN${production ? ` of at least ${MIN_SECRET_BYTES} bytes` : ''} is required with METRICS=on (e.g. openssl rand -hex 32)`,
    );
  if (!(multiplier > 0))
    problems.push(`RATE_LIMIT_MULTIPLIER must be a positive number, got ${env.RATE_LIMIT_MULTIPLIER}`);
  if (redisUrl && !/^rediss?:\/\/[^\s]+$/.test(redisUrl))
    problems.push(`REDIS_URL must be a redis:// or rediss:// URL, got ${withoutCredentials(redisUrl)}`);
  // nodemailer would take anything else for its default, a mail server on this machine, at the first mail
  if (smtpUrl && !urlOf(smtpUrl, ['smtp:', 'smtps:'])?.hostname)
    problems.push(
      `SMTP_URL must be an smtp:// or smtps:// URL naming the mail server, e.g. smtp://mail.example.org:587 (with a user: smtp://user:password@…), got ${withoutCredentials(smtpUrl)}`,
    );
  const mailFrom = env.MAIL_FROM?.trim() || defaultMailFrom(publicOrigin.hostname, production, problems);
  const mailReplyTo = env.MAIL_REPLY_TO?.trim() || undefined;
  const mailSender: MailSender = {
    from: mailFrom,
    address: oneMailAddress('MAIL_FROM', mailFrom, problems),
    replyTo: mailReplyTo,
  };
  if (mailReplyTo) oneMailAddress('MAIL_REPLY_TO', mailReplyTo, problems);
  const smtpServer = smtpUrl ? URL.parse(smtpUrl) : null;
  // pg would take anything else for a host name (`notaurl` becomes "getaddrinfo ENOTFOUND base")
  if (databaseUrl) {
    const server = urlOf(databaseUrl, ['postgres:', 'postgresql:']);
    if (!server)
      problems.push(
        `DATABASE_URL must be a postgres:// or postgresql:// URL, e.g. postgres://db.example.org:5432/frontdoor (with a user: postgres://user:password@…), got ${withoutCredentials(databaseUrl)}`,
      );
    // pg reads a URL with one slash (postgresql:/db.test/fd) as the database `db.test/fd` on this
    // machine, and the start failed later as a wrong user, password or database name; three slashes
    // (postgres:///fd) are the usual way to name this machine's server (PGHOST, else localhost)
    else if (
      !server.hostname &&
      !server.searchParams.has('host') &&
      !/^postgres(?:ql)?:\/\/\/[^/]+$/i.test(databaseUrl.split('?')[0] ?? '')
    )
      problems.push(
        `DATABASE_URL names no database server: write it as postgres://user@host:5432/database (two slashes before the host), got ${withoutCredentials(databaseUrl)}`,
      );
  }
  if (problems.length) throw new ConfigError(`configuration refused: ${problems.join('; ')}`);
  const identity = identitySettings(env, publicUrl, devIdp);

  // development has no site of its own: a sign-in without a product's link (and the logo) lands on
  // the demo product, which shows what a product receives
  const defaultSite = production ? 'https://www.frontdoor.education' : `${publicUrl}${DEV_SP_PATH}`;
  return {
    env: appEnv,
    production,
    port,
    // development serves the dev mailbox and IdP: only this machine may reach it unless HOST says otherwise
    host: env.HOST?.trim() || (production ? '0.0.0.0' : '127.0.0.1'),
    shutdownDrainMs: Math.round(drainSeconds * 1000),
    sessionIdleMs: idleMinutes * 60_000,
    trustProxy,
    publicUrl,
    dataDir: path.resolve(setting(env, 'DATA_DIR')),
    databaseUrl,
    databasePoolSize: poolSize,
    smtpUrl,
    smtpRequireTls: requiresStartTls(smtpServer),
    mailSender,
    corsOrigins: list(env.CORS_ORIGINS).map((o) => o.replace(/\/+$/, '')),
    translationKey: env.TRANSLATION_KEY?.trim() || null,
    translationScriptUrl: env.TRANSLATION_SCRIPT_URL?.trim() || null,
    sentryDsn: env.SENTRY_DSN?.trim() || null,
    crmWebhookUrl: env.CRM_WEBHOOK_URL?.trim() || undefined,
    crmWebhookSecret: env.CRM_WEBHOOK_SECRET?.trim() || undefined,
    realmUpstreamUrl:
      env.REALM_UPSTREAM_URL?.trim() || (devIdp ? `${publicUrl}${DEV_REALM_PATH}` : MICROSOFT_REALM_URL),
    realmTimeoutMs,
    rateLimitMultiplier: multiplier,
    limits,
    redisUrl,
    redisPrefix: setting(env, 'REDIS_PREFIX'),
    secret: env.SECRET || DEV_SECRET,
    cookieSecure: !local,
    webDist: path.resolve(env.WEB_DIST?.trim() || DEFAULT_WEB_DIST),
    devIdp,
    devMailbox,
    apiDocs,
    metricsToken: metrics ? metricsToken : null,
    siteUrls: siteUrls((env.SITE_URL?.trim() || defaultSite).replace(/\/+$/, '')),
    providerName: setting(env, 'PROVIDER_NAME'),
    identity,
  };
}

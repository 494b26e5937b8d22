import { ABUSE_LIMITS, SESSION_IDLE_MS } from '@frontdoor/contract';
import type { Env } from './config.ts';
import { DEFAULT_DEV_REALMS } from './identity/settings.ts';

/** One environment variable: what it means, and its default as text or in words. */
export interface EnvVariable {
  /** The value used when the variable is unset or empty; absent when there is none or it depends on others. */
  default?: string;
  /** The default in words, when it depends on other settings or the machine. */
  defaultText?: string;
  meaning: string;
  /** The heading it is listed under in .env.example. */
  group: string;
}

const variables = <T extends Record<string, EnvVariable>>(list: T) => list;
const limit = (value: number) => String(value);

/**
 * Every variable the server and the admin CLI read (besides each identity provider's, from
 * identity/settings.ts providerVariables), in .env.example's order. loadConfig takes its fixed
 * defaults from here (`setting`); `npm run env:example` writes .env.example from it, and
 * env-file.test.ts fails when either has drifted from it or from what config.ts reads.
 */
export const ENV_VARIABLES = variables({
  APP_ENV: {
    group: 'Server',
    default: 'development',
    meaning:
      '`production` or `development` (any case); anything else refuses to start (a staging server is production with its own settings); it is config.json env. Production refuses to start without PUBLIC_URL or SMTP_URL, with a weak SECRET, with DEV_IDP or DEV_MAILBOX on, or on SQLite without an absolute DATA_DIR.',
  },
  PORT: { group: 'Server', default: '8080', meaning: 'Listen port.' },
  HOST: {
    group: 'Server',
    defaultText: '127.0.0.1 in development, 0.0.0.0 in production',
    meaning:
      'Listen address. Development listens on this machine only, since it serves the dev mailbox and dev IdP; set HOST=0.0.0.0 to open it deliberately.',
  },
  PUBLIC_URL: {
    group: 'Server',
    defaultText: 'http://localhost:PORT outside production; production requires it',
    meaning:
      'The origin the browser sees (https://login.example.org), with no path: the issuer of the authorization server and the product token, the base of config.json loginUrl and redirectUri and of mail links (config.json apiUrl is the relative /api/, so pages work at any name or address). Cookies are Secure unless it is http://localhost, 127.0.0.1 or [::1].',
  },
  TRUST_PROXY: {
    group: 'Server',
    defaultText: 'off (the socket address is the client)',
    meaning:
      'Behind proxies: the number of proxies in front (1 behind one load balancer) or their addresses/CIDRs, comma separated; the client address is taken from X-Forwarded-For that far and no further. `true` is refused: any client could choose its address. A number trusts whoever connects: the port must be reachable from the proxy alone (HOST=127.0.0.1 with the proxy on this machine).',
  },
  CORS_ORIGINS: {
    group: 'Server',
    meaning:
      'Comma-separated origins of the products\' pages (docs/identity.md, "Integrating a product"): with the person\'s cookies they may read auth/sig and call cognito/logout, and nothing else of the API.',
  },
  WEB_DIST: {
    group: 'Server',
    defaultText: 'apps/web/dist',
    meaning:
      'The built SPA. When missing, a production start refuses and a development server answers pages with a text page saying to run `npm run build`. index.html is answered with a fresh CSP nonce per request; in production its *.map files answer 404.',
  },
  API_DOCS: {
    group: 'Server',
    defaultText: 'on outside production',
    meaning: '/api/docs and /api/docs.json; off in production (404) unless API_DOCS=on.',
  },
  LOG_LEVEL: {
    group: 'Server',
    default: 'info',
    meaning:
      'pino level (fatal, error, warn, info, debug, trace, silent, in any case); anything else refuses to start.',
  },
  SESSION_IDLE_MINUTES: {
    group: 'Server',
    default: String(SESSION_IDLE_MS / 60_000),
    meaning:
      'A session unused in the portal for this long ends (its 8 h lifetime aside; 2 to 480): the end of a session a student left signed in on a shared device that stays on (a Chromebook, a browser restoring its tabs). Set it to the gap between two lab classes; products that keep their own session see gateway/session answer active: false after it.',
  },
  SHUTDOWN_DRAIN_SECONDS: {
    group: 'Server',
    defaultText: '5 in production, 0 in development',
    meaning:
      'On SIGTERM, how long the server goes on answering before it closes: /readyz answers 503 and every answer closes its connection, so a load balancer sends the next requests to the other instances (set it to the time your load balancer takes to mark an instance down). Then requests in flight are finished, at most 10 s more.',
  },
  DATA_DIR: {
    group: 'Database',
    default: './data',
    meaning:
      "The SQLite file frontdoor.sqlite lives here (the admin CLI reads the same); a relative path is from the directory the server starts in. Production on SQLite requires an absolute path outside the release's directory (/var/lib/frontdoor), where the database stays across upgrades: without it, or with a relative one, it refuses to start.",
  },
  DATABASE_URL: {
    group: 'Database',
    meaning:
      'PostgreSQL connection string (postgres://user:pass@host:5432/db, or postgresql://); when set, used instead of SQLite. Needed for more than one instance. Another scheme refuses to start.',
  },
  DATABASE_POOL_SIZE: {
    group: 'Database',
    default: '10',
    meaning:
      "PostgreSQL connections each server process may hold (the admin CLI takes one or two). Every instance times this, plus the CLI, must stay below the server's max_connections (100 by default, a few reserved), or what PgBouncer allows. A query waits at most 10 s for a connection, then its request fails.",
  },
  SMTP_URL: {
    group: 'Mail',
    meaning:
      'nodemailer SMTP URL naming the mail server (smtp://user:pass@host:587, smtps:// for TLS); anything else refuses to start. Required in production. An smtp:// server off this machine must offer STARTTLS, or no mail goes (a relay without TLS on a closed network: append ?requireTLS=false).',
  },
  MAIL_FROM: {
    group: 'Mail',
    defaultText: 'Frontdoor <no-reply@the PUBLIC_URL host>',
    meaning:
      'Sender of the mails: one address, with a name or without, quoted so that a shell can read the file too: MAIL_FROM="Frontdoor <no-reply@example.org>". Anything else, or an IP for its domain, refuses to start. Its domain names the mails (Message-ID). Required in production when the PUBLIC_URL host is an IP address (development then sends from no-reply@[that IP]).',
  },
  MAIL_REPLY_TO: {
    group: 'Mail',
    meaning:
      "Where a reader's answer to a mail goes (a school's help desk: help@example.org); one address. Unset, mails carry no Reply-To.",
  },
  SECRET: {
    group: 'Secrets',
    defaultText: 'a fixed, public development value',
    meaning:
      'Pepper of the stored mailed and access codes (keyed digests). Production requires at least 32 random bytes (openssl rand -base64 32). Changing it invalidates every live access code and mailed code.',
  },
  OIDC_COOKIE_KEYS: {
    group: 'Secrets',
    defaultText: 'a key made on first start, stored in identity_keys',
    meaning:
      "Comma-separated keys signing the authorization server's cookies; the first signs, all verify (rotate by putting a new key first).",
  },
  REDIS_URL: {
    group: 'Abuse limits',
    meaning:
      'redis:// or rediss:// URL: the limit counters shared by every instance (set it when running more than one); per-process memory while it is unreachable.',
  },
  REDIS_PREFIX: {
    group: 'Abuse limits',
    default: 'frontdoor:',
    meaning: 'Prefix of every Redis key, so several portals can share one Redis.',
  },
  RATE_LIMIT_MULTIPLIER: {
    group: 'Abuse limits',
    default: '1',
    meaning:
      'Multiplies the traffic limits (flood guard, service-provider calls), never the failure limits (tests use 1000).',
  },
  LIMIT_ADDRESS_FAILURES_PER_HOUR: {
    group: 'Abuse limits',
    default: limit(ABUSE_LIMITS.addressFailuresPerHour),
    meaning: 'Failed passwords and codes an hour from one address (docs/SECURITY.md).',
  },
  LIMIT_FLOOD_PER_MINUTE: {
    group: 'Abuse limits',
    default: limit(ABUSE_LIMITS.floodRequestsPerMinute),
    meaning: 'API calls a minute from one address (the flood guard).',
  },
  LIMIT_SIGN_IN_STEPS_PER_MINUTE: {
    group: 'Abuse limits',
    default: limit(ABUSE_LIMITS.signInStepsPerMinute),
    meaning:
      'Authorization requests and provider answers (/oidc) a minute from one address: the steps that store a sign-in before anyone has signed in.',
  },
  LIMIT_MAIL_PER_ACCOUNT_PER_HOUR: {
    group: 'Abuse limits',
    default: limit(ABUSE_LIMITS.mailSendsPerAccountPerHour),
    meaning: 'Mailed codes an hour to one account.',
  },
  LIMIT_MAIL_PER_ADDRESS_PER_HOUR: {
    group: 'Abuse limits',
    default: limit(ABUSE_LIMITS.mailSendsPerAddressPerHour),
    meaning: 'Mailed codes an hour asked for from one address.',
  },
  LIMIT_SP_CALLS_PER_MINUTE: {
    group: 'Abuse limits',
    default: limit(ABUSE_LIMITS.serviceProviderCallsPerMinute),
    meaning: 'Server-to-server calls a minute per service provider client id.',
  },
  LIMIT_ALLOWLIST: {
    group: 'Abuse limits',
    meaning:
      'Addresses or CIDRs (school networks) exempt from the per-address limits; per-account and per-provider limits still apply.',
  },
  ACCESS_CODE_DAILY_RISK: {
    group: 'Abuse limits',
    default: limit(ABUSE_LIMITS.accessCodeDailyRisk),
    meaning:
      'The accepted daily chance per provider that a guess hits a live access code (sets its failure budget).',
  },
  ACCESS_CODE_TTL_DAYS: {
    group: 'Abuse limits',
    default: limit(ABUSE_LIMITS.accessCodeTtlDays),
    meaning: 'The life of a new access code, in days (at most 365: a code must expire).',
  },
  PASSWORD_HASH_CONCURRENCY: {
    group: 'Abuse limits',
    defaultText: 'the number of cores',
    meaning: 'Concurrent argon2 hashes.',
  },
  PASSWORD_HASH_QUEUE: {
    group: 'Abuse limits',
    defaultText: `${ABUSE_LIMITS.passwordHashQueuePerCore} × PASSWORD_HASH_CONCURRENCY`,
    meaning: 'argon2 hashes that may wait for a slot; beyond, 503 serverBusy with Retry-After.',
  },
  SITE_URL: {
    group: 'Product',
    defaultText: 'https://www.frontdoor.education in production, else the demo product (PUBLIC_URL/dev/sp)',
    meaning: 'config.json siteUrls root (contact-us, privacy, terms, help below it).',
  },
  PROVIDER_NAME: { group: 'Product', default: 'Frontdoor', meaning: 'Name in mails and config.json.' },
  TRANSLATION_KEY: {
    group: 'Product',
    meaning:
      "config.json translation key. With TRANSLATION_SCRIPT_URL too, the CSP allows the script's origin (script, stylesheet, settings) and the widget's translation and page-view endpoints (https://cdn-api-weglot.com, https://api.weglot.com); without them no other origin.",
  },
  TRANSLATION_SCRIPT_URL: {
    group: 'Product',
    meaning: "The translation widget's script (config.json translation).",
  },
  SENTRY_DSN: {
    group: 'Product',
    meaning:
      "config.json sentryDsn: the SPA's error reporting. The CSP's connect-src gets the DSN's origin, and workers from blob: (session replay) are allowed.",
  },
  CRM_WEBHOOK_URL: {
    group: 'Product',
    meaning: 'Each email-preference change is POSTed here as JSON, through the outbox.',
  },
  CRM_WEBHOOK_SECRET: {
    group: 'Product',
    meaning:
      "Key of each webhook call's HMAC-SHA256 signature; at least 32 bytes, required with CRM_WEBHOOK_URL in production.",
  },
  REALM_UPSTREAM_URL: {
    group: 'Product',
    defaultText:
      'https://login.microsoftonline.com/getuserrealm.srf; with DEV_IDP on, the development stand-in at /dev/idp/realm',
    meaning: 'Microsoft realm discovery (?login=<email>&json=1 → NameSpaceType).',
  },
  REALM_TIMEOUT_MS: {
    group: 'Product',
    default: '3000',
    meaning: 'How long realm discovery waits before it answers Unknown.',
  },
  METRICS: {
    group: 'Observability',
    defaultText: 'off',
    meaning:
      'on: Prometheus metrics at GET /metrics, for a scraper sending METRICS_TOKEN (docs/DEPLOYMENT.md).',
  },
  METRICS_TOKEN: {
    group: 'Observability',
    meaning:
      'The bearer token /metrics requires (Authorization: Bearer <token>); required with METRICS=on, at least 32 bytes in production (openssl rand -hex 32).',
  },
  IDP_IDENTIFIERS: {
    group: 'Identity providers',
    meaning:
      "`identifier=Provider` pairs, comma separated (district.k12.us=Clever, contoso.edu=Microsoft): what an authorization request's idp_identifier may name.",
  },
  DEV_MAILBOX: {
    group: 'Development',
    defaultText: 'on in development with a local PUBLIC_URL and no SMTP_URL',
    meaning: 'Mails go to table mailbox, shown at /dev/mailbox. Refused in production.',
  },
  DEV_IDP: {
    group: 'Development',
    defaultText: 'on in development with a local PUBLIC_URL',
    meaning:
      'Development identity providers at /dev/idp/<provider> for every provider without a CLIENT_ID. Refused in production.',
  },
  DEV_REALMS: {
    group: 'Development',
    default: DEFAULT_DEV_REALMS,
    meaning:
      '`domain=AccountType` pairs the development realm discovery answers (any other domain: Unknown); set but empty, no pairs.',
  },
});

export type EnvName = keyof typeof ENV_VARIABLES;
type WithDefault = {
  [K in EnvName]: (typeof ENV_VARIABLES)[K] extends { default: string } ? K : never;
}[EnvName];

/** A variable's value, trimmed, or its listed default when unset or empty. */
export function setting(env: Env, name: WithDefault): string;
export function setting(env: Env, name: EnvName): string | undefined;
export function setting(env: Env, name: EnvName): string | undefined {
  return env[name]?.trim() || (ENV_VARIABLES as Record<EnvName, EnvVariable>)[name].default;
}

import { parseArgs } from 'node:util';
import { getDomain } from 'tldts';
import {
  ABUSE_LIMITS,
  ACCOUNT_TYPES,
  SP_ID_MAX_LENGTH,
  accountNames,
  emailSchema,
  issueCode,
  messages,
  normalizeDomain,
  normalizeEmail,
  passwordSchema,
  rolesSchema,
  type Roles,
} from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import {
  createServiceProvider,
  findServiceProvider,
  findServiceProviderAnyCase,
  listServiceProviders,
  originOf,
  rotateClientSecret,
  setOrigins,
} from '../services/service-providers.ts';
import { createLoginRequest } from '../services/login-requests.ts';
import {
  findUserByEmail,
  findUserById,
  hashPassword,
  isAdministrator,
  newUserRow,
} from '../services/users.ts';
import {
  deleteUser,
  disableUser,
  enableUser,
  findAccounts,
  listUsers,
  renameUser,
  showUser,
  signOutEverywhere,
} from '../services/user-admin.ts';
import { createInvite, listInvites, revokeInvites } from '../services/invites.ts';
import {
  accessCodeBudgetOf,
  createAccessCode,
  listAccessCodes,
  revokeAccessCodes,
} from '../services/access-codes.ts';
import { AUDIT_EVENTS, audit, listAudit } from '../services/audit.ts';
import { startMasquerade, stopMasquerade } from '../services/masquerade.ts';
import { unlockAccount } from '../services/limits.ts';
import { listMailbox } from '../services/mailbox.ts';
import { retryFailed } from '../services/outbox.ts';
import { MAIL_LANGUAGES, type MailLanguage } from '../mail/render.ts';
import { passwordRefusal } from '../services/password-policy.ts';
import { pruneExpired } from '../services/pruning.ts';
import { isServersSecret } from '../services/secret-change.ts';
import { PRODUCT_KEY_PUBLISH_AHEAD_MS, productKeys } from '../services/product-keys.ts';
import { isNewDatabase } from '../db/index.ts';
import { copyToPostgres, copyUsageProblem } from './db-copy.ts';

export type AdminContext = Pick<AppContext, 'db' | 'config' | 'outbox' | 'logger' | 'now'> & {
  /** Asks for a password: unseen at a terminal, or the first line of stdin (admin/cli.ts). */
  readPassword?: () => Promise<string>;
};

export class UsageError extends Error {}

/** Every command: its usage line and what it does (→ what it prints). HELP and `<command> --help` come from here. */
export const COMMANDS: Record<
  string,
  {
    usage: string;
    summary: string;
    /** Runs on the database as it is, not migrated first: its own checks decide (db copy's source). */
    unmigrated?: true;
  }
> = {
  'sp create': {
    usage: '--id <sp_id> --name <name> --origin <origin> [--origin <origin> ...]',
    summary: 'Registers a service provider → {sp_id, clientId, clientSecret} (the secret is shown once).',
  },
  'sp list': {
    usage: '',
    summary:
      'The service providers → {providers: [{spId, name, origins, clientId, createdAt}]} (never a secret).',
  },
  'sp origin add': {
    usage: '--id <sp_id> --origin <origin> [--origin <origin> ...]',
    summary:
      "Lets a service provider's return addresses be on more origins (a product that moved or has a second site) → {sp_id, origins}, with sp create's notes.",
  },
  'sp origin remove': {
    usage: '--id <sp_id> --origin <origin> [--origin <origin> ...]',
    summary:
      "Stops a service provider returning to origins → {sp_id, origins}: a class code's sign-in to them stops at once (auth/cookie checks again), while a password or provider sign-in already under way may still return there within its hour. Its last origin is refused: with none it could open no login request (add the new one first).",
  },
  'sp rotate-secret': {
    usage: '--id <sp_id>',
    summary:
      'A new client secret for the provider → {sp_id, clientId, clientSecret} (shown once); the old one stops working at once.',
  },
  'login create': {
    usage: '--sp <sp_id> --url <return url> [--teacher]',
    summary: 'Opens a login request (as gateway/createCsrfLogin does) → {csrf}; visit /log-in/<csrf>.',
  },
  'user create': {
    usage:
      '--email <e> --first <f> --last <l> [--set-password] [--unconfirmed] [--must-reset] [--role <name>:<level,level>]...',
    summary:
      'Creates an account → {id}. --set-password asks for the password (typed unseen in a terminal, or the first line of stdin: `echo "$PW" | npm run admin -- user create … --set-password`); never on the command line, where shell history and the process list keep it. Without it the account has email status "verify".',
  },
  'user list': {
    usage: '[--inactive-since <YYYY-MM-DD>] [--limit <n>]',
    summary:
      'Accounts, newest first (at most 50 unless --limit) → {users: [{id, email, first, last, confirmed, isStudent, locked, createdAt, lastSignInAt, disabledAt}]}. --inactive-since: the dormant ones, last signed in (or, never signed in, created) before that day (UTC), the longest unused first; delete each with `user delete --id`.',
  },
  'user find': {
    usage: '--email <e>',
    summary:
      "Every account of a person known by an address → {accounts: [{id, email, first, last, confirmed, createdAt, namedBy}]}: the account whose address it is ('account'), and each account a roster or Microsoft sign-in made with a placeholder address, whose identity names it (the provider). Delete each with `user delete --id`.",
  },
  'user show': {
    usage: '--email <e> | --id <id>',
    summary:
      "One account → {id, email, first, last, namesProven, confirmed, mustReset, isStudent, roles, language, hasPassword, failedAttempts, lockedAt, delayedUntil, identities: [{provider, subject, email, linkedAt, claims: what it asserted}], liveSessions, description, subscriptions, accessCodes, mails: its latest 10 (template: verify, reset, invite or locked; queuedAt, state, attempts, deliveredAt, lastError, queuedByReqId), createdAt, updatedAt, lastSignInAt, disabledAt} (never the password hash, never a code). --email is the account's own address: one only a linked identity asserted is refused with the accounts `user find` lists, to name by --id.",
  },
  'user rename': {
    usage: '--email <e> --first <f> --last <l>',
    summary:
      "Sets an account's names → {renamed}: for names a stranger typed at a sign-up that its owner confirmed in another browser (`user show` says namesProven: false); mails greet by them again.",
  },
  'user delete': {
    usage: '--email <e> | --id <id>, --yes',
    summary:
      "Deletes the account with its sessions, codes, links, identities and the authorization server's grants and tokens → {deleted}; the audit log keeps its id and events, without their client addresses. --email is the account's own address (`user find` lists every account of a person, to delete each by --id).",
  },
  'user sign-out': {
    usage: '--email <e> | --id <id>',
    summary:
      'Signs the account out everywhere now (a teacher who left, a stolen laptop): ends its live portal sessions, so products\' session checks fail, and deletes the authorization server\'s grants, codes and tokens issued to it → {sessionsEnded}. A password, an access code or a provider still signs it in again: `user disable` keeps it out (docs/DEPLOYMENT.md, "A teacher leaves").',
  },
  'user disable': {
    usage: '--email <e> | --id <id>, --yes',
    summary:
      "Turns the account off and keeps its data (a teacher who left, a stolen laptop, an account under investigation): ends its live sessions and deletes the authorization server's grants, codes and tokens issued to it, as `user sign-out` does, and no password, access code or provider signs it in until `user enable` → {disabled, sessionsEnded}. An account already off answers sessionsEnded 0, without a second audit entry. --email as for `user delete`.",
  },
  'user enable': {
    usage: '--email <e> | --id <id>',
    summary: 'Turns a disabled account on again: it signs in as before → {enabled}.',
  },
  'user unlock': {
    usage: '--email <e>',
    summary: 'Ends a lock after too many failed attempts (and any delay) now → {unlocked}.',
  },
  'invite create': {
    usage: '--email <e> [--language <lang>]',
    summary:
      "Creates an invitation and mails its link /invite/<code> → {code, link} (the link as mailed: it names this shell's PUBLIC_URL, which should be the server's). --language: the mail's and its page's (en, es, fr, pt, zh, ar, de; a region tag such as pt-BR is its language); without it the mail is in English and its page in the browser's language.",
  },
  'invite list': {
    usage: '[--email <e>]',
    summary:
      'The invitations, newest first (at most 200), of every address or of one → {invites: [{email, createdAt, expiresAt, state}]} (state live, used or expired; never a code).',
  },
  'invite revoke': {
    usage: '--code <code> | --email <e>',
    summary:
      'Revokes an invitation, or every live one to an address: its row goes, so its link opens nothing, and so does its mail if not sent yet → {revoked}.',
  },
  'access-code create': {
    usage: '--sp <sp_id> --email <student email> [--ttl-days <days>]',
    summary:
      'Creates a six-digit classroom access code → {code, id, expiresAt} (the code is shown once). --ttl-days: its life, 1 to 365 days (ACCESS_CODE_TTL_DAYS unless given).',
  },
  'access-code list': {
    usage: '--sp <sp_id>',
    summary:
      "The provider's codes (never the codes themselves) → {codes: [{id, email, createdAt, expiresAt, state}]}.",
  },
  'access-code revoke': {
    usage: '(--id <id> | --sp <sp_id> --email <student email>)',
    summary:
      'Revokes a code, or every live code of a student at a provider → {revoked}. A pupil already signed in with it stays signed in: `user sign-out` ends that session.',
  },
  'access-code budget': {
    usage: '--sp <sp_id>',
    summary:
      "Today's failure budget of the provider's codes → {liveCodes, budget, failures, remaining, inFlight, resetsAt}: inFlight, the guesses holding places in it now (places never given back count until a minute after the last was held).",
  },
  'audit list': {
    usage: '[--event <event>] [--id <account id>] [--since <ISO time>] [--until <ISO time>] [--limit <n>]',
    summary: `The audit log, newest first → {entries}: sign-ins and failed ones, session starts, password resets, locks, unlocks, exhausted budgets, revoked codes, masquerades and every admin command (options naming an account as its id; passwords and names never). --since, --until: entries at or after, and before, a time (2026-03-01 or 2026-03-01T08:00:00Z; without a zone, UTC). --event: one of ${AUDIT_EVENTS.join(', ')}.`,
  },
  'masquerade start': {
    usage: '--admin <email> --as <email>',
    summary:
      "Acts as a non-administrator in the administrator's live sessions for 1 hour → {sessions, endsAt}. Only an account with the 'admin' role may, never as another administrator.",
  },
  'masquerade stop': {
    usage: '--admin <email>',
    summary: "Ends the masquerade of the administrator's live sessions now → {sessions}.",
  },
  'outbox retry': {
    usage: '[--id <row id>]',
    summary:
      'Queues again the mails and CRM calls that failed at the attempt limit (all, or one row), each with a fresh set of attempts, once SMTP or the CRM works again; the server sends them within seconds → {requeued}.',
  },
  'mailbox list': {
    usage: '[--to <email>]',
    summary: 'The development mailbox, newest first → {messages}.',
  },
  prune: {
    usage: '',
    summary:
      'Deletes rows dead longer than their retention (expired or used codes and links, ended sessions, audit entries past a year, sign-ups nobody confirmed after 30 days, unless turned off; services/pruning.ts), as the server does hourly → {<table>: rows deleted}.',
  },
  'realm set': {
    usage: '--domain <domain> --type Managed|Federated|Unknown',
    summary: 'Overrides Microsoft realm discovery for a domain → {domain, accountType}.',
  },
  'keys rotate': {
    usage: '',
    summary: `A new key is published now and signs the product token of auth/sig from signsFrom, ${PRODUCT_KEY_PUBLISH_AHEAD_MS / 60_000} minutes later, once products may have fetched it (the first key of a deployment at once); the replaced one stays published until its tokens have expired (rotation is automatic every 30 days) → {kid, published, signsFrom}.`,
  },
  'db copy': {
    unmigrated: true,
    usage: '--to <postgres URL>',
    summary:
      "Copies the SQLite database of DATA_DIR (the server stopped) into a new, empty PostgreSQL database: migrates it as the server would, copies every table in one transaction and sets its id sequences → {copied, tables: {<table>: rows}, next}. Refused when the PostgreSQL database has any table (one in use), when DATA_DIR holds no database (none is made there), or when the SQLite database is not at this release's migrations or is new and empty; the SQLite database is left as it is. Start the server on it with the same SECRET (and OIDC_COOKIE_KEYS, if set): docs/DEPLOYMENT.md.",
  },
};

const GLOBAL_OPTIONS = `Options: --json prints one JSON object (errors too, as {error}). --help after a command prints its help.
Reads DATA_DIR / DATABASE_URL like the server, so it works beside a running server.`;

export const HELP = `Frontdoor administration. Usage: npm run admin -- [--json] <command> [options]

${Object.entries(COMMANDS)
  .map(([name, { usage, summary }]) => `  ${name}${usage ? ` ${usage}` : ''}\n      ${summary}`)
  .join('\n')}

${GLOBAL_OPTIONS}`;

/** The command the positionals name: `sp origin add` is three words, the others one or two. */
export function commandName(positionals: string[]): string {
  const three = positionals.slice(0, 3).join(' ');
  return COMMANDS[three] ? three : positionals.slice(0, 2).join(' ');
}

/** `npm run admin -- <command> --help`: that command's usage, or the whole HELP for an unknown one. */
export function helpFor(positionals: string[]): string {
  const name = commandName(positionals);
  const command = COMMANDS[name] ?? COMMANDS[positionals[0] ?? ''];
  if (!command) return HELP;
  const shown = COMMANDS[name] ? name : (positionals[0] ?? '');
  return `Usage: npm run admin -- [--json] ${shown}${command.usage ? ` ${command.usage}` : ''}\n\n${command.summary}\n\n${GLOBAL_OPTIONS}`;
}

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  id: { type: 'string' },
  name: { type: 'string' },
  origin: { type: 'string', multiple: true },
  sp: { type: 'string' },
  url: { type: 'string' },
  teacher: { type: 'boolean' },
  email: { type: 'string' },
  // refused with a reason (readPassword): a password on the command line stays in shell history
  password: { type: 'string' },
  'set-password': { type: 'boolean' },
  yes: { type: 'boolean' },
  first: { type: 'string' },
  last: { type: 'string' },
  unconfirmed: { type: 'boolean' },
  'must-reset': { type: 'boolean' },
  role: { type: 'string', multiple: true },
  language: { type: 'string' },
  admin: { type: 'string' },
  as: { type: 'string' },
  to: { type: 'string' },
  domain: { type: 'string' },
  type: { type: 'string' },
  'ttl-days': { type: 'string' },
  event: { type: 'string' },
  limit: { type: 'string' },
  'inactive-since': { type: 'string' },
  code: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
} as const;

export function parseAdminArgs(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}
type Values = ReturnType<typeof parseAdminArgs>['values'];

function required(
  values: Values,
  name: 'id' | 'name' | 'sp' | 'url' | 'email' | 'first' | 'last' | 'admin' | 'as' | 'domain' | 'type',
): string {
  const value = values[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

/** The address of an account to create or invite: one the forms would take. */
function newEmail(values: Values, name: 'email' = 'email'): string {
  const parsed = emailSchema.safeParse(required(values, name));
  if (!parsed.success) throw new UsageError(`--${name}: not a valid email address`);
  return parsed.data;
}

/**
 * The address of an account to look up, spelled as stored but not judged: an account made before a
 * stricter rule (`a@x_y.org`) must still be found, shown and deleted.
 */
const email = (values: Values, name: 'email' | 'admin' | 'as' = 'email'): string =>
  normalizeEmail(required(values, name));

/** --language, one the mails are written in (an unknown one was mailed in English without a word). */
function mailLanguage(values: Values): MailLanguage | undefined {
  const value = values.language;
  if (value === undefined) return undefined;
  // a region tag (pt-BR, zh-Hans) is its language, as the pages take it
  const language = value.toLowerCase().split('-')[0] ?? '';
  if (Object.hasOwn(MAIL_LANGUAGES, language)) return language as MailLanguage;
  throw new UsageError(`--language must be one of ${Object.keys(MAIL_LANGUAGES).join(', ')}, got ${value}`);
}

/** --role teacher:1,2 --role admin → {teacher:[1,2], admin:[]} */
function parseRoles(specs: string[] = []): Roles {
  const roles: Roles = {};
  for (const spec of specs) {
    const [name = '', levels = ''] = spec.split(':');
    if (!name) throw new UsageError(`--role ${spec}: expected <name>:<level,level>`);
    roles[name] = levels ? levels.split(',').map((l) => Number.parseInt(l, 10)) : [];
  }
  const parsed = rolesSchema.safeParse(roles);
  if (!parsed.success) throw new UsageError('--role levels must be integers');
  return parsed.data;
}

/** --first and --last, held to the sign-up form's rules. */
function names(values: Values): { first: string; last: string } {
  const parsed = accountNames.safeParse({ first: required(values, 'first'), last: required(values, 'last') });
  if (!parsed.success) throw new UsageError(messages[issueCode(parsed.error)]);
  return parsed.data;
}

/**
 * The largest value of each number option: a code's longest life, a listing the terminal can
 * show, an outbox id (PostgreSQL's integer). Past them SQLite and PostgreSQL failed differently, and
 * SQLite stored an access code expiring after any date can be written.
 */
const NUMBER_OPTION_MAX = {
  'ttl-days': ABUSE_LIMITS.accessCodeMaxTtlDays,
  limit: 10_000,
  id: 2_147_483_647,
} as const;

function positiveInteger(values: Values, name: keyof typeof NUMBER_OPTION_MAX): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  const max = NUMBER_OPTION_MAX[name];
  if (!Number.isSafeInteger(n) || n <= 0 || n > max)
    throw new UsageError(`--${name} must be a whole number from 1 to ${max}, got ${raw}`);
  return n;
}

/** --event, one the audit log holds (a misspelt one, `signin.failed`, listed nothing without a word). */
function auditEvent(values: Values): string | undefined {
  const { event } = values;
  if (event === undefined || (AUDIT_EVENTS as readonly string[]).includes(event)) return event;
  throw new UsageError(`--event must be one of ${AUDIT_EVENTS.join(', ')}, got ${event}`);
}

/** A time given as ISO 8601 (a day, or a day and time; UTC without a zone), as epoch ms. */
function instant(values: Values, name: 'since' | 'until'): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const iso = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?$/.test(raw);
  // a day and time without a zone is UTC, as a day alone is (Date.parse would take it as local time)
  const ms = iso ? Date.parse(/T[^Z+-]*$/.test(raw) ? `${raw}Z` : raw) : Number.NaN;
  // Date.parse takes 2026-02-30 as March 2nd: the day must read back as it was typed
  const day = raw.slice(0, 10);
  if (Number.isNaN(ms) || new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day)
    throw new UsageError(`--${name} must be a time as 2026-03-01 or 2026-03-01T08:00:00Z, got ${raw}`);
  return ms;
}

/** A day given as YYYY-MM-DD, as the epoch ms of its start (UTC); undefined when not given. */
function dayStart(values: Values, name: 'inactive-since'): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(raw) ? Date.parse(`${raw}T00:00:00Z`) : Number.NaN;
  // Date.parse takes 2026-02-30 as March 2nd: a day must read back as it was typed
  if (Number.isNaN(day) || new Date(day).toISOString().slice(0, 10) !== raw)
    throw new UsageError(`--${name} must be a day as YYYY-MM-DD, got ${raw}`);
  return day;
}

/**
 * --origin, each an http(s) origin on a host name, as stored (scheme://host[:port]). A wildcard
 * (`https://*.example.org`) was stored as typed and matched no page but its literal self.
 */
function originsOf(values: Values, { checkHost = true } = {}): string[] {
  const given = values.origin ?? [];
  if (!given.length) throw new UsageError('--origin is required (repeatable)');
  return given.map((o) => {
    const origin = originOf(o);
    if (!origin) throw new UsageError(`--origin ${o}: not an http(s) origin`);
    // an origin is all of a site: a path would seem to allow less than it does
    if (!/^[a-z][a-z0-9+.-]*:\/\/[^/?#]+\/?$/i.test(o))
      throw new UsageError(`--origin ${o}: an origin has no path; ${origin} allows every page of that site`);
    const host = new URL(origin).hostname;
    // an IPv6 address ([::1]) is valid as the URL parser wrote it; a name is labels of letters,
    // digits and '-' (an IDN already in its xn-- form), none empty
    if (
      checkHost &&
      !host.startsWith('[') &&
      !/^(?!-)[a-z0-9-]{1,63}(?<!-)(?:\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/.test(host)
    )
      throw new UsageError(
        `--origin ${o}: ${host} is not a host name (letters, digits and '-' between dots, no '*': an origin names one site, so register each one)`,
      );
    return origin;
  });
}

async function providerId(ctx: AdminContext, values: Values): Promise<string> {
  const spId = required(values, 'sp');
  if (!(await findServiceProvider(ctx.db, spId))) throw new UsageError(`no service provider ${spId}`);
  return spId;
}

/**
 * The account `--id` names, else the one whose own address `--email` is. An address that is only a
 * linked identity's (a Clever or ClassLink sign-in whose account has a placeholder address) names the
 * accounts `user find` lists, for the operator to choose one by its id.
 */
async function userOf(ctx: AdminContext, values: Values) {
  if (values.id === undefined) {
    const address = email(values);
    const user = await findUserByEmail(ctx.db, address);
    if (user) return user;
    const { accounts } = await findAccounts(ctx, address);
    if (!accounts.length) throw new UsageError(`no account with the email ${address}`);
    const named = accounts.map((account) => `${account.id} (${account.namedBy.join(', ')})`).join(', ');
    throw new UsageError(
      `no account has the email ${address} as its own, but a linked identity of ${named} asserted it (user find --email ${address}): name the account with --id <id>`,
    );
  }
  const user = await findUserById(ctx.db, values.id);
  if (!user) throw new UsageError(`no account with the id ${values.id}`);
  return user;
}

async function userByEmail(ctx: AdminContext, address: string) {
  const user = await findUserByEmail(ctx.db, address);
  if (!user) throw new UsageError(`no account with the email ${address}`);
  return user;
}

/** Options the audit log keeps as given; any other (a password, a name, one added later) only as present. */
const AUDITED_AS_GIVEN = new Set([
  'id',
  'name',
  'origin',
  'sp',
  'url',
  'teacher',
  'unconfirmed',
  'must-reset',
  'role',
  'language',
  'domain',
  'type',
  'ttl-days',
  'event',
  'limit',
  'yes',
  'inactive-since',
  'since',
  'until',
]);
/** Options naming a person by email: the audit log keeps the account's id (null without one). */
const AUDITED_AS_ACCOUNT = new Set(['email', 'admin', 'as', 'to']);
/** `--to` names a person only for `mailbox list`; db copy's is a database URL (with its password). */
const namesAccount = (command: string, option: string): boolean =>
  AUDITED_AS_ACCOUNT.has(option) && (option !== 'to' || command === 'mailbox list');

/**
 * The accounts the options name by email, as ids: looked up before a command and after it. The
 * address spelled as the commands look it up (email()), so one an older release took is found too.
 */
async function namedAccounts(
  ctx: AdminContext,
  command: string,
  values: Values,
): Promise<Map<string, string | null>> {
  const accounts = new Map<string, string | null>();
  for (const [name, value] of Object.entries(values)) {
    if (!namesAccount(command, name) || typeof value !== 'string') continue;
    const user = await findUserByEmail(ctx.db, normalizeEmail(value));
    accounts.set(name, user?.id ?? null);
  }
  return accounts;
}

/**
 * What the audit log keeps of a command's options: an account named by email as its id, the one
 * there after the command (an account it created) or else before it (one it deleted), so that
 * `audit list --id` finds the command. `user find` keeps the id of every account it lists (a
 * family's request about an address that is only a roster identity's concerns those).
 */
async function auditedOptions(
  ctx: AdminContext,
  command: string,
  values: Values,
  before: Map<string, string | null>,
): Promise<Record<string, unknown>> {
  const after = await namedAccounts(ctx, command, values);
  const options: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    if (name === 'json' || name === 'help' || value === undefined) continue;
    if (AUDITED_AS_GIVEN.has(name)) options[name] = value;
    else if (command === 'user find' && name === 'email' && typeof value === 'string') {
      const { accounts } = await findAccounts(ctx, normalizeEmail(value));
      options[name] = { userIds: accounts.map((account) => account.id) };
    } else if (after.has(name)) options[name] = { userId: after.get(name) ?? before.get(name) ?? null };
    else options[name] = true;
  }
  return options;
}

/**
 * Runs one admin command and returns its result object. Every run, refused or not, is written to
 * the audit log with its name and options (auditedOptions).
 */
export async function runAdminCommand(
  ctx: AdminContext,
  positionals: string[],
  values: Values,
): Promise<Record<string, unknown>> {
  let ok = false;
  const command = commandName(positionals);
  const startedAt = ctx.now();
  // a command run on the database as it is (db copy) may meet one no migration ran on: it has no
  // audit log to write to, and the command's own refusal is the answer
  const auditable = !COMMANDS[command]?.unmigrated || !(await isNewDatabase(ctx.db));
  const named = auditable ? await namedAccounts(ctx, command, values) : new Map<string, string | null>();
  try {
    const result = await execute(ctx, positionals, values);
    // the mail the command wrote (an invite) goes now, even with no server running; one that fails
    // stays in the outbox for the server's worker
    await ctx.outbox.drain({ createdSince: startedAt });
    ok = true;
    return result;
  } finally {
    if (auditable)
      await audit(ctx, {
        event: 'admin.command',
        detail: {
          command,
          options: await auditedOptions(ctx, command, values, named),
          ok,
        },
      });
  }
}

/**
 * A URL's site as browsers judge SameSite: its scheme and registrable domain (by the public suffix
 * list, private suffixes such as github.io included), or its host itself for an IP address,
 * localhost or a bare name.
 */
const siteOf = (url: URL): string =>
  `${url.protocol}//${getDomain(url.hostname, { allowPrivateDomains: true }) ?? url.hostname}`;

/**
 * What `sp create` and `sp origin add` tell the operator of a product's origins: a page of another
 * site than the portal's (an http page under an https portal among them) never carries the session
 * cookie (SameSite=Lax), so it cannot read auth/sig, the token the product needs, whatever
 * CORS_ORIGINS says; nor can a page of an origin that is not in CORS_ORIGINS (nor the portal itself).
 */
function originNotes(config: AdminContext['config'], origins: string[]): string[] {
  const portal = new URL(config.publicUrl);
  return origins
    .map((o) => new URL(originOf(o) ?? o))
    .filter((url) => url.origin !== portal.origin)
    .flatMap((url) => {
      if (portal.protocol === 'https:' && url.protocol === 'http:')
        return [
          `${url.origin} is http, the portal https: another site, whose pages never carry the session cookie, so they cannot read auth/sig; serve the product over https (docs/identity.md, "Integrating a product")`,
        ];
      if (siteOf(url) !== siteOf(portal))
        return [
          `${url.origin} is on another site (${siteOf(url)}) than the portal (${siteOf(portal)}, PUBLIC_URL): its pages never carry the session cookie, so auth/sig answers them loggedin: false even right after a sign-in; serve the product on the portal's site, as a sibling subdomain (docs/identity.md, "Integrating a product", step 2)`,
        ];
      if (config.corsOrigins.includes(url.origin)) return [];
      return [
        `${url.origin} is not in this command's CORS_ORIGINS (the server's must hold it): its pages cannot read auth/sig until it is (docs/identity.md, "Integrating a product")`,
      ];
    });
}

/**
 * A note for each origin another provider registered too: a token asked from a page of that origin
 * names no product (services/service-providers.ts productOfOrigin), so neither can verify its own
 * sp_id as the token's audience (docs/identity.md).
 */
async function sharedOriginNotes(ctx: AdminContext, spId: string, origins: string[]): Promise<string[]> {
  const others = (await listServiceProviders(ctx.db)).filter((sp) => sp.spId !== spId);
  // the portal's own pages name no product whoever else registered their origin (the demo product)
  const portal = new URL(ctx.config.publicUrl).origin;
  return origins.flatMap((origin) => {
    if (origin === portal) return [];
    const holders = others.filter((sp) => sp.origins.includes(origin)).map((sp) => sp.spId);
    return holders.length
      ? [
          `${origin} is also an origin of ${holders.join(', ')}: tokens asked from its pages name no product (aud 'frontdoor-products' alone), so no product there can verify its own sp_id; give each product an origin of its own (docs/identity.md, "Integrating a product")`,
        ]
      : [];
  });
}

async function execute(
  ctx: AdminContext,
  positionals: string[],
  values: Values,
): Promise<Record<string, unknown>> {
  const command = commandName(positionals);
  switch (command) {
    case 'sp create': {
      const origins = originsOf(values);
      const spId = required(values, 'id');
      // it goes in addresses (accessCodes/login/<code>/<sp_id>) and on screens as it is
      if (!new RegExp(`^[A-Za-z0-9._-]{1,${SP_ID_MAX_LENGTH}}$`).test(spId))
        throw new UsageError(
          `--id ${spId}: letters, digits, '.', '_' and '-' only, at most ${SP_ID_MAX_LENGTH} characters`,
        );
      const existing = await findServiceProviderAnyCase(ctx.db, spId);
      if (existing?.spId === spId)
        throw new UsageError(
          `a service provider ${spId} exists already (sp rotate-secret gives it a new secret, sp origin add and sp origin remove change its origins)`,
        );
      // ids are matched exactly on the wire: a case variant would be a second provider mistaken for the first
      if (existing)
        throw new UsageError(
          `--id ${spId}: a service provider ${existing.spId} exists already, differing only by case; choose another id, or use ${existing.spId}`,
        );
      const created = await createServiceProvider(
        ctx.db,
        { spId, name: required(values, 'name'), origins },
        ctx.now(),
      );
      const notes = [...originNotes(ctx.config, origins), ...(await sharedOriginNotes(ctx, spId, origins))];
      return notes.length ? { ...created, notes } : created;
    }
    case 'login create': {
      const spId = required(values, 'sp');
      const sp = await findServiceProvider(ctx.db, spId);
      if (!sp) throw new UsageError(`no service provider ${spId}`);
      const url = required(values, 'url');
      if (!sp.origins.includes(originOf(url) ?? ''))
        throw new UsageError(`--url: origin not allowed for ${spId} (${sp.origins.join(', ')})`);
      return {
        csrf: await createLoginRequest(ctx.db, { spId, url, isTeacher: values.teacher ?? false }, ctx.now()),
      };
    }
    case 'user create': {
      if (values.password !== undefined)
        throw new UsageError(
          '--password is not accepted: shell history and the process list would keep it. Use --set-password and type it, or pipe it on stdin',
        );
      const address = newEmail(values);
      if (await findUserByEmail(ctx.db, address))
        throw new UsageError(`an account with the email ${address} already exists`);
      let passwordHash: string | null = null;
      if (values['set-password']) {
        if (!ctx.readPassword) throw new UsageError('--set-password: no terminal or stdin to read it from');
        const pw = passwordSchema.safeParse(await ctx.readPassword());
        if (!pw.success) throw new UsageError(`--set-password: ${messages[issueCode(pw.error)]}`);
        const refusal = passwordRefusal(pw.data, { email: address, first: values.first, last: values.last });
        if (refusal) throw new UsageError(`--set-password: ${messages[refusal]}`);
        passwordHash = await hashPassword(pw.data);
      }
      const row = newUserRow(
        {
          email: address,
          ...names(values),
          passwordHash,
          confirmed: !values.unconfirmed,
          mustReset: values['must-reset'] ?? false,
          roles: parseRoles(values.role),
          language: mailLanguage(values) ?? 'en',
        },
        ctx.now(),
      );
      await ctx.db.insertInto('users').values(row).execute();
      return { id: row.id };
    }
    case 'sp list':
      return { providers: await listServiceProviders(ctx.db) };
    case 'sp origin add':
    case 'sp origin remove': {
      // one stored before hosts were checked (a wildcard) can still be removed
      const changed = originsOf(values, { checkHost: command === 'sp origin add' });
      const spId = required(values, 'id');
      const sp = await findServiceProvider(ctx.db, spId);
      if (!sp) throw new UsageError(`no service provider ${spId}`);
      let origins: string[];
      if (command === 'sp origin add') {
        const known = changed.filter((o) => sp.origins.includes(o));
        if (known.length) throw new UsageError(`--origin ${known.join(', ')}: already an origin of ${spId}`);
        origins = [...sp.origins, ...new Set(changed)];
      } else {
        const unknown = changed.filter((o) => !sp.origins.includes(o));
        if (unknown.length)
          throw new UsageError(
            `--origin ${unknown.join(', ')}: not an origin of ${spId} (${sp.origins.join(', ')})`,
          );
        origins = sp.origins.filter((o) => !changed.includes(o));
        if (!origins.length)
          throw new UsageError(
            `${spId} would have no origin left, and a provider without one can open no login request: add the new origin first (sp origin add)`,
          );
      }
      await setOrigins(ctx.db, spId, origins);
      const notes =
        command === 'sp origin add'
          ? [...originNotes(ctx.config, changed), ...(await sharedOriginNotes(ctx, spId, changed))]
          : [];
      return notes.length ? { sp_id: spId, origins, notes } : { sp_id: spId, origins };
    }
    case 'sp rotate-secret': {
      const rotated = await rotateClientSecret(ctx.db, required(values, 'id'));
      if (!rotated) throw new UsageError(`no service provider ${required(values, 'id')}`);
      return rotated;
    }
    case 'user list':
      return {
        users: await listUsers(ctx, {
          limit: positiveInteger(values, 'limit') ?? 50,
          inactiveSince: dayStart(values, 'inactive-since'),
        }),
      };
    case 'user find':
      return findAccounts(ctx, email(values));
    case 'user show':
      return showUser(ctx, await userOf(ctx, values));
    case 'user rename':
      return renameUser(ctx, await userByEmail(ctx, email(values)), names(values));
    case 'user delete': {
      const user = await userOf(ctx, values);
      if (!values.yes)
        throw new UsageError(`--yes is required: this deletes ${user.email} and everything of theirs`);
      return { deleted: await deleteUser(ctx, user) };
    }
    case 'invite create':
      return createInvite(ctx, newEmail(values), mailLanguage(values));
    case 'invite list':
      return { invites: await listInvites(ctx, values.email === undefined ? undefined : email(values)) };
    case 'invite revoke': {
      if (values.code) return { revoked: await revokeInvites(ctx, { code: values.code }) };
      if (!values.email) throw new UsageError('--code or --email is required');
      return { revoked: await revokeInvites(ctx, { email: email(values) }) };
    }
    case 'user sign-out':
      return { sessionsEnded: await signOutEverywhere(ctx, await userOf(ctx, values)) };
    case 'user disable': {
      const user = await userOf(ctx, values);
      if (!values.yes)
        throw new UsageError(`--yes is required: this signs ${user.email} out and keeps them out`);
      return { disabled: true, sessionsEnded: await disableUser(ctx, user) };
    }
    case 'user enable':
      await enableUser(ctx, await userOf(ctx, values));
      return { enabled: true };
    case 'user unlock': {
      const user = await userByEmail(ctx, email(values));
      return { unlocked: await unlockAccount(ctx, user, 'admin') };
    }
    case 'access-code create': {
      const spId = await providerId(ctx, values);
      const student = await userByEmail(ctx, email(values));
      // six digits guessable by a class must never open an administrator's account
      if (isAdministrator(student))
        throw new UsageError(`${student.email} is an administrator: an access code never signs one in`);
      const ttlDays = positiveInteger(values, 'ttl-days');
      // a code is stored keyed by SECRET: made under another, every pupil's try fails on the server
      if (!(await isServersSecret(ctx)))
        throw new Error(
          "SECRET is not the one the server runs with: a code made with it would fail on the server as a wrong code. Run the command with the server's SECRET (its .env)",
        );
      const created = await createAccessCode(ctx, { spId, userId: student.id, ttlDays });
      return { code: created.code, id: created.id, expiresAt: new Date(created.expiresAt).toISOString() };
    }
    case 'access-code list':
      return { codes: await listAccessCodes(ctx.db, await providerId(ctx, values), ctx.now()) };
    case 'access-code revoke': {
      if (values.id) return { revoked: await revokeAccessCodes(ctx, { id: values.id }) };
      // the help's two forms: say both when neither is given (not only the second's --sp)
      if (!values.sp && !values.email) throw new UsageError('--id, or --sp and --email, is required');
      const spId = await providerId(ctx, values);
      const student = await userByEmail(ctx, email(values));
      return { revoked: await revokeAccessCodes(ctx, { spId, userId: student.id }) };
    }
    case 'access-code budget': {
      const budget = await accessCodeBudgetOf(ctx, await providerId(ctx, values));
      return { ...budget, resetsAt: new Date(budget.resetsAt).toISOString() };
    }
    case 'audit list':
      return {
        entries: await listAudit(ctx, {
          limit: positiveInteger(values, 'limit') ?? 50,
          event: auditEvent(values),
          userId: values.id,
          since: instant(values, 'since'),
          until: instant(values, 'until'),
        }),
      };
    case 'masquerade start': {
      const admin = await userByEmail(ctx, email(values, 'admin'));
      const target = await userByEmail(ctx, email(values, 'as'));
      const { sessions, endsAt } = await startMasquerade(ctx, admin, target);
      return { sessions, endsAt: new Date(endsAt).toISOString() };
    }
    case 'masquerade stop':
      return stopMasquerade(ctx, await userByEmail(ctx, email(values, 'admin')));
    case 'outbox retry': {
      const id = positiveInteger(values, 'id');
      const requeued = await retryFailed(ctx.db, ctx.now(), id);
      if (id !== undefined && !requeued) {
        const row = await ctx.db.selectFrom('outbox').select('id').where('id', '=', id).executeTakeFirst();
        throw new UsageError(
          row ? `outbox row ${id} has not failed: nothing to retry` : `no outbox row ${id}`,
        );
      }
      return { requeued };
    }
    case 'mailbox list':
      return { messages: await listMailbox(ctx.db, values.to) };
    case 'prune':
      return pruneExpired(ctx);
    case 'realm set': {
      // as lookups spell it: an international domain in its xn-- form
      const domain = normalizeDomain(required(values, 'domain'));
      const type = required(values, 'type');
      if (!(ACCOUNT_TYPES as readonly string[]).includes(type))
        throw new UsageError(`--type must be one of ${ACCOUNT_TYPES.join(', ')}`);
      await ctx.db
        .insertInto('realm_overrides')
        .values({ domain, account_type: type })
        .onConflict((oc) => oc.column('domain').doUpdateSet({ account_type: type }))
        .execute();
      return { domain, accountType: type };
    }
    case 'keys rotate': {
      const { published } = await productKeys(ctx, 'admin');
      const [newest] = published;
      // the first key of a deployment signs at once: nobody holds keys yet
      const signsFrom =
        published.length > 1 ? newest.createdAt + PRODUCT_KEY_PUBLISH_AHEAD_MS : newest.createdAt;
      return {
        kid: newest.jwk.kid,
        published: published.map((key) => key.jwk.kid),
        signsFrom: new Date(signsFrom).toISOString(),
      };
    }
    case 'db copy': {
      const problem = copyUsageProblem(ctx.config, values.to);
      if (problem) throw new UsageError(problem);
      return copyToPostgres(ctx, values.to ?? '');
    }
    default:
      throw new UsageError(command ? `unknown command: ${command}` : 'no command given');
  }
}

/** One line per field for people; JSON for programs. */
export function formatResult(result: Record<string, unknown>, json: boolean): string {
  if (json) return JSON.stringify(result);
  return Object.entries(result)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v, null, 2)}`)
    .join('\n');
}

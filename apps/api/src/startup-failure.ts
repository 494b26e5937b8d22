import { ConfigError, type AppConfig } from './config.ts';
import { MigrationError, NewerDatabaseError, freeBytesAt, isDiskFull } from './db/index.ts';
import { UNREACHABLE } from './db/dialect.ts';

/** The one line a refused start writes: what failed and what to do, and the fields that locate it. */
export interface StartupFailure {
  message: string;
  fields: Record<string, unknown>;
}

/** The settings a start-up failure can point at; absent when the configuration itself was refused. */
export type StartupSettings = Pick<AppConfig, 'port' | 'host' | 'dataDir' | 'databaseUrl'>;

/** What Node, better-sqlite3 and pg put on their errors (a code, the system call, a host name, a file). */
interface CodedError {
  message: string;
  code: string;
  syscall?: unknown;
  hostname?: unknown;
  path?: unknown;
  severity?: unknown;
}

const isCoded = (value: unknown): value is Error & CodedError =>
  value instanceof Error && typeof (value as { code?: unknown }).code === 'string';

/** The error itself, then its causes: the migrator's error wraps the driver's. */
function causes(err: unknown): Error[] {
  const chain: Error[] = [];
  for (let e = err; e instanceof Error && chain.length < 5; e = e.cause) chain.push(e);
  return chain;
}

/** The error itself or the first cause with a code. */
const codedError = (err: unknown): CodedError | undefined => causes(err).find(isCoded);

/** PostgreSQL's own refusals of a connection: a wrong user or password (SQLSTATE class 28), a missing database (3D). */
const PG_REFUSED = /^(28|3D)[0-9A-Z]{3}$/;

/** PostgreSQL's refusal of a write in a read-only transaction (a replica, default_transaction_read_only). */
const PG_READ_ONLY = '25006';
/**
 * A migration on PostgreSQL that lost to another instance's at the same moment: a deadlock, a lock not
 * available, a serialization failure. Starting again finds the database migrated. (SQLite's busy file
 * is DATA_DIR's: one server per file.)
 */
const MIGRATION_RACE = /^(40P01|55P03|40001)$/;

/**
 * What to do about DATABASE_URL for each TLS failure of a connection. node-postgres (pg 8) checks the
 * server's certificate and name for sslmode=require too, as libpq does only for verify-full (pg 9 will
 * not: verify-full says it in both); uselibpqcompat=true gives sslmode libpq's meaning now (require:
 * encrypted, nothing checked).
 */
const PG_TLS_ADVICE: [Set<string>, string][] = [
  [
    new Set([
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'SELF_SIGNED_CERT_IN_CHAIN',
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    ]),
    'its TLS certificate is signed by no authority this machine trusts, and node-postgres checks it for sslmode=require too: put the certificate of the authority that signed it on this machine and write sslmode=verify-full&sslrootcert=<its path> in DATABASE_URL (docs/DEPLOYMENT.md, "PostgreSQL")',
  ],
  [new Set(['CERT_HAS_EXPIRED']), 'its TLS certificate has expired: renew it at the server'],
  [
    new Set(['ERR_TLS_CERT_ALTNAME_INVALID']),
    'its TLS certificate is for another host name: name the server in DATABASE_URL as its certificate does',
  ],
];

/** pg's error when sslmode (or ssl=true) asks for TLS and the server answers that it has none. */
const PG_NO_TLS = 'The server does not support SSL connections';

const DISK_FULL_ADVICE = 'its disk is full: free space there';

/** What to do about DATA_DIR for each code creating it, opening the file or migrating it can end in. */
const DATA_DIR_ADVICE: [RegExp, string][] = [
  [
    /^SQLITE_(CORRUPT|NOTADB)/,
    'frontdoor.sqlite there is damaged or not a SQLite database: restore it from a backup',
  ],
  [/^SQLITE_BUSY/, 'another process holds the database: run one server per DATA_DIR'],
  [/^SQLITE_IOERR/, 'the disk failed to read or write: check it'],
  [
    /^SQLITE_READONLY/,
    'this user cannot write frontdoor.sqlite there or its -wal and -shm files (a restore or an admin command run as another user leaves them owned by that user): make this user their owner',
  ],
  [
    /^(EACCES|EPERM|EROFS|ENOTDIR|EEXIST|EISDIR|SQLITE_(CANTOPEN|PERM))/,
    'it must be a directory this user can create and write: set DATA_DIR to one, or correct its owner and permissions',
  ],
];

/** DATABASE_URL as a log line may show it: host, port and database, never the user or password. */
export function databaseLocation(databaseUrl: string): string {
  const url = URL.parse(databaseUrl);
  return url ? `${url.host}${url.pathname}` : '(unreadable DATABASE_URL)';
}

/**
 * The operator's sentence for an error that stopped the server (or the admin CLI) before it could
 * serve: a refused setting, a port in use, a DATA_DIR or PostgreSQL it cannot use (TLS included, a
 * full disk told by `freeBytes`), a migration that failed. Anything else is "start-up failed" with
 * the error itself, stack included.
 */
export function startupFailure(
  err: unknown,
  settings?: StartupSettings,
  freeBytes: (dir: string) => number = freeBytesAt,
): StartupFailure {
  if (err instanceof ConfigError) return { message: err.message, fields: {} };
  if (err instanceof NewerDatabaseError)
    return { message: err.message, fields: { migrations: err.migrations } };
  if (settings?.databaseUrl && causes(err).some((e) => e.message === PG_NO_TLS)) {
    const database = databaseLocation(settings.databaseUrl);
    return {
      message: `PostgreSQL at ${database} (DATABASE_URL) does not offer TLS, which DATABASE_URL asks for with sslmode or ssl: turn ssl on at the server, or take sslmode out of DATABASE_URL where the network to the server is trusted`,
      fields: { setting: 'DATABASE_URL', database },
    };
  }
  const coded = codedError(err);
  if (settings && coded) {
    const { code, syscall } = coded;
    const { port, host, dataDir, databaseUrl } = settings;
    const fields = { errorCode: code };
    if (syscall === 'listen' && code === 'EADDRINUSE')
      return {
        message: `PORT ${port} is already in use on ${host}: stop the process listening there, or set PORT to a free port`,
        fields: { ...fields, setting: 'PORT', port, host },
      };
    if (syscall === 'listen' && code === 'EACCES')
      return {
        message: `PORT ${port} needs privileges this user lacks (a port below 1024): set PORT above 1023 (8080 behind a reverse proxy)`,
        fields: { ...fields, setting: 'PORT', port, host },
      };
    if (
      (syscall === 'listen' && code === 'EADDRNOTAVAIL') ||
      (syscall === 'getaddrinfo' && coded.hostname === host)
    )
      return {
        message: `HOST ${host} is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0 for all of them`,
        fields: { ...fields, setting: 'HOST', host },
      };
    if (databaseUrl) {
      const database = databaseLocation(databaseUrl);
      if (UNREACHABLE.has(code))
        return {
          message: `PostgreSQL at ${database} (DATABASE_URL) cannot be reached (${coded.message}): start it, or correct the host and port in DATABASE_URL`,
          fields: { ...fields, setting: 'DATABASE_URL', database },
        };
      // sslrootcert, sslcert, sslkey: files node-postgres reads as it connects
      const parameter = [...(URL.parse(databaseUrl)?.searchParams ?? [])].find(
        ([name, value]) => name.startsWith('ssl') && value === coded.path,
      )?.[0];
      if (parameter && coded.syscall === 'open')
        return {
          message: `PostgreSQL at ${database} (DATABASE_URL) cannot be reached: the file ${parameter} names cannot be read (${coded.message}): correct its path in DATABASE_URL, or let this user read it`,
          fields: { ...fields, setting: 'DATABASE_URL', database },
        };
      const tls = PG_TLS_ADVICE.find(([codes]) => codes.has(code))?.[1];
      if (tls)
        return {
          // without Node's own advice, "; if the root CA is installed locally, try running Node.js with
          // --use-system-ca": node-postgres gives the CA in DATABASE_URL
          message: `PostgreSQL at ${database} (DATABASE_URL) could not be reached over TLS (${coded.message.split('; ')[0]}): ${tls}`,
          fields: { ...fields, setting: 'DATABASE_URL', database },
        };
      if (code === PG_READ_ONLY)
        return {
          message: `PostgreSQL at ${database} (DATABASE_URL) takes no writes (${coded.message}): point DATABASE_URL at the primary server, not a read-only replica, with default_transaction_read_only off`,
          fields: { ...fields, setting: 'DATABASE_URL', database },
        };
      if (isDiskFull(coded))
        return {
          message: `PostgreSQL at ${database} (DATABASE_URL) takes no writes (${coded.message}): its disk is full: free space on the database server`,
          fields: { ...fields, setting: 'DATABASE_URL', database },
        };
      if (typeof coded.severity === 'string' && PG_REFUSED.test(code))
        return {
          message: `PostgreSQL at ${database} (DATABASE_URL) refused the connection (${coded.message}): correct the user, password or database name in DATABASE_URL`,
          fields: { ...fields, setting: 'DATABASE_URL', database },
        };
    } else {
      const advice = isDiskFull(coded, dataDir, freeBytes)
        ? DISK_FULL_ADVICE
        : DATA_DIR_ADVICE.find(([codes]) => codes.test(code))?.[1];
      if (advice)
        return {
          message: `DATA_DIR ${dataDir} cannot be used (${coded.message}): ${advice}`,
          fields: { ...fields, setting: 'DATA_DIR', dataDir },
        };
    }
  }
  if (err instanceof MigrationError && err.migration) {
    const cause = err.cause instanceof Error ? err.cause.message : String(err.cause);
    if (coded && MIGRATION_RACE.test(coded.code))
      return {
        message: `database migration ${err.migration} met another process using the database (${cause}), another instance or the admin CLI migrating it at the same moment; nothing of it was kept: start again`,
        fields: { migration: err.migration, errorCode: coded.code },
      };
    return {
      message: `database migration ${err.migration} failed (${cause}), and nothing of it or of the migrations run with it was kept, the database is as it was before: start the release that ran on it before, and report this line to the maintainers of Frontdoor`,
      fields: { migration: err.migration, ...(coded && { errorCode: coded.code }) },
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { message: `start-up failed: ${message}`, fields: { err } };
}

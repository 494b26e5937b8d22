import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TLSSocket } from 'node:tls';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { MigrationError, createDb, migrateTo, migrateToLatest } from './db/index.ts';
import { startupFailure, type StartupSettings } from './startup-failure.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'fd-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sqlite: StartupSettings = { port: 8080, host: '127.0.0.1', dataDir: dir, databaseUrl: undefined };
const PASSWORD = 's3cret-Passw0rd';
const postgres: StartupSettings = {
  ...sqlite,
  databaseUrl: `postgres://frontdoor:${PASSWORD}@127.0.0.1:1/frontdoor`,
};

/** The error `fn` throws or rejects with. */
async function thrownBy(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new Error('nothing was thrown');
}

/** An error as Node, better-sqlite3 or pg make it: a message and a code, sometimes a system call. */
const coded = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);

describe('startupFailure', () => {
  it('says a refused setting in its own words', async () => {
    const refused = await thrownBy(() => loadConfig({ PORT: 'eighty' }));
    expect(startupFailure(refused)).toEqual({ message: 'PORT is not a port number: eighty', fields: {} });
  });

  it('names PORT when the port is in use or needs privileges, HOST when it is not this machine', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    const inUse = await thrownBy(
      () =>
        new Promise((resolve, reject) => {
          const second = createServer().once('error', reject);
          second.listen(port, '127.0.0.1', () => resolve(second.close()));
        }),
    );
    holder.close();
    expect(startupFailure(inUse, { ...sqlite, port })).toEqual({
      message: `PORT ${port} is already in use on 127.0.0.1: stop the process listening there, or set PORT to a free port`,
      fields: { errorCode: 'EADDRINUSE', setting: 'PORT', port, host: '127.0.0.1' },
    });

    const privileged = coded('listen EACCES: permission denied 0.0.0.0:80', {
      code: 'EACCES',
      syscall: 'listen',
    });
    expect(startupFailure(privileged, { ...sqlite, port: 80 }).message).toMatch(
      /^PORT 80 needs privileges this user lacks .*: set PORT above 1023/,
    );
    const elsewhere = { ...sqlite, host: '10.255.255.1' };
    const notHere = coded('listen EADDRNOTAVAIL: address not available 10.255.255.1', {
      code: 'EADDRNOTAVAIL',
      syscall: 'listen',
    });
    const unknownName = coded('getaddrinfo ENOTFOUND portal.invalid', {
      code: 'ENOTFOUND',
      syscall: 'getaddrinfo',
      hostname: 'portal.invalid',
    });
    expect(startupFailure(notHere, elsewhere)).toEqual({
      message:
        'HOST 10.255.255.1 is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0 for all of them',
      fields: { errorCode: 'EADDRNOTAVAIL', setting: 'HOST', host: '10.255.255.1' },
    });
    expect(startupFailure(unknownName, { ...sqlite, host: 'portal.invalid' }).fields).toMatchObject({
      setting: 'HOST',
    });
  });

  it('names DATA_DIR and what to do when it cannot be created, opened or written', async () => {
    const file = path.join(dir, 'a-file');
    writeFileSync(file, '');
    const belowFile = path.join(file, 'data');
    const notADirectory = await thrownBy(() => createDb({ dataDir: belowFile }));
    expect(startupFailure(notADirectory, { ...sqlite, dataDir: belowFile })).toEqual({
      message: `DATA_DIR ${belowFile} cannot be used (ENOTDIR: not a directory, mkdir '${belowFile}'): it must be a directory this user can create and write: set DATA_DIR to one, or correct its owner and permissions`,
      fields: { errorCode: 'ENOTDIR', setting: 'DATA_DIR', dataDir: belowFile },
    });
    // the database file's place is taken by a directory
    const taken = path.join(dir, 'taken');
    mkdirSync(path.join(taken, 'frontdoor.sqlite'), { recursive: true });
    const cannotOpen = await thrownBy(() => createDb({ dataDir: taken }));
    expect(startupFailure(cannotOpen, { ...sqlite, dataDir: taken }).message).toBe(
      `DATA_DIR ${taken} cannot be used (unable to open database file): it must be a directory this user can create and write: set DATA_DIR to one, or correct its owner and permissions`,
    );
    const full = coded('database or disk is full', { code: 'SQLITE_FULL' });
    const readOnly = coded("EACCES: permission denied, mkdir '/srv/data'", {
      code: 'EACCES',
      syscall: 'mkdir',
    });
    expect(startupFailure(new Error('database migration failed', { cause: full }), sqlite).message).toBe(
      `DATA_DIR ${dir} cannot be used (database or disk is full): its disk is full: free space there`,
    );
    expect(startupFailure(readOnly, sqlite).fields).toMatchObject({ setting: 'DATA_DIR' });
  });

  it('names a full disk as full when SQLite says it with an I/O error (its -shm file cannot grow), by the space left there', () => {
    const shm = coded('disk I/O error', { code: 'SQLITE_IOERR_SHMSIZE' });
    expect(startupFailure(shm, sqlite, () => 0)).toEqual({
      message: `DATA_DIR ${dir} cannot be used (disk I/O error): its disk is full: free space there`,
      fields: { errorCode: 'SQLITE_IOERR_SHMSIZE', setting: 'DATA_DIR', dataDir: dir },
    });
    expect(startupFailure(shm, sqlite, () => 50e9).message).toBe(
      `DATA_DIR ${dir} cannot be used (disk I/O error): the disk failed to read or write: check it`,
    );
  });

  it('names DATABASE_URL by its host and database when PostgreSQL cannot be reached, refuses or takes no writes, never its password', async () => {
    const db = createDb({ databaseUrl: postgres.databaseUrl, dataDir: dir });
    const refused = await thrownBy(() => migrateToLatest(db, { secret: 'x' }));
    await db.destroy();
    const failure = startupFailure(refused, postgres);
    expect(failure).toEqual({
      message:
        'PostgreSQL at 127.0.0.1:1/frontdoor (DATABASE_URL) cannot be reached (connect ECONNREFUSED 127.0.0.1:1): start it, or correct the host and port in DATABASE_URL',
      fields: { errorCode: 'ECONNREFUSED', setting: 'DATABASE_URL', database: '127.0.0.1:1/frontdoor' },
    });
    const wrongPassword = coded('password authentication failed for user "frontdoor"', {
      code: '28P01',
      severity: 'FATAL',
    });
    const wrongPasswordFailure = startupFailure(wrongPassword, postgres);
    expect(wrongPasswordFailure.message).toBe(
      'PostgreSQL at 127.0.0.1:1/frontdoor (DATABASE_URL) refused the connection (password authentication failed for user "frontdoor"): correct the user, password or database name in DATABASE_URL',
    );
    // a replica, or default_transaction_read_only (assertWritable's refusal)
    const readOnly = coded('cannot execute DELETE in a read-only transaction', {
      code: '25006',
      severity: 'ERROR',
    });
    const readOnlyFailure = startupFailure(readOnly, postgres);
    expect(readOnlyFailure).toEqual({
      message:
        'PostgreSQL at 127.0.0.1:1/frontdoor (DATABASE_URL) takes no writes (cannot execute DELETE in a read-only transaction): point DATABASE_URL at the primary server, not a read-only replica, with default_transaction_read_only off',
      fields: { errorCode: '25006', setting: 'DATABASE_URL', database: '127.0.0.1:1/frontdoor' },
    });
    const full = coded('could not extend file "base/16384/2619": No space left on device', {
      code: '53100',
      severity: 'ERROR',
    });
    expect(startupFailure(new Error('database migration failed', { cause: full }), postgres)).toEqual({
      message:
        'PostgreSQL at 127.0.0.1:1/frontdoor (DATABASE_URL) takes no writes (could not extend file "base/16384/2619": No space left on device): its disk is full: free space on the database server',
      fields: { errorCode: '53100', setting: 'DATABASE_URL', database: '127.0.0.1:1/frontdoor' },
    });
    for (const { message, fields } of [failure, wrongPasswordFailure, readOnlyFailure])
      expect(message + JSON.stringify(fields)).not.toContain(PASSWORD);
  });

  it('names DATABASE_URL and what to do when PostgreSQL offers no TLS or a certificate that fails the check', async () => {
    // a certificate of the district's own making, as `openssl req -x509` makes one
    const key = path.join(dir, 'db-key.pem');
    const cert = path.join(dir, 'db-cert.pem');
    // prettier-ignore
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
      '-nodes', '-days', '2', '-subj', '/CN=db.district.test', '-addext', 'subjectAltName=DNS:db.district.test',
      '-keyout', key, '-out', cert], { encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    /** A PostgreSQL that answers a client's SSLRequest with `answer` ('S': TLS follows, 'N': none). */
    const handshakes: string[] = [];
    const fakePostgres = async (answer: 'S' | 'N') => {
      const server = createServer((socket) => {
        socket.on('error', () => {});
        socket.once('data', () => {
          socket.write(answer);
          if (answer === 'N') return;
          const secure = new TLSSocket(socket, {
            isServer: true,
            key: readFileSync(key),
            cert: readFileSync(cert),
          });
          secure.on('error', () => {});
          secure.once('secure', () => handshakes.push('secure'));
          // the startup message: hang up, the test is over once TLS is
          secure.on('data', () => secure.destroy());
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return { server, port: (server.address() as AddressInfo).port };
    };
    const failureWith = async (databaseUrl: string) => {
      const db = createDb({ databaseUrl, dataDir: dir });
      try {
        return startupFailure(await thrownBy(() => migrateToLatest(db, { secret: 'x' })), {
          ...postgres,
          databaseUrl,
        });
      } finally {
        await db.destroy();
      }
    };
    const tls = await fakePostgres('S');
    const plain = await fakePostgres('N');
    const at = (port: number, query: string) =>
      `postgres://frontdoor:${PASSWORD}@127.0.0.1:${port}/frontdoor?${query}`;
    try {
      const untrusted = await failureWith(at(tls.port, 'sslmode=require'));
      expect(untrusted).toEqual({
        message: `PostgreSQL at 127.0.0.1:${tls.port}/frontdoor (DATABASE_URL) could not be reached over TLS (self-signed certificate): its TLS certificate is signed by no authority this machine trusts, and node-postgres checks it for sslmode=require too: put the certificate of the authority that signed it on this machine and write sslmode=verify-full&sslrootcert=<its path> in DATABASE_URL (docs/DEPLOYMENT.md, "PostgreSQL")`,
        fields: {
          errorCode: 'DEPTH_ZERO_SELF_SIGNED_CERT',
          setting: 'DATABASE_URL',
          database: `127.0.0.1:${tls.port}/frontdoor`,
        },
      });
      // with the authority's certificate the check passes, and then asks for the name it certifies
      const misnamed = await failureWith(at(tls.port, `sslmode=verify-full&sslrootcert=${cert}`));
      expect(misnamed.fields).toMatchObject({
        errorCode: 'ERR_TLS_CERT_ALTNAME_INVALID',
        setting: 'DATABASE_URL',
      });
      expect(misnamed.message).toMatch(
        /\(DATABASE_URL\) could not be reached over TLS \(Hostname\/IP does not match .*\): its TLS certificate is for another host name: name the server in DATABASE_URL as its certificate does$/,
      );
      // the other way out the line gives: encrypted, unchecked, as libpq's sslmode=require
      expect(handshakes).toEqual([]);
      const unchecked = await failureWith(at(tls.port, 'uselibpqcompat=true&sslmode=require'));
      expect(handshakes).toEqual(['secure']);
      expect(unchecked.message).not.toContain('TLS');

      const noTls = await failureWith(at(plain.port, 'sslmode=require'));
      expect(JSON.stringify([untrusted, misnamed, noTls])).not.toContain(PASSWORD);
      expect(noTls).toEqual({
        message: `PostgreSQL at 127.0.0.1:${plain.port}/frontdoor (DATABASE_URL) does not offer TLS, which DATABASE_URL asks for with sslmode or ssl: turn ssl on at the server, or take sslmode out of DATABASE_URL where the network to the server is trusted`,
        fields: { setting: 'DATABASE_URL', database: `127.0.0.1:${plain.port}/frontdoor` },
      });
    } finally {
      tls.server.close();
      plain.server.close();
    }
    const missing = await failureWith(at(1, 'sslmode=verify-full&sslrootcert=/no/such/ca.pem'));
    expect(missing).toEqual({
      message: `PostgreSQL at 127.0.0.1:1/frontdoor (DATABASE_URL) cannot be reached: the file sslrootcert names cannot be read (ENOENT: no such file or directory, open '/no/such/ca.pem'): correct its path in DATABASE_URL, or let this user read it`,
      fields: { errorCode: 'ENOENT', setting: 'DATABASE_URL', database: '127.0.0.1:1/frontdoor' },
    });
    const expired = coded('certificate has expired', { code: 'CERT_HAS_EXPIRED' });
    expect(startupFailure(expired, postgres).message).toBe(
      'PostgreSQL at 127.0.0.1:1/frontdoor (DATABASE_URL) could not be reached over TLS (certificate has expired): its TLS certificate has expired: renew it at the server',
    );
  });

  it('says a database a newer release migrated is ahead of this one, naming the migration, with what to do', async () => {
    const dataDir = mkdtempSync(path.join(dir, 'newer-'));
    const db = createDb({ dataDir });
    try {
      await migrateToLatest(db, { secret: 'startup-test-secret' });
      await sql`insert into kysely_migration (name, timestamp) values ('999_from_the_future', '2027-01-01')`.execute(
        db,
      );
      const failure = startupFailure(
        await thrownBy(() => migrateToLatest(db, { secret: 'startup-test-secret' })),
      );
      expect(failure).toEqual({
        message:
          'the database was migrated by a newer release of Frontdoor (migration 999_from_the_future, unknown to this one): run that release again, or restore the backup taken before its upgrade',
        fields: { migrations: ['999_from_the_future'] },
      });
    } finally {
      await db.destroy();
    }
  });

  it('says a failed migration kept nothing, with what to do, in one line without a stack', async () => {
    const dataDir = mkdtempSync(path.join(dir, 'failed-migration-'));
    const db = createDb({ dataDir });
    try {
      await migrateTo(db, { secret: 'startup-test-secret' }, '015_crm_contact');
      // in the way of 016's second index, once its first is made
      await sql`create index outbox_user on users (email)`.execute(db);
      const failure = startupFailure(
        await thrownBy(() => migrateToLatest(db, { secret: 'startup-test-secret' })),
        { ...sqlite, dataDir },
      );
      expect(failure).toEqual({
        message:
          'database migration 016_foreign_key_indexes failed (index outbox_user already exists), and nothing of it or of the migrations run with it was kept, the database is as it was before: start the release that ran on it before, and report this line to the maintainers of Frontdoor',
        fields: { migration: '016_foreign_key_indexes', errorCode: 'SQLITE_ERROR' },
      });
    } finally {
      await db.destroy();
    }
  });

  it("says a PostgreSQL migration that lost to another instance's at the same moment (a deadlock, a lock) kept nothing and to start again", () => {
    for (const code of ['40P01', '55P03']) {
      const race = new MigrationError(
        '018_last_sign_in',
        coded('deadlock detected', { code, severity: 'ERROR' }),
      );
      expect(startupFailure(race, postgres), code).toEqual({
        message:
          'database migration 018_last_sign_in met another process using the database (deadlock detected), another instance or the admin CLI migrating it at the same moment; nothing of it was kept: start again',
        fields: { migration: '018_last_sign_in', errorCode: code },
      });
    }
  });

  it('reports anything else as a failed start with the error itself', () => {
    const bug = new TypeError('cannot read properties of undefined');
    expect(startupFailure(bug, sqlite)).toEqual({
      message: 'start-up failed: cannot read properties of undefined',
      fields: { err: bug },
    });
    // a SQL error of a migration is no fault of DATA_DIR
    const sqlError = coded('no such table: users', { code: 'SQLITE_ERROR' });
    expect(startupFailure(sqlError, sqlite).message).toBe('start-up failed: no such table: users');
    expect(startupFailure('thrown text').message).toBe('start-up failed: thrown text');
  });
});

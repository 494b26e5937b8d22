import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createDb } from '../db/index.ts';
import { testClock, TEST_START, capturedLines } from '../../test/harness.ts';
import { DISK_FULL_MS, diskFullLately, noteDiskFull } from './disk-full.ts';

const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('noteDiskFull', () => {
  it("on PostgreSQL, takes its disk_full (53100) for a full disk and names the database, never DATABASE_URL's password, once a minute", async () => {
    const { lines, logger } = capturedLines('info');
    const config = loadConfig({
      DATABASE_URL: 'postgres://frontdoor:s3cret-Passw0rd@db.district.test:5432/frontdoor',
      SECRET: 'frontdoor-test-secret-0123456789abcdef',
    });
    // never connected: the pool opens a connection at the first query only
    const db = createDb({ databaseUrl: config.databaseUrl, dataDir: '.' });
    const clock = testClock(TEST_START);
    const ctx = { config, db, now: clock.now };
    try {
      expect(noteDiskFull(ctx, logger, coded('duplicate key value', '23505'))).toBe(false);
      expect(diskFullLately(db, clock.now())).toBe(false);
      const full = coded('could not extend file "base/16384/2619": No space left on device', '53100');
      expect(noteDiskFull(ctx, logger, full)).toBe(true);
      clock.advance(DISK_FULL_MS - 1);
      expect(noteDiskFull(ctx, logger, new Error('a query failed', { cause: full }))).toBe(true);
      expect(lines).toEqual([
        expect.objectContaining({
          level: 50,
          setting: 'DATABASE_URL',
          database: 'db.district.test:5432/frontdoor',
          msg: expect.stringMatching(
            /^the disk of PostgreSQL at db\.district\.test:5432\/frontdoor \(DATABASE_URL\) is full: .* until space is freed on the database server$/,
          ),
        }),
      ]);
      expect(JSON.stringify(lines)).not.toContain('s3cret');
      // counted from the last refusal: a disk that stays full stays not ready
      clock.advance(DISK_FULL_MS - 1);
      expect(diskFullLately(db, clock.now())).toBe(true);
      clock.advance(1);
      expect(diskFullLately(db, clock.now())).toBe(false);
      // and said again a minute after it was last said
      expect(noteDiskFull(ctx, logger, full)).toBe(true);
      expect(lines).toHaveLength(2);
    } finally {
      await db.destroy();
    }
  });

  it('on SQLite, takes an I/O error for a full disk when DATA_DIR has less than 1 MB left, as a start does, and reads the space for an I/O error only', async () => {
    const { lines, logger } = capturedLines('info');
    const config = loadConfig({
      DATA_DIR: '/var/lib/frontdoor',
      SECRET: 'frontdoor-test-secret-0123456789abcdef',
    });
    const db = createDb({ dataDir: '.', sqliteFile: ':memory:' });
    const clock = testClock(TEST_START);
    const ctx = { config, db, now: clock.now };
    let free = 2 * 1024 * 1024;
    const asked: string[] = [];
    const freeBytes = (dir: string) => {
      asked.push(dir);
      return free;
    };
    try {
      // SQLite's words when its -shm file cannot grow
      const shm = coded('disk I/O error', 'SQLITE_IOERR_SHMSIZE');
      expect(
        noteDiskFull(ctx, logger, coded('UNIQUE constraint failed', 'SQLITE_CONSTRAINT_UNIQUE'), freeBytes),
      ).toBe(false);
      expect(asked).toEqual([]);
      // a failing disk with room left is no full one
      expect(noteDiskFull(ctx, logger, shm, freeBytes)).toBe(false);
      expect(diskFullLately(db, clock.now())).toBe(false);
      free = 1024 * 1024 - 1;
      expect(noteDiskFull(ctx, logger, new Error('a write failed', { cause: shm }), freeBytes)).toBe(true);
      expect(asked).toEqual(['/var/lib/frontdoor', '/var/lib/frontdoor']);
      expect(diskFullLately(db, clock.now())).toBe(true);
      expect(lines).toEqual([
        expect.objectContaining({
          level: 50,
          setting: 'DATA_DIR',
          dataDir: '/var/lib/frontdoor',
          msg: expect.stringMatching(/^the disk of DATA_DIR \/var\/lib\/frontdoor is full: /),
        }),
      ]);
    } finally {
      await db.destroy();
    }
  });
});

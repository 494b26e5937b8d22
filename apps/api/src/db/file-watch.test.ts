import { mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../services/logger.ts';
import { watchDatabaseFile } from './file-watch.ts';
import { closeDatabase, createDb, databaseFileProblem, type Db } from './index.ts';

describe('the SQLite file removed or replaced under a running server', () => {
  let dataDir: string;
  let db: Db;
  let lines: Record<string, unknown>[];
  let check: () => Promise<void>;
  let closed = false;
  const file = () => path.join(dataDir, 'frontdoor.sqlite');
  beforeEach(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'fd-file-watch-'));
    closed = false;
    db = createDb({ dataDir });
    await sql`create table notes (v text)`.execute(db);
    await sql`insert into notes values ('kept')`.execute(db);
    lines = [];
    const logger = createLogger({
      level: 'info',
      destination: { write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    });
    // a clock that moves on at each reading: two copies would have two names
    let clock = Date.parse('2026-11-26T12:00:00Z');
    check = watchDatabaseFile(db, logger, () => clock++);
  });
  afterEach(async () => {
    if (!closed) await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const notesIn = async (location: string) => {
    const copy = createDb({ dataDir: path.dirname(location), sqliteFile: path.basename(location) });
    try {
      return (await sql<{ v: string }>`select v from notes`.execute(copy)).rows.map((row) => row.v);
    } finally {
      await copy.destroy();
    }
  };

  it('says nothing while the file is in place', async () => {
    await check();
    expect(databaseFileProblem(db)).toBeUndefined();
    expect(lines).toEqual([]);
  });

  it('saves what the server holds, its last commits included, when the whole directory is removed', async () => {
    rmSync(dataDir, { recursive: true });
    // written after the removal: only the open file has it
    await sql`insert into notes values ('after')`.execute(db);
    expect(databaseFileProblem(db)).toEqual({ problem: 'removed', location: file() });

    // two checks at once (a copy longer than the minute between them) make one copy
    await Promise.all([check(), check()]);
    expect(readdirSync(dataDir).filter((name) => name.includes('.rescued-'))).toHaveLength(1);
    const errors = lines.filter((line) => line.level === 50);
    expect(errors).toHaveLength(2);
    const rescuedTo = `${file()}.rescued-2026-11-26T12-00-00-000Z`;
    expect(errors[0]).toMatchObject({ databaseAt: file(), rescuedTo });
    expect(errors[0]?.msg).toMatch(/^the database file was removed under the running server/);
    // one copy, named by every line after it
    expect(errors[1]).toMatchObject({ rescuedTo });
    expect(await notesIn(rescuedTo)).toEqual(['kept', 'after']);
  });

  it('tells a file put in its place from the one the server writes to', async () => {
    writeFileSync(path.join(dataDir, 'other'), '');
    renameSync(path.join(dataDir, 'other'), file());
    expect(databaseFileProblem(db)).toEqual({ problem: 'replaced', location: file() });
    await check();
    expect(lines[0]?.msg).toMatch(/^the database file was replaced under the running server/);
    expect(await notesIn(String(lines[0]?.rescuedTo))).toEqual(['kept']);
  });

  it('stops with a last copy of all it wrote and no journal of its own at the path: that copy moved there, as the error line says, starts sound', async () => {
    // the minute's check, while the file is in place
    await check();
    rmSync(file());
    await check();
    // a morning of sign-ins written to the removed file after the first copy: its journal grows at the path
    for (let i = 0; i < 300; i++) await sql`insert into notes values (${'x'.repeat(2000)})`.execute(db);
    const { rescuedTo, setAside } = await closeDatabase(db, Date.parse('2026-11-26T12:05:00Z'));
    closed = true;
    expect(rescuedTo).toBe(`${file()}.rescued-2026-11-26T12-05-00-000Z`);
    expect(setAside).toContain(`${file()}-wal.set-aside-2026-11-26T12-05-00-000Z`);
    expect(readdirSync(dataDir).filter((name) => /\.sqlite-(wal|shm)$/.test(name))).toEqual([]);
    renameSync(String(rescuedTo), file());
    const started = createDb({ dataDir });
    try {
      const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(started);
      expect(check.rows).toEqual([{ integrity_check: 'ok' }]);
      // nothing written before the stop is lost
      const { rows } = await sql<{ n: number }>`select count(*) as n from notes`.execute(started);
      expect(rows).toEqual([{ n: 301 }]);
    } finally {
      await started.destroy();
    }
  });

  it('leaves alone the journal a file put in its place brought: only its own is moved aside', async () => {
    await check();
    // a backup restored with its journal while the server runs (DEPLOYMENT's restore, done too early)
    const restored = createDb({ dataDir, sqliteFile: 'restored.sqlite' });
    await sql`create table restored (v text)`.execute(restored);
    await sql`insert into restored values ('the backup')`.execute(restored);
    for (const name of readdirSync(dataDir).filter((n) => n.startsWith('restored.sqlite')))
      renameSync(
        path.join(dataDir, name),
        path.join(dataDir, name.replace('restored.sqlite', 'frontdoor.sqlite')),
      );
    const { setAside } = await closeDatabase(db, Date.parse('2026-11-26T12:05:00Z'));
    closed = true;
    expect(setAside).toEqual([]);
    const journal = readdirSync(dataDir).filter((name) => /^frontdoor\.sqlite-(wal|shm)$/.test(name));
    expect(journal.sort()).toEqual(['frontdoor.sqlite-shm', 'frontdoor.sqlite-wal']);
    await restored.destroy();
  });
});

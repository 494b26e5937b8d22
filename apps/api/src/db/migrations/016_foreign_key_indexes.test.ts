import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDb } from '../../../test/test-db.ts';
import { DIALECTS } from '../../../test/harness.ts';
import type { Db } from '../index.ts';

/** Each foreign key as `table.column`, and whether an index starts with that column. */
async function foreignKeys(db: Db, dialect: string): Promise<{ column: string; indexed: boolean }[]> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ column: string; indexed: number }>`
      select t.name || '.' || fk."from" as "column",
        exists (select 1 from pragma_index_list(t.name) i, pragma_index_info(i.name) c
                where c.seqno = 0 and c.name = fk."from") as indexed
      from sqlite_master t, pragma_foreign_key_list(t.name) fk
      where t.type = 'table'`.execute(db);
    return rows.map((row) => ({ column: row.column, indexed: row.indexed === 1 }));
  }
  const { rows } = await sql<{ column: string; indexed: boolean }>`
    select c.conrelid::regclass::text || '.' || a.attname as "column",
      exists (select 1 from pg_index i where i.indrelid = c.conrelid and i.indkey[0] = c.conkey[1]) as indexed
    from pg_constraint c
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
    where c.contype = 'f' and c.connamespace = 'public'::regnamespace`.execute(db);
  return rows;
}

describe.each(DIALECTS)('migration 016 ($dialect)', ({ dialect, skip }) => {
  it.skipIf(skip)(
    'every column that refers to another row leads an index: a deletion of the row it refers to (the hourly pruning of unconfirmed sign-ups) scans no table whole',
    async () => {
      const { db, drop } = await createTestDb(dialect);
      try {
        const keys = await foreignKeys(db, dialect);
        expect(keys.map((key) => key.column)).toContain('sessions.masq_user_id');
        expect(keys.filter((key) => !key.indexed).map((key) => key.column)).toEqual([]);
      } finally {
        await drop();
      }
    },
  );

  it.skipIf(skip)('before it, five such columns led no index', async () => {
    const { db, drop } = await createTestDb(dialect, undefined, '015_crm_contact');
    try {
      expect((await foreignKeys(db, dialect)).filter((key) => !key.indexed).length).toBe(5);
    } finally {
      await drop();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { TEST_SECRET, createTestDb } from '../../../test/test-db.ts';
import { DIALECTS } from '../../../test/harness.ts';
import { newUserRow } from '../../services/users.ts';
import { migrateTo } from '../index.ts';
import { SPELLING_KEPT } from './019_email_domains.ts';

describe.each(DIALECTS)('migration 020 on a database with accounts ($dialect)', ({ dialect, skip }) => {
  it.skipIf(skip)(
    'spells stored full-width local parts in ASCII, leaving two accounts of one inbox as they were and saying so in the audit log',
    async () => {
      const { db, drop } = await createTestDb(dialect, undefined, '019_email_domains');
      try {
        const account = (email: string, createdAt: number, confirmed = true) => {
          // the row as it was before migration 025's column
          const { disabled_at: _later, ...row } = newUserRow(
            { email, first: 'A', last: 'B', passwordHash: '$argon2id$x', confirmed },
            createdAt,
          );
          return row;
        };
        const holder = account('taro@school.org', 5);
        // one inbox, two accounts: the full-width one keeps its spelling for an operator to merge
        const fullWidth = account('ｔａｒｏ@school.org', 6);
        // nobody holds hana@school.org yet: the confirmed one takes it, though the other is older
        const older = account('ｈａｎａ@school.org', 1, false);
        const confirmed = account('hａna@school.org', 2);
        // folded, a mail library would read a comment: kept, as the contract keeps it
        const refused = account('ａ（ｂ）@school.org', 1);
        // what NFKC would also fold is another mailbox: kept
        const ligature = account('\uFB01\u2460\uFF76@school.org', 1);
        const users = [holder, fullWidth, older, confirmed, refused, ligature];
        await db.insertInto('users').values(users).execute();
        await db
          .insertInto('invites')
          .values({
            code: 'invite-1',
            email: 'ｉｎｖ@school.org',
            created_at: 1,
            expires_at: 2,
            used_at: null,
          })
          .execute();
        await db
          .insertInto('user_identities')
          .values({
            user_id: holder.id,
            provider: 'google',
            subject: 'g-1',
            email: 'ｅ＿１@school.org',
            created_at: 1,
            claims: null,
          })
          .execute();
        await db
          .insertInto('mailbox')
          .values({ to_address: 'ｔａｒｏ@school.org', subject: 's', text: 't', html: 'h', sent_at: 1 })
          .execute();

        await migrateTo(db, { secret: TEST_SECRET });
        const rows = await db.selectFrom('users').select(['id', 'email']).execute();
        const emailOf = (user: { id: string }) => rows.find((row) => row.id === user.id)?.email;
        expect(emailOf(holder)).toBe('taro@school.org');
        expect(emailOf(fullWidth)).toBe('ｔａｒｏ@school.org');
        expect(emailOf(confirmed)).toBe('hana@school.org');
        expect(emailOf(older)).toBe('ｈａｎａ@school.org');
        expect(emailOf(refused)).toBe('ａ（ｂ）@school.org');
        expect(emailOf(ligature)).toBe('\uFB01\u2460\uFF76@school.org');
        expect(await db.selectFrom('invites').select('email').execute()).toEqual([
          { email: 'inv@school.org' },
        ]);
        expect(await db.selectFrom('user_identities').select('email').execute()).toEqual([
          { email: 'e_1@school.org' },
        ]);
        expect(await db.selectFrom('mailbox').select('to_address').execute()).toEqual([
          { to_address: 'taro@school.org' },
        ]);

        // what an operator reads: `audit list --event spelling.kept`, naming the account that holds the address
        const entries = await db
          .selectFrom('audit_log')
          .select(['user_id', 'detail'])
          .where('event', '=', SPELLING_KEPT)
          .execute();
        const migration = '020_full_width_local_parts';
        expect(entries.map((entry) => ({ userId: entry.user_id, detail: JSON.parse(entry.detail) }))).toEqual(
          [
            { userId: fullWidth.id, detail: { migration, table: 'users', heldBy: holder.id } },
            { userId: older.id, detail: { migration, table: 'users', heldBy: confirmed.id } },
          ],
        );
      } finally {
        await drop();
      }
    },
  );
});

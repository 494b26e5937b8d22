import { describe, expect, it } from 'vitest';
import { TEST_SECRET, createTestDb } from '../../../test/test-db.ts';
import { DIALECTS } from '../../../test/harness.ts';
import { newUserRow } from '../../services/users.ts';
import { migrateTo } from '../index.ts';

describe.each(DIALECTS)('migration 012 on a database with accounts ($dialect)', ({ dialect, skip }) => {
  it.skipIf(skip)(
    "respells stored addresses as lookups now spell them, keeping an account's old spelling where another holds the new",
    async () => {
      const { db, drop } = await createTestDb(dialect, undefined, '011_names_proven');
      try {
        const account = (email: string) => {
          // the row as it was before migration 015's column (and 018's)
          const {
            crm_contact_at: _later,
            last_sign_in_at: _latest,
            disabled_at: _last,
            ...row
          } = newUserRow({ email, first: 'A', last: 'B', passwordHash: '$argon2id$x', confirmed: true }, 1);
          return row;
        };
        const international = account('a@bücher.example');
        const decomposed = account('u\u0308@school.test');
        // one address, two accounts: the older spelling stays for an operator to merge
        const held = account('zo\u00eb@school.test');
        const twin = account('zoe\u0308@school.test');
        const plain = account('c@school.test');
        await db.insertInto('users').values([international, decomposed, held, twin, plain]).execute();
        await db
          .insertInto('invites')
          .values({
            code: 'invite-1',
            email: 'a\u0308@school.test',
            created_at: 1,
            expires_at: 2,
            used_at: null,
          })
          .execute();
        await db
          .insertInto('user_identities')
          .values({
            user_id: plain.id,
            provider: 'google',
            subject: 'g-1',
            email: 'e\u0308@school.test',
            created_at: 1,
            claims: null,
          })
          .execute();

        await db
          .insertInto('realm_overrides')
          .values({ domain: 'schule-mu\u0308llheim.de', account_type: 'Federated' })
          .execute();

        // as 012 left them (019 spells domains anew: its own test)
        await migrateTo(db, { secret: TEST_SECRET }, '012_email_spelling');
        const users = await db.selectFrom('users').select(['id', 'email']).execute();
        const emailOf = (id: string) => users.find((user) => user.id === id)?.email;
        expect(emailOf(international.id)).toBe('a@bücher.example');
        expect(emailOf(decomposed.id)).toBe('\u00fc@school.test');
        expect(emailOf(held.id)).toBe('zo\u00eb@school.test');
        expect(emailOf(twin.id)).toBe('zoe\u0308@school.test');
        expect(emailOf(plain.id)).toBe('c@school.test');
        expect(await db.selectFrom('invites').select('email').execute()).toEqual([
          { email: '\u00e4@school.test' },
        ]);
        expect(await db.selectFrom('user_identities').select('email').execute()).toEqual([
          { email: '\u00eb@school.test' },
        ]);
        expect(await db.selectFrom('realm_overrides').select('domain').execute()).toEqual([
          { domain: 'schule-m\u00fcllheim.de' },
        ]);
      } finally {
        await drop();
      }
    },
  );
});

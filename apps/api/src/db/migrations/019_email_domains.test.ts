import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { TEST_SECRET, createTestDb } from '../../../test/test-db.ts';
import { DIALECTS } from '../../../test/harness.ts';
import { newUserRow } from '../../services/users.ts';
import { migrateTo } from '../index.ts';
import { SPELLING_KEPT, respell, spelling } from './019_email_domains.ts';

describe.each(DIALECTS)('migration 019 on a database with accounts ($dialect)', ({ dialect, skip }) => {
  it.skipIf(skip)(
    'spells stored domains as their mail is sent, leaving two accounts of one inbox as they were and saying so in the audit log',
    async () => {
      const { db, drop } = await createTestDb(dialect, undefined, '018_last_sign_in');
      try {
        const account = (email: string, createdAt: number, confirmed = true) => {
          // the row as it was before migration 025's column
          const { disabled_at: _later, ...row } = newUserRow(
            { email, first: 'A', last: 'B', passwordHash: '$argon2id$x', confirmed },
            createdAt,
          );
          return row;
        };
        const holder = account('victim@school.org', 5);
        // one inbox, three accounts: the two look-alikes keep their spelling for an operator to merge
        const fullWidth = account('victim@ｓchool.org', 6);
        const selector = account('victim@school\uFE00.org', 7);
        const international = account('a@bücher.example', 1);
        // nobody holds ana@school.org yet: the confirmed one takes it, though the other is older
        const older = account('ana@ſchool.org', 1, false);
        const confirmed = account('ana@ｓchool.org', 2);
        // a domain the contract now refuses (it maps to `x(1).org`): kept, found as it is spelled
        const refused = account('old@x⑴.org', 1);
        const plain = account('c@school.test', 1);
        const users = [holder, fullWidth, selector, international, older, confirmed, refused, plain];
        await db.insertInto('users').values(users).execute();
        await db
          .insertInto('invites')
          .values([
            { code: 'invite-1', email: 'inv@ｓchool.org', created_at: 1, expires_at: 2, used_at: null },
            // an invite names an address, no account: two of one inbox both take its spelling
            { code: 'invite-2', email: 'inv@school.org', created_at: 1, expires_at: 2, used_at: null },
          ])
          .execute();
        const identity = (subject: string, email: string | null) => ({
          user_id: plain.id,
          provider: 'google',
          subject,
          email,
          created_at: 1,
          claims: null,
        });
        await db
          .insertInto('user_identities')
          .values([identity('g-1', 'e@Bücher.example'), identity('g-2', null)])
          .execute();
        await db
          .insertInto('mailbox')
          .values({ to_address: 'victim@school\uFE00.org', subject: 's', text: 't', html: 'h', sent_at: 1 })
          .execute();
        await db
          .insertInto('realm_overrides')
          .values([
            { domain: 'ｓchool.org', account_type: 'Federated' },
            // two overrides of one domain: the one lookups now use stays, and so does the other
            { domain: 'bücher.example', account_type: 'Federated' },
            { domain: 'xn--bcher-kva.example', account_type: 'Managed' },
          ])
          .execute();

        await migrateTo(db, { secret: TEST_SECRET });
        const rows = await db.selectFrom('users').select(['id', 'email']).execute();
        const emailOf = (user: { id: string }) => rows.find((row) => row.id === user.id)?.email;
        expect(emailOf(holder)).toBe('victim@school.org');
        expect(emailOf(fullWidth)).toBe('victim@ｓchool.org');
        expect(emailOf(selector)).toBe('victim@school\uFE00.org');
        expect(emailOf(international)).toBe('a@xn--bcher-kva.example');
        expect(emailOf(confirmed)).toBe('ana@school.org');
        expect(emailOf(older)).toBe('ana@ſchool.org');
        expect(emailOf(refused)).toBe('old@x⑴.org');
        expect(emailOf(plain)).toBe('c@school.test');

        const invites = await db.selectFrom('invites').select(['code', 'email']).orderBy('code').execute();
        expect(invites).toEqual([
          { code: 'invite-1', email: 'inv@school.org' },
          { code: 'invite-2', email: 'inv@school.org' },
        ]);
        const identities = await db
          .selectFrom('user_identities')
          .select(['subject', 'email'])
          .orderBy('subject')
          .execute();
        expect(identities).toEqual([
          { subject: 'g-1', email: 'e@xn--bcher-kva.example' },
          { subject: 'g-2', email: null },
        ]);
        expect(await db.selectFrom('mailbox').select('to_address').execute()).toEqual([
          { to_address: 'victim@school.org' },
        ]);
        const realms = await db
          .selectFrom('realm_overrides')
          .select(['domain', 'account_type'])
          .orderBy('domain')
          .execute();
        expect(realms).toEqual([
          { domain: 'bücher.example', account_type: 'Federated' },
          { domain: 'school.org', account_type: 'Federated' },
          { domain: 'xn--bcher-kva.example', account_type: 'Managed' },
        ]);

        // what an operator reads: `audit list --event spelling.kept`, each naming the account that holds the address
        const entries = await db
          .selectFrom('audit_log')
          .select(['event', 'user_id', 'detail'])
          .where('event', '=', SPELLING_KEPT)
          .execute();
        const kept = entries.map((entry) => ({
          userId: entry.user_id,
          detail: JSON.parse(entry.detail) as unknown,
        }));
        const migration = '019_email_domains';
        expect(kept).toHaveLength(4);
        expect(kept).toEqual(
          expect.arrayContaining([
            { userId: fullWidth.id, detail: { migration, table: 'users', heldBy: holder.id } },
            { userId: selector.id, detail: { migration, table: 'users', heldBy: holder.id } },
            { userId: older.id, detail: { migration, table: 'users', heldBy: confirmed.id } },
            {
              userId: null,
              detail: {
                migration,
                table: 'realm_overrides',
                domain: 'bücher.example',
                heldBy: 'xn--bcher-kva.example',
              },
            },
          ]),
        );
      } finally {
        await drop();
      }
    },
  );
});

describe.each(DIALECTS)('migration 019 reading in batches ($dialect)', ({ dialect, skip }) => {
  it.skipIf(skip)(
    'reads the accounts a batch at a time and respells them as one read would, across the batches',
    async () => {
      const { db, drop } = await createTestDb(dialect, undefined, '018_last_sign_in');
      try {
        // ids ordered as the batches read them: each pair that meets falls into different batches
        const account = (n: number, email: string, createdAt: number, confirmed = true) => {
          // the row as it was before migration 025's column
          const { disabled_at: _later, ...row } = newUserRow(
            { email, first: 'A', last: 'B', passwordHash: '$argon2id$x', confirmed },
            createdAt,
          );
          return { ...row, id: `00000000-0000-4000-8000-00000000000${n}` };
        };
        const fullWidth = account(1, 'victim@ｓchool.org', 6);
        const older = account(2, 'ana@ſchool.org', 1, false);
        const plain = account(3, 'c@school.test', 1);
        const confirmed = account(4, 'ana@ｓchool.org', 2);
        const holder = account(5, 'victim@school.org', 5);
        await db.insertInto('users').values([fullWidth, older, plain, confirmed, holder]).execute();

        const statements: string[] = [];
        const watched = db.withPlugin({
          transformQuery: ({ node, queryId }) => {
            statements.push(db.getExecutor().compileQuery(node, queryId).sql);
            return node;
          },
          transformResult: async ({ result }) => result,
        });
        // as the migrator hands it over: untyped
        await respell(watched as unknown as Kysely<unknown>, spelling(), '019_email_domains', 2);

        const reads = statements.filter((statement) => /^select .* from "users"/.test(statement));
        const batches = reads.filter((statement) => !statement.includes('where "email" ='));
        // 2 + 2 + 1 accounts, then an empty batch: never all of them at once
        expect(batches).toHaveLength(4);
        for (const read of batches) expect(read).toMatch(/ limit /);

        const rows = await db.selectFrom('users').select(['id', 'email']).orderBy('id').execute();
        expect(rows.map((row) => row.email)).toEqual([
          'victim@ｓchool.org',
          'ana@ſchool.org',
          'c@school.test',
          'ana@school.org',
          'victim@school.org',
        ]);
        const kept = await db
          .selectFrom('audit_log')
          .select(['user_id', 'detail'])
          .where('event', '=', SPELLING_KEPT)
          .orderBy('user_id')
          .execute();
        const migration = '019_email_domains';
        expect(kept.map((entry) => ({ userId: entry.user_id, detail: JSON.parse(entry.detail) }))).toEqual([
          { userId: fullWidth.id, detail: { migration, table: 'users', heldBy: holder.id } },
          { userId: older.id, detail: { migration, table: 'users', heldBy: confirmed.id } },
        ]);
      } finally {
        await drop();
      }
    },
  );
});

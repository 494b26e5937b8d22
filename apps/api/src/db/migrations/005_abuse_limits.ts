import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { ABUSE_LIMITS } from '@frontdoor/contract';
import { accessCodeDigest } from '../../services/crypto.ts';
import { autoIncrementId } from '../dialect.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The two shapes of access_codes this migration copies between. */
interface CopyTables {
  access_codes: {
    code: string;
    sp_id: string;
    user_id: string;
    created_at: number;
    revoked_at: number | null;
  };
  access_codes_v2: {
    id: string;
    code_hash: string;
    sp_id: string;
    user_id: string;
    created_at: number;
    expires_at: number;
    revoked_at: number | null;
  };
}

/**
 * Abuse limits (docs/SECURITY.md): per-account failure state, access codes stored as a keyed
 * hash with an expiry and an id to revoke them by, each provider's daily failure budget, and the
 * audit log where locks and exhausted budgets are recorded. Existing plain-text codes are hashed
 * with the server secret (the pepper) and live the default code lifetime (30 days) from the upgrade.
 */
export const abuseLimits = (secret: string, now: () => number = Date.now): Migration => ({
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('users')
      .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('users').addColumn('last_failed_at', 'bigint').execute();
    await db.schema.alterTable('users').addColumn('locked_at', 'bigint').execute();

    await db.schema
      .createTable('access_codes_v2')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('code_hash', 'text', (c) => c.notNull().unique())
      .addColumn('sp_id', 'text', (c) =>
        c.notNull().references('service_providers.sp_id').onDelete('cascade'),
      )
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .execute();
    const copy = db as unknown as Kysely<CopyTables>;
    const legacy = await copy.selectFrom('access_codes').selectAll().execute();
    const expiresAt = now() + ABUSE_LIMITS.accessCodeTtlDays * DAY_MS;
    for (const row of legacy) {
      await copy
        .insertInto('access_codes_v2')
        .values({
          id: randomUUID(),
          code_hash: accessCodeDigest(secret, row.code),
          sp_id: row.sp_id,
          user_id: row.user_id,
          created_at: row.created_at,
          expires_at: expiresAt,
          revoked_at: row.revoked_at,
        })
        .execute();
    }
    await db.schema.dropTable('access_codes').execute();
    await db.schema.alterTable('access_codes_v2').renameTo('access_codes').execute();
    await db.schema
      .createIndex('access_codes_by_sp')
      .on('access_codes')
      .columns(['sp_id', 'expires_at'])
      .execute();

    await db.schema
      .createTable('access_code_failures')
      .addColumn('sp_id', 'text', (c) => c.notNull())
      .addColumn('day', 'integer', (c) => c.notNull())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('exhausted_at', 'bigint')
      .addPrimaryKeyConstraint('access_code_failures_pk', ['sp_id', 'day'])
      .execute();

    await db.schema
      .createTable('audit_log')
      .$call(autoIncrementId(db))
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text')
      .addColumn('sp_id', 'text')
      .addColumn('detail', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('audit_log').ifExists().execute();
    await db.schema.dropTable('access_code_failures').ifExists().execute();
    // hashed codes cannot be turned back into codes: going down revokes them
    await db.schema.dropTable('access_codes').execute();
    await db.schema
      .createTable('access_codes')
      .addColumn('code', 'text', (c) => c.primaryKey())
      .addColumn('sp_id', 'text', (c) =>
        c.notNull().references('service_providers.sp_id').onDelete('cascade'),
      )
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .execute();
    for (const column of ['locked_at', 'last_failed_at', 'failed_attempts'])
      await db.schema.alterTable('users').dropColumn(column).execute();
  },
});

import { sql, type Kysely } from 'kysely';
import { autoIncrementId } from '../dialect.ts';

/**
 * One outbox for everything sent off the machine (services/outbox.ts): mail and CRM webhook
 * calls are rows written in the transaction of what they carry, then claimed row by row and
 * sent by a worker with backoff and an attempt limit. The CRM rows of crm_outbox move here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('outbox')
    .$call(autoIncrementId(db))
    .addColumn('kind', 'text', (c) => c.notNull())
    // a pending mail to an account deleted meanwhile goes with it; an invite has no account yet
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('payload', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .addColumn('failed_at', 'bigint')
    .execute();
  await db.schema.createIndex('outbox_due').on('outbox').column('next_attempt_at').execute();
  await sql`insert into outbox (kind, user_id, payload, attempts, next_attempt_at, last_error, created_at, delivered_at)
    select 'crm', user_id, case when delivered_at is null then payload end, attempts,
      case when delivered_at is null then created_at end, last_error, created_at, delivered_at
    from crm_outbox order by id`.execute(db);
  await db.schema.dropTable('crm_outbox').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('crm_outbox')
    .$call(autoIncrementId(db))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .execute();
  await db.schema.createIndex('crm_outbox_pending').on('crm_outbox').column('delivered_at').execute();
  await sql`insert into crm_outbox (user_id, payload, attempts, last_error, created_at, delivered_at)
    select user_id, coalesce(payload, ''), attempts, last_error, created_at, delivered_at
    from outbox where kind = 'crm' and user_id is not null order by id`.execute(db);
  await db.schema.dropTable('outbox').execute();
}

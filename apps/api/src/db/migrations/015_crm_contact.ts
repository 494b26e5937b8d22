import { sql, type Kysely } from 'kysely';

/**
 * users.crm_contact_at: when the account's mail preferences were last queued for the CRM
 * (services/crm.ts saveSubscriptions), null when never, or since an erasure was queued. A deletion
 * or a Yes to the student question asks the CRM to erase the contact from it, whatever webhook the
 * process doing it is configured with: the admin CLI may run without CRM_WEBHOOK_URL, and the erasure
 * then waits in the outbox for a server that has it. Accounts with a CRM call in the outbox now
 * (pending, or sent in the last 7 days) get the time of the latest.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('crm_contact_at', 'bigint').execute();
  await sql`update users set crm_contact_at = (
      select max(o.created_at) from outbox o
      where o.kind = 'crm' and o.user_id = users.id and o.cancelled_at is null)
    where exists (
      select 1 from outbox o where o.kind = 'crm' and o.user_id = users.id and o.cancelled_at is null)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('crm_contact_at').execute();
}

import type { Kysely } from 'kysely';

/**
 * email_codes.mailbox: the inbox the code was mailed to (contract mailboxKey: the address less its
 * +tag, and for Gmail its dots), written as the code is issued, so the hourly codes one person may be
 * mailed are counted across every account whose mail reaches that inbox (services/limits.ts
 * codeSendWaitMs), by the index. Codes issued before this migration have none and count for their
 * account only, as they did; within an hour none of them counts any more.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('email_codes').addColumn('mailbox', 'text').execute();
  await db.schema
    .createIndex('email_codes_mailbox')
    .on('email_codes')
    .columns(['mailbox', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('email_codes_mailbox').execute();
  await db.schema.alterTable('email_codes').dropColumn('mailbox').execute();
}

import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

interface SessionsOnly {
  sessions: { last_seen_at: number };
}

/**
 * Accountable sessions (docs/SECURITY.md): when a session was last used (the idle timeout), when
 * its masquerade started and ends (a masquerade set before this has no end and is ignored), and
 * the client address of each audit entry. Sessions live at the upgrade count as seen then, so an
 * upgrade during the school day signs nobody out.
 */
export const accountableSessions = (now: () => number = Date.now): Migration => ({
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('sessions')
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await (db as unknown as Kysely<SessionsOnly>)
      .updateTable('sessions')
      .set({ last_seen_at: now() })
      .execute();
    await db.schema.alterTable('sessions').addColumn('masq_started_at', 'bigint').execute();
    await db.schema.alterTable('sessions').addColumn('masq_ends_at', 'bigint').execute();

    await db.schema.alterTable('audit_log').addColumn('address', 'text').execute();
    // sign-ins now fill the log: `audit list --event` reads one event without scanning the rest
    await db.schema.createIndex('audit_log_event').on('audit_log').columns(['event', 'id']).execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('audit_log_event').execute();
    await db.schema.alterTable('audit_log').dropColumn('address').execute();
    for (const column of ['masq_ends_at', 'masq_started_at', 'last_seen_at'])
      await db.schema.alterTable('sessions').dropColumn(column).execute();
  },
});

import { normalizeEmail, type MailboxMessage } from '@frontdoor/contract';
import type { Db } from '../db/index.ts';

/** The development mailbox, newest first, optionally for one recipient. */
export async function listMailbox(db: Db, to?: string, limit = 200): Promise<MailboxMessage[]> {
  let query = db
    .selectFrom('mailbox')
    .selectAll()
    .orderBy('sent_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit);
  if (to) query = query.where('to_address', '=', normalizeEmail(to));
  const rows = await query.execute();
  return rows.map((r) => ({
    to: r.to_address,
    subject: r.subject,
    text: r.text,
    html: r.html,
    sentAt: r.sent_at,
  }));
}

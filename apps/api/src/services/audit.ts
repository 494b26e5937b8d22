import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { noteAccount } from './logger.ts';
import { countAudited } from './metrics.ts';

/**
 * Every event the audit log holds: `audit list --event` takes only these. `spelling.kept` is written by
 * migrations 019 and 020 (an account left with its old spelling).
 */
export const AUDIT_EVENTS = [
  'sign-in',
  'sign-in.failed',
  'code.failed',
  'session.started',
  'password.reset-requested',
  'password.reset',
  'masquerade.started',
  'masquerade.stopped',
  'masquerade.refused',
  'admin.command',
  'account.locked',
  'account.unlocked',
  'access-codes.budget-exhausted',
  'access-code.revoked',
  'product-key.rotated',
  'account.deleted',
  'account.signed-out',
  'account.disabled',
  'account.enabled',
  'account.confirmed-elsewhere',
  'account.renamed',
  'identity.unlinked',
  'sp.secret-rotated',
  'spelling.kept',
] as const;

export interface AuditEvent {
  event: (typeof AUDIT_EVENTS)[number];
  userId?: string | null;
  spId?: string | null;
  /** The client's address (request.ip) when a request caused the entry. */
  address?: string | null;
  /** Never a secret: no password, code, hash, or another person's email (a user id is fine). */
  detail?: Record<string, unknown>;
}

/**
 * Appends to the audit log (`npm run admin -- audit list`): what an operator must be able to read
 * later. One insert: sign-ins and failures write here too, so this is also where /metrics counts them.
 */
export async function audit(ctx: Pick<AppContext, 'db' | 'now'>, entry: AuditEvent): Promise<void> {
  // the request's log line names the account too: the audit row and the line meet by it
  if (entry.userId) noteAccount(entry.userId);
  await ctx.db
    .insertInto('audit_log')
    .values({
      at: ctx.now(),
      event: entry.event,
      user_id: entry.userId ?? null,
      sp_id: entry.spId ?? null,
      address: entry.address ?? null,
      detail: JSON.stringify(entry.detail ?? {}),
    })
    .execute();
  countAudited(entry);
}

/**
 * The latest entries, newest first. With a user id: the account's own (its sign-ins, its failures) and
 * those naming it in their detail (an administrator acting as it, a command run on it, its class codes
 * revoked), since a family asking what was done to a child's account asks for those too.
 */
export async function listAudit(
  ctx: Pick<AppContext, 'db'>,
  options: {
    limit: number;
    event?: string | undefined;
    userId?: string | undefined;
    /** Epoch ms: entries at or after it, before `until`. */
    since?: number | undefined;
    until?: number | undefined;
  },
) {
  let query = ctx.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(options.limit);
  if (options.event) query = query.where('event', '=', options.event);
  if (options.since !== undefined) query = query.where('at', '>=', options.since);
  if (options.until !== undefined) query = query.where('at', '<', options.until);
  const { userId } = options;
  if (userId) {
    // the id as a JSON string inside the detail, LIKE's own characters taken literally
    const named = `%${JSON.stringify(userId).replace(/[\\%_]/g, '\\$&')}%`;
    query = query.where((eb) =>
      eb.or([eb('user_id', '=', userId), sql<boolean>`${eb.ref('detail')} like ${named} escape '\\'`]),
    );
  }
  const rows = await query.execute();
  return rows.map((r) => ({
    ...r,
    at: new Date(r.at).toISOString(),
    detail: JSON.parse(r.detail) as unknown,
  }));
}

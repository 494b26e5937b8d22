import { ADMIN_ROLE, MASQUERADE_TTL_MS } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import type { User } from '../db/types.ts';
import { audit } from './audit.ts';
import { liveSession } from './sessions.ts';
import { isAdministrator } from './users.ts';

/** A masquerade the rules do not allow; the admin CLI prints its message and exits non-zero. */
export class MasqueradeRefused extends Error {}

type MasqueradeContext = Pick<AppContext, 'db' | 'now' | 'config'>;

/** Why `admin` may not act as `target`, or null when it may. */
function refusal(admin: User, target: User): { reason: string; message: string } | null {
  if (!isAdministrator(admin))
    return {
      reason: 'not-administrator',
      message: `only an administrator (role '${ADMIN_ROLE}') may masquerade`,
    };
  if (admin.id === target.id)
    return { reason: 'self', message: 'an administrator cannot masquerade as itself' };
  if (isAdministrator(target))
    return { reason: 'administrator', message: 'nobody may masquerade as an administrator' };
  return null;
}

/**
 * Whether `admin` may act as `target`: an administrator, as someone who is not one. Checked when a
 * masquerade starts and at every read of it, so losing the role ends a masquerade under way.
 */
export const mayMasquerade = (admin: User, target: User): boolean => refusal(admin, target) === null;

/**
 * Sets `target` as the masquerade user of the administrator's live sessions for MASQUERADE_TTL_MS.
 * Starts and refusals are written to the audit log; a refusal is thrown as MasqueradeRefused.
 */
export async function startMasquerade(
  ctx: MasqueradeContext,
  admin: User,
  target: User,
): Promise<{ sessions: number; endsAt: number }> {
  const now = ctx.now();
  const refused = refusal(admin, target);
  if (refused) {
    await audit(ctx, {
      event: 'masquerade.refused',
      userId: admin.id,
      detail: { as: target.id, reason: refused.reason },
    });
    throw new MasqueradeRefused(refused.message);
  }
  const endsAt = now + MASQUERADE_TTL_MS;
  const res = await ctx.db
    .updateTable('sessions')
    .set({ masq_user_id: target.id, masq_started_at: now, masq_ends_at: endsAt })
    .where('user_id', '=', admin.id)
    .where(liveSession(now, ctx.config.sessionIdleMs))
    .executeTakeFirst();
  const sessions = Number(res.numUpdatedRows);
  await audit(ctx, {
    event: 'masquerade.started',
    userId: admin.id,
    detail: { as: target.id, sessions, endsAt: new Date(endsAt).toISOString() },
  });
  return { sessions, endsAt };
}

/** Ends the masquerades under way in a user's live sessions (ending one is always allowed). */
export async function stopMasquerade(ctx: MasqueradeContext, admin: User): Promise<{ sessions: number }> {
  const now = ctx.now();
  const res = await ctx.db
    .updateTable('sessions')
    .set({ masq_user_id: null, masq_started_at: null, masq_ends_at: null })
    .where('user_id', '=', admin.id)
    .where(liveSession(now, ctx.config.sessionIdleMs))
    .where('masq_ends_at', '>', now)
    .executeTakeFirst();
  const sessions = Number(res.numUpdatedRows);
  await audit(ctx, { event: 'masquerade.stopped', userId: admin.id, detail: { sessions } });
  return { sessions };
}

import { createHmac } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { liveCodes } from './access-codes.ts';
import { liveMailedCodes } from './codes.ts';

/** The identity_keys row holding the fingerprint of the SECRET the last start ran with. */
export const SECRET_FINGERPRINT_KEY = 'secret-fingerprint';

/**
 * Tells one SECRET from another without storing it: an HMAC of a fixed label, so the row is no hash
 * of SECRET itself that a stolen database could be checked against.
 */
export const secretFingerprint = (secret: string): string =>
  createHmac('sha256', secret).update('frontdoor: which SECRET the codes are keyed by').digest('base64url');

/** The stored fingerprint's row value (JSON), or undefined before any start recorded one. */
const storedFingerprint = async (db: AppContext['db']): Promise<string | undefined> =>
  (
    await db
      .selectFrom('identity_keys')
      .select('material')
      .where('name', '=', SECRET_FINGERPRINT_KEY)
      .executeTakeFirst()
  )?.material;

/** How often a running instance says it is up, with its SECRET's fingerprint (main.ts). */
export const INSTANCE_HEARTBEAT_MS = 30_000;

/**
 * An instance unheard of for this long is gone (killed, crashed, its host down): several heartbeats
 * missed, so a slow database or a pause never makes a serving instance look gone.
 */
export const INSTANCE_LIVE_MS = 2 * 60_000;

/** Rows of instances gone this long are deleted at another's heartbeat: the table holds those of the last day. */
const INSTANCE_FORGOTTEN_MS = 24 * 60 * 60_000;

/**
 * Says this instance is up and which SECRET it serves with: at start, then every INSTANCE_HEARTBEAT_MS
 * (main.ts). `instanceId` is this process's, new at each start.
 */
export async function noteInstance(
  ctx: Pick<AppContext, 'db' | 'config' | 'now'>,
  instanceId: string,
): Promise<void> {
  const now = ctx.now();
  const fingerprint = secretFingerprint(ctx.config.secret);
  await ctx.db
    .insertInto('instance_secrets')
    .values({ instance_id: instanceId, fingerprint, seen_at: now })
    .onConflict((oc) => oc.column('instance_id').doUpdateSet({ fingerprint, seen_at: now }))
    .execute();
  await ctx.db
    .deleteFrom('instance_secrets')
    .where('seen_at', '<', now - INSTANCE_FORGOTTEN_MS)
    .execute();
}

/** This instance stops: it serves no more, and its SECRET no longer counts for the admin CLI. */
export async function forgetInstance(db: AppContext['db'], instanceId: string): Promise<void> {
  await db.deleteFrom('instance_secrets').where('instance_id', '=', instanceId).execute();
}

/**
 * Whether SECRET is the one the server serves with: that of every instance heard of within
 * INSTANCE_LIVE_MS, or, none being up, the last start's (yes when none is recorded yet). The admin CLI
 * run with another (a shell without the server's .env) would make codes that fail on it. The last
 * start alone is not enough: one with a wrong SECRET, stopped at once, is not what serves.
 */
export async function isServersSecret(ctx: Pick<AppContext, 'db' | 'config' | 'now'>): Promise<boolean> {
  const mine = secretFingerprint(ctx.config.secret);
  const serving = await ctx.db
    .selectFrom('instance_secrets')
    .select('fingerprint')
    .where('seen_at', '>=', ctx.now() - INSTANCE_LIVE_MS)
    .execute();
  if (serving.length) return serving.every((instance) => instance.fingerprint === mine);
  const stored = await storedFingerprint(ctx.db);
  return stored === undefined || JSON.parse(stored) === mine;
}

/**
 * At each start, before listening: access codes and mailed codes are stored keyed by SECRET, so a new
 * one (a fresh .env at an upgrade, a typo) makes every live code fail as a wrong guess, and a class
 * locks its school's address out. One error line, at the start that first runs with the new SECRET,
 * names it and what breaks; the new fingerprint is then stored. Several instances starting with the
 * new one at once: the first to store it says it (the update only replaces the fingerprint it read).
 * Instances of one database started with different SECRETs say it at every start that differs from the
 * one before. Rotation is a documented operation (docs/DEPLOYMENT.md), so the start goes on.
 */
export async function noteSecretChange(
  ctx: Pick<AppContext, 'db' | 'config' | 'logger' | 'now'>,
): Promise<void> {
  const { db, logger } = ctx;
  const now = ctx.now();
  const fingerprint = secretFingerprint(ctx.config.secret);
  const stored = await storedFingerprint(db);
  if (stored === undefined) {
    // a new database, or the first start of a release that records it: nothing to compare with
    await db
      .insertInto('identity_keys')
      .values({ name: SECRET_FINGERPRINT_KEY, material: JSON.stringify(fingerprint), created_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    return;
  }
  if (JSON.parse(stored) === fingerprint) return;
  const replaced = await db
    .updateTable('identity_keys')
    .set({ material: JSON.stringify(fingerprint), created_at: now })
    .where('name', '=', SECRET_FINGERPRINT_KEY)
    .where('material', '=', stored)
    .executeTakeFirst();
  if (Number(replaced.numUpdatedRows) === 0) return;
  const access = await liveCodes(db, now)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const mailed = await liveMailedCodes(db, now)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const liveAccessCodes = Number(access.n);
  const liveMailed = Number(mailed.n);
  logger.error(
    { setting: 'SECRET', liveAccessCodes, liveMailedCodes: liveMailed },
    `SECRET is not the one the last start ran with: the ${liveAccessCodes} live access codes and ${liveMailed} mailed codes in flight were made under the old one and now fail as wrong codes (pupils' tries count against their school's address). Put the old SECRET back on every instance and restart, or keep the new one and issue new access codes (npm run admin -- access-code create); users ask for a new mail. Sessions are not affected`,
  );
}

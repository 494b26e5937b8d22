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

/**
 * Whether SECRET is the one the server's last start ran with (yes when none is recorded yet): the
 * admin CLI run with another (a shell without the server's .env) would make codes that fail on it.
 */
export async function isServersSecret(ctx: Pick<AppContext, 'db' | 'config'>): Promise<boolean> {
  const stored = await storedFingerprint(ctx.db);
  return stored === undefined || JSON.parse(stored) === secretFingerprint(ctx.config.secret);
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

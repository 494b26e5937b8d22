import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { PRODUCT_KEY_ROTATION_MS, PRODUCT_TOKEN_TTL_MS } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/index.ts';
import { audit } from './audit.ts';

/**
 * The ES256 keys signing the product token of auth/sig, published at PRODUCT_JWKS_PATH. They sit in
 * `identity_keys` (shared by every instance and the admin CLI), one row per generation:
 * `product-key:<n>`. The newest signs; a replaced key stays published until every token it signed
 * has expired, then its row is deleted.
 */
export interface ProductKey {
  generation: number;
  createdAt: number;
  /** The private JWK (with kid, alg ES256); never published as is, see publicJwk. */
  jwk: JWK;
}

type KeyContext = Pick<AppContext, 'db' | 'now'>;

const KEY_PREFIX = 'product-key:';

/**
 * How long a replaced key stays published after its successor appeared: its last tokens live
 * PRODUCT_TOKEN_TTL_MS; the extra minute covers an instance that read the keys just before the
 * rotation and verifiers' clock tolerance.
 */
export const PRODUCT_KEY_GRACE_MS = PRODUCT_TOKEN_TTL_MS + 60 * 1000;

/** Newest generation first. */
async function storedKeys(db: Db): Promise<ProductKey[]> {
  const rows = await db
    .selectFrom('identity_keys')
    .selectAll()
    .where('name', 'like', `${KEY_PREFIX}%`)
    .execute();
  return rows
    .map((row) => ({
      generation: Number(row.name.slice(KEY_PREFIX.length)),
      createdAt: row.created_at,
      jwk: JSON.parse(row.material) as JWK,
    }))
    .sort((a, b) => b.generation - a.generation);
}

/** Stores generation `generation`; of instances adding the same generation, the first wins (→ its kid). */
async function addKey(db: Db, generation: number, now: number): Promise<string | undefined> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = randomUUID();
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' };
  const res = await db
    .insertInto('identity_keys')
    .values({ name: `${KEY_PREFIX}${generation}`, material: JSON.stringify(jwk), created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) === 1 ? kid : undefined;
}

/**
 * The published keys, the signing one first. Adds a key when there is none, when the current one
 * is older than PRODUCT_KEY_ROTATION_MS, or when `rotatedBy` is given (`npm run admin -- keys
 * rotate`), and deletes the replaced keys whose grace has ended.
 */
export async function productKeys(
  ctx: KeyContext,
  rotatedBy?: 'admin',
): Promise<[ProductKey, ...ProductKey[]]> {
  const now = ctx.now();
  let keys = await storedKeys(ctx.db);
  const current = keys[0];
  if (!current || rotatedBy || now - current.createdAt >= PRODUCT_KEY_ROTATION_MS) {
    const kid = await addKey(ctx.db, (current?.generation ?? 0) + 1, now);
    if (kid && current)
      await audit(ctx, {
        event: 'product-key.rotated',
        detail: { kid, replaced: current.jwk.kid, by: rotatedBy ?? 'schedule' },
      });
    keys = await storedKeys(ctx.db);
  }
  // a key stopped signing when the next generation was created
  const published = keys.filter(
    (_key, i) => i === 0 || (keys[i - 1]?.createdAt ?? 0) + PRODUCT_KEY_GRACE_MS > now,
  );
  const expired = keys.filter((key) => !published.includes(key));
  if (expired.length)
    await ctx.db
      .deleteFrom('identity_keys')
      .where(
        'name',
        'in',
        expired.map((key) => `${KEY_PREFIX}${key.generation}`),
      )
      .execute();
  const [signing, ...replaced] = published;
  if (!signing) throw new Error('no product signing key after creating one');
  return [signing, ...replaced];
}

/** The public half of a key: never `d`, whatever else the stored JWK holds. */
const publicJwk = ({ kty, crv, x, y, kid, alg, use }: JWK): JWK => ({ kty, crv, x, y, kid, alg, use });

/** The JWKS products verify the token with. */
export async function productJwks(ctx: KeyContext): Promise<{ keys: JWK[] }> {
  return { keys: (await productKeys(ctx)).map((key) => publicJwk(key.jwk)) };
}

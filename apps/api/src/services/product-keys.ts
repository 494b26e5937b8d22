import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import {
  PRODUCT_JWKS_MAX_AGE_SECONDS,
  PRODUCT_KEY_ROTATION_MS,
  PRODUCT_TOKEN_TTL_MS,
} from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/index.ts';
import { audit } from './audit.ts';

/**
 * The ES256 keys signing the product token of auth/sig, published at PRODUCT_JWKS_PATH. They sit in
 * `identity_keys` (shared by every instance and the admin CLI), one row per generation:
 * `product-key:<n>`. A new key is published PRODUCT_KEY_PUBLISH_AHEAD_MS before it signs; a
 * replaced key stays published until every token it signed has expired, then its row is deleted.
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
 * How long a new key is published before it signs: a product, or a cache in between, may keep the
 * published keys PRODUCT_JWKS_MAX_AGE_SECONDS, and a verifier asks again for a kid it does not know at
 * most every 30 s (jose's cooldown). The minute past the cache's age covers both, so the first token a
 * new key signs finds it in every product's copy.
 */
export const PRODUCT_KEY_PUBLISH_AHEAD_MS = PRODUCT_JWKS_MAX_AGE_SECONDS * 1000 + 60 * 1000;

/**
 * How long a replaced key stays published after its successor started signing: its last tokens live
 * PRODUCT_TOKEN_TTL_MS; the extra minute covers an instance that read the keys just before the
 * switch and verifiers' clock tolerance.
 */
export const PRODUCT_KEY_GRACE_MS = PRODUCT_TOKEN_TTL_MS + 60 * 1000;

/**
 * How long an instance signs with the key it read (imported once) before reading the keys again:
 * a rotation elsewhere (another instance, the admin CLI) reaches it within this, well inside the
 * minute PRODUCT_KEY_GRACE_MS keeps a replaced key published past its last tokens.
 */
export const SIGNING_KEY_CACHE_MS = 30 * 1000;

/** Signs a JWT's claims with the current key: a compact ES256 JWS with the key's kid in its header. */
export type TokenSigner = (claims: Record<string, unknown>) => string;

/** Per database (each test app has its own): when the signing key was read, and its signer. */
const signers = new WeakMap<Db, { readAt: number; signer: Promise<TokenSigner> }>();

const base64url = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * The r‖s form a JWS wants (RFC 7518 §3.4) of a DER ECDSA P-256 signature. node:crypto signs in DER
 * at half the cost of its ieee-p1363 option or of WebCrypto (which jose signs with) on Node 24.
 */
export function derToJose(der: Buffer): Buffer {
  const out = Buffer.alloc(64);
  // SEQUENCE and its length (under 128 for P-256), then two INTEGERs, each tag, length, big-endian
  // value: one byte longer when its top bit is set (a leading zero), shorter when it starts with zeros
  let offset = 2;
  for (const start of [0, 32]) {
    const length = der[offset + 1] ?? 0;
    const value = der.subarray(offset + 2 + Math.max(0, length - 32), offset + 2 + length);
    value.copy(out, start + 32 - value.length);
    offset += 2 + length;
  }
  return out;
}

/** The signer of a private JWK, imported once (the API benchmark times it alone). */
export function signerOf(jwk: JWK): TokenSigner {
  const key = createPrivateKey({ key: jwk, format: 'jwk' });
  const header = base64url({ alg: 'ES256', kid: jwk.kid, typ: 'JWT' });
  return (claims) => {
    const input = `${header}.${base64url(claims)}`;
    return `${input}.${derToJose(sign('sha256', Buffer.from(input), key)).toString('base64url')}`;
  };
}

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

/** The published keys (newest first) and the one that signs. */
export interface ProductKeys {
  signing: ProductKey;
  published: [ProductKey, ...ProductKey[]];
}

/**
 * The keys: the newest one published PRODUCT_KEY_PUBLISH_AHEAD_MS ago signs (the first key of a
 * deployment at once: nobody holds keys yet). Adds a key when there is none, when the newest is older
 * than PRODUCT_KEY_ROTATION_MS, or when `rotatedBy` is given (`npm run admin -- keys rotate`), and
 * deletes the replaced keys whose grace has ended.
 */
export async function productKeys(ctx: KeyContext, rotatedBy?: 'admin'): Promise<ProductKeys> {
  const now = ctx.now();
  let keys = await storedKeys(ctx.db);
  const newest = keys[0];
  if (!newest || rotatedBy || now - newest.createdAt >= PRODUCT_KEY_ROTATION_MS) {
    const kid = await addKey(ctx.db, (newest?.generation ?? 0) + 1, now);
    if (kid && newest)
      await audit(ctx, {
        event: 'product-key.rotated',
        detail: { kid, replaced: newest.jwk.kid, by: rotatedBy ?? 'schedule' },
      });
    keys = await storedKeys(ctx.db);
  }
  const signsFrom = (key: ProductKey) => key.createdAt + PRODUCT_KEY_PUBLISH_AHEAD_MS;
  // a key stopped signing when the next generation started to
  const published = keys.filter((_key, i) => {
    const successor = keys[i - 1];
    return !successor || signsFrom(successor) + PRODUCT_KEY_GRACE_MS > now;
  });
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
  const signing = published.find((key) => signsFrom(key) <= now) ?? published.at(-1);
  if (!signing || !published[0]) throw new Error('no product signing key after creating one');
  return { signing, published: [published[0], ...published.slice(1)] };
}

/** The signer of product tokens: the signing key, read at most SIGNING_KEY_CACHE_MS ago. */
export function tokenSigner(ctx: KeyContext): Promise<TokenSigner> {
  const now = ctx.now();
  const cached = signers.get(ctx.db);
  if (cached && now >= cached.readAt && now - cached.readAt < SIGNING_KEY_CACHE_MS) return cached.signer;
  const signer = productKeys(ctx).then(({ signing }) => signerOf(signing.jwk));
  signers.set(ctx.db, { readAt: now, signer });
  // a failed read is not kept: the next call reads again
  signer.catch(() => {
    if (signers.get(ctx.db)?.signer === signer) signers.delete(ctx.db);
  });
  return signer;
}

/** The public half of a key: never `d`, whatever else the stored JWK holds. */
const publicJwk = ({ kty, crv, x, y, kid, alg, use }: JWK): JWK => ({ kty, crv, x, y, kid, alg, use });

/** The JWKS products verify the token with. */
export async function productJwks(ctx: KeyContext): Promise<{ keys: JWK[] }> {
  return { keys: (await productKeys(ctx)).published.map((key) => publicJwk(key.jwk)) };
}

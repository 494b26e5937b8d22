import { hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Db } from '../db/index.ts';

/** Key material of the identity side, created on first start and shared through the database. */
export interface IdentityKeys {
  /** Private signing keys of the authorization server (never oidc-provider's dev keys). */
  jwks: { keys: JWK[] };
  /** Keygrip keys signing oidc-provider's cookies; the first signs, all verify. */
  cookieKeys: string[];
  /** Secret the upstream PKCE verifiers, nonces and interaction bindings are derived from. */
  secret: Buffer;
}

async function getOrCreate<T>(db: Db, now: number, name: string, create: () => Promise<T>): Promise<T> {
  const existing = await db
    .selectFrom('identity_keys')
    .select('material')
    .where('name', '=', name)
    .executeTakeFirst();
  if (existing) return JSON.parse(existing.material) as T;
  const material = JSON.stringify(await create());
  // two instances starting together: the first insert wins and both read it back
  await db
    .insertInto('identity_keys')
    .values({ name, material, created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('identity_keys')
    .select('material')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return JSON.parse(row.material) as T;
}

async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  return { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

/**
 * Loads (or creates once) the keys. `cookieKeys` from configuration (OIDC_COOKIE_KEYS) take
 * precedence over the stored ones so operators can rotate them by prepending a new key.
 */
export async function loadIdentityKeys(
  db: Db,
  now: number,
  configuredCookieKeys: string[] = [],
): Promise<IdentityKeys> {
  const signingKey = await getOrCreate(db, now, 'as-signing-key', newSigningKey);
  const storedCookieKeys = await getOrCreate(db, now, 'as-cookie-keys', async () => [
    randomBytes(32).toString('base64url'),
  ]);
  const secret = await getOrCreate(db, now, 'identity-secret', async () =>
    randomBytes(32).toString('base64url'),
  );
  return {
    jwks: { keys: [signingKey] },
    cookieKeys: configuredCookieKeys.length ? configuredCookieKeys : storedCookieKeys,
    secret: Buffer.from(secret, 'base64url'),
  };
}

/** A value derived from the identity secret for one purpose and id (PKCE verifiers, nonces, bindings). */
export const deriveSecret = (secret: Buffer, purpose: string, id: string): string =>
  Buffer.from(hkdfSync('sha256', secret, id, purpose, 32)).toString('base64url');

import { isStorableText } from '@frontdoor/contract';
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import type { ServiceProvidersTable } from '../db/types.ts';
import { randomToken, safeEqual, sha256 } from './crypto.ts';

export interface ServiceProvider {
  spId: string;
  name: string;
  origins: string[];
  clientId: string;
}

function toProvider(row: ServiceProvidersTable): ServiceProvider {
  let origins: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.origins);
    if (Array.isArray(parsed)) origins = parsed.filter((o): o is string => typeof o === 'string');
  } catch {
    // a broken row allows no origin at all
  }
  return { spId: row.sp_id, name: row.name, origins, clientId: row.client_id };
}

export async function findServiceProvider(db: Db, spId: string): Promise<ServiceProvider | undefined> {
  const row = await db
    .selectFrom('service_providers')
    .selectAll()
    .where('sp_id', '=', spId)
    .executeTakeFirst();
  return row ? toProvider(row) : undefined;
}

/** The origin of a URL (scheme://host:port), or null when it is not an absolute http(s) URL. */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * The provider whose id differs from spId only by case: ids are matched exactly on the wire
 * (`MATHWORLD` finds no code of `mathworld`), so a case variant would be a second provider that
 * people and products would take for the first.
 */
export async function findServiceProviderAnyCase(db: Db, spId: string): Promise<ServiceProvider | undefined> {
  const row = await db
    .selectFrom('service_providers')
    .selectAll()
    .where(sql<string>`lower(sp_id)`, '=', spId.toLowerCase())
    .executeTakeFirst();
  return row ? toProvider(row) : undefined;
}

/** Replaces a provider's origins (sp origin add/remove, the demo provider). */
export async function setOrigins(db: Db, spId: string, origins: string[]): Promise<void> {
  await db
    .updateTable('service_providers')
    .set({ origins: JSON.stringify(origins) })
    .where('sp_id', '=', spId)
    .execute();
}

export const allowsReturnUrl = (sp: ServiceProvider, url: string): boolean => {
  const origin = originOf(url);
  return origin !== null && sp.origins.includes(origin);
};

/**
 * The product a browser's call comes from, by its Origin header: the sp_id of the one service
 * provider that registered that origin (`sp create --origin`), for the product token's `aud` and
 * `azp`. Null from the portal's own origin (its pages, the demo product /dev/sp), from an origin no
 * product registered, with no Origin, and from an origin two products registered (which of them
 * is asking, nothing tells).
 */
export async function productOfOrigin(
  db: Db,
  originHeader: string | undefined,
  publicUrl: string,
): Promise<string | null> {
  const origin = originHeader ? originOf(originHeader) : null;
  if (!origin || origin === new URL(publicUrl).origin) return null;
  // origins is a JSON list of origins; LIKE only narrows (its `_` matches any character), the
  // parsed list decides
  const rows = await db
    .selectFrom('service_providers')
    .selectAll()
    .where('origins', 'like', `%${JSON.stringify(origin)}%`)
    .execute();
  const products = rows.map(toProvider).filter((sp) => sp.origins.includes(origin));
  return products.length === 1 ? (products[0]?.spId ?? null) : null;
}

/** Client secrets are 32 random bytes, so a plain sha256 is enough to store them. */
export async function createServiceProvider(
  db: Db,
  input: { spId: string; name: string; origins: string[] },
  now: number,
): Promise<{ sp_id: string; clientId: string; clientSecret: string }> {
  const origins = input.origins.map((o) => {
    const origin = originOf(o);
    if (!origin) throw new Error(`not an http(s) origin: ${o}`);
    return origin;
  });
  const clientId = `sp_${randomToken(12)}`;
  const clientSecret = randomToken(32);
  await db
    .insertInto('service_providers')
    .values({
      sp_id: input.spId,
      name: input.name,
      origins: JSON.stringify(origins),
      client_id: clientId,
      client_secret_hash: sha256(clientSecret),
      created_at: now,
    })
    .execute();
  return { sp_id: input.spId, clientId, clientSecret };
}

/**
 * HTTP Basic clientId:clientSecret: the provider, or who sent what. `staleSecret` names a known
 * provider whose secret was wrong: its own misconfiguration (an old secret after rotate-secret), no
 * guess, since a secret is 256 random bits.
 */
export async function authenticateServiceProvider(
  db: Db,
  authorization: string | undefined,
): Promise<{ sp?: ServiceProvider; staleSecret?: { spId: string; clientId: string } }> {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization ?? '');
  if (!match?.[1]) return {};
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const sep = decoded.indexOf(':');
  if (sep <= 0) return {};
  const clientId = decoded.slice(0, sep);
  // a client id holding a NUL names no provider (and PostgreSQL would refuse the query)
  if (!isStorableText(clientId)) return {};
  const secret = decoded.slice(sep + 1);
  const row = await db
    .selectFrom('service_providers')
    .selectAll()
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (!row) return {};
  if (!safeEqual(sha256(secret), row.client_secret_hash))
    return { staleSecret: { spId: row.sp_id, clientId: row.client_id } };
  return { sp: toProvider(row) };
}

/** Every service provider, for the admin CLI: never a secret (only its hash is stored anyway). */
export async function listServiceProviders(db: Db): Promise<Array<ServiceProvider & { createdAt: string }>> {
  const rows = await db.selectFrom('service_providers').selectAll().orderBy('sp_id').execute();
  return rows.map((row) => ({ ...toProvider(row), createdAt: new Date(row.created_at).toISOString() }));
}

/**
 * A new client secret (shown once); the previous one stops authenticating at once, so rotate when
 * the provider is ready to deploy the new one (or when the old one leaked). Undefined: no such provider.
 */
export async function rotateClientSecret(
  db: Db,
  spId: string,
): Promise<{ sp_id: string; clientId: string; clientSecret: string } | undefined> {
  const clientSecret = randomToken(32);
  const updated = await db
    .updateTable('service_providers')
    .set({ client_secret_hash: sha256(clientSecret) })
    .where('sp_id', '=', spId)
    .returning('client_id')
    .executeTakeFirst();
  return updated ? { sp_id: spId, clientId: updated.client_id, clientSecret } : undefined;
}

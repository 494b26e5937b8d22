import { sql } from 'kysely';
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import { isStorableText } from '@frontdoor/contract';
import type { Db } from '../db/index.ts';
import { claimOnce } from '../db/claim-once.ts';

/**
 * oidc-provider storage over the `oidc_payloads` table (one row per model instance, keyed by
 * id and model type), so sessions, codes and interactions survive restarts and are shared by
 * every instance on PostgreSQL. `namespace` keeps the dev identity providers' rows apart from
 * the portal's authorization server. `now` (ctx.now) dates expiry and consumption. An id holding
 * a NUL (a client's client_id, code or token) names no row, on either database: found as nothing,
 * so oidc-provider answers its own invalid_client or invalid_grant, where PostgreSQL would have
 * refused the query (server_error).
 */
export function kyselyAdapter(db: Db, now: () => number, namespace = ''): AdapterFactory {
  return (name: string): Adapter => {
    const type = `${namespace}${name}`;

    const findWhere = async (column: 'id' | 'uid' | 'user_code', value: string) => {
      if (!isStorableText(value)) return undefined;
      const row = await db
        .selectFrom('oidc_payloads')
        .select(['payload', 'expires_at', 'consumed_at'])
        .where('type', '=', type)
        .where(column, '=', value)
        .executeTakeFirst();
      if (!row) return undefined;
      if (row.expires_at !== null && row.expires_at <= now()) return undefined;
      const payload = JSON.parse(row.payload) as AdapterPayload;
      // the library treats a truthy `consumed` as "already used" (single-use codes)
      return row.consumed_at === null
        ? payload
        : { ...payload, consumed: Math.floor(row.consumed_at / 1000) };
    };

    return {
      async upsert(id, payload, expiresIn) {
        const expiresAt = expiresIn ? now() + expiresIn * 1000 : null;
        const row = {
          payload: JSON.stringify(payload),
          grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
          user_code: typeof payload.userCode === 'string' ? payload.userCode : null,
          uid: typeof payload.uid === 'string' ? payload.uid : null,
          expires_at: expiresAt,
        };
        await db
          .insertInto('oidc_payloads')
          .values({ id, type, consumed_at: null, ...row })
          .onConflict((oc) => oc.columns(['id', 'type']).doUpdateSet(row))
          .execute();
      },
      find: (id) => findWhere('id', id),
      findByUid: (uid) => findWhere('uid', uid),
      findByUserCode: (userCode) => findWhere('user_code', userCode),
      async consume(id) {
        if (!isStorableText(id)) return;
        await db
          .updateTable('oidc_payloads')
          .set({ consumed_at: now() })
          .where('type', '=', type)
          .where('id', '=', id)
          .execute();
      },
      async destroy(id) {
        if (!isStorableText(id)) return;
        await db.deleteFrom('oidc_payloads').where('type', '=', type).where('id', '=', id).execute();
      },
      async revokeByGrantId(grantId) {
        if (!isStorableText(grantId)) return;
        // a grant's codes and tokens live under several model types; grant ids are random, so
        // matching on the id alone revokes exactly this grant's rows
        await db.deleteFrom('oidc_payloads').where('grant_id', '=', grantId).execute();
      },
    };
  };
}

/**
 * Takes the upstream answer of the portal's interaction `uid`: true for the one request, however many
 * race (a browser's retry after a lost response, a second tab), that may exchange its code; an
 * upstream code is exchanged once. oidc-provider never consumes an interaction (its model drops
 * `consumed`), so the row's consumed_at is free to record this, and goes with the row.
 */
export const claimInteractionAnswer = (db: Db, uid: string, now: number): Promise<boolean> =>
  claimOnce(db, 'oidc_payloads', (row) => row.where('type', '=', 'Interaction').where('id', '=', uid), now);

/**
 * Gives a taken answer back where the request that took it left the interaction open (an address with
 * a password account of its own: the person may pick another account at the provider, whose new
 * answer must be taken, and a repeat must not wait for an end that never comes).
 */
export async function releaseInteractionAnswer(db: Db, uid: string): Promise<void> {
  await db
    .updateTable('oidc_payloads')
    .set({ consumed_at: null })
    .where('type', '=', 'Interaction')
    .where('id', '=', uid)
    .execute();
}

/**
 * Deletes the authorization server's rows of a deleted account (`user delete`), which would otherwise
 * stay until they expire: its grants, what each grant issued (codes, tokens), its sessions and
 * interactions. Each payload names the account as `"accountId":"<id>"` (upsert's JSON.stringify, no
 * spaces); a grant's codes and tokens are its rows by grant_id too.
 */
export async function deleteAccountPayloads(db: Db, accountId: string): Promise<void> {
  // the property and the id as JSON writes them, LIKE's own characters taken literally
  const named = `%${`"accountId":${JSON.stringify(accountId)}`.replace(/[\\%_]/g, '\\$&')}%`;
  await db
    .deleteFrom('oidc_payloads')
    .where((eb) =>
      eb.or([
        sql<boolean>`${eb.ref('oidc_payloads.payload')} like ${named} escape '\\'`,
        eb(
          'grant_id',
          'in',
          eb
            .selectFrom('oidc_payloads as grants')
            .select('grants.id')
            .where('grants.type', '=', 'Grant')
            .where(sql<boolean>`grants.payload like ${named} escape '\\'`),
        ),
      ]),
    )
    .execute();
}

import { DeleteResult } from 'kysely';
import type { AppContext } from '../context.ts';
import { utcDay } from './access-codes.ts';
import { DAY_MS } from './limits.ts';

/** How long a row is kept after it stopped working (expired, used, revoked, delivered, sent). */
export const RETENTION_MS = {
  /**
   * Mailed codes, invites, login requests, cookie hashes, federation states and the authorization
   * server's rows (but its interactions, gone as they end): a day, to answer "my link did not work". Codes issued within the last hour
   * always stay, since the hourly mail limit per account counts them.
   */
  spent: DAY_MS,
  /** Sessions, revoked or not, after their expiry (at most SESSION_TTL_MS after their revocation). */
  sessions: 30 * DAY_MS,
  /** Expired or revoked access codes: `access-code list` still shows them for a month. */
  accessCodes: 30 * DAY_MS,
  /** A provider's daily count of wrong access codes (its budget reads only today's). */
  accessCodeFailures: 30 * DAY_MS,
  /** Outbox rows (mail, CRM calls) delivered, rejected or cancelled; pending ones stay until they end. */
  outboxDelivered: 7 * DAY_MS,
  /** Outbox rows that failed at the attempt limit, kept with their payload for an operator to look into. */
  outboxFailed: 30 * DAY_MS,
  /** The development mailbox. */
  mailbox: 7 * DAY_MS,
  /** The audit log: sign-ins, failures, locks, masquerades, admin commands. */
  auditLog: 365 * DAY_MS,
  /**
   * A sign-up nobody confirmed, from its creation and its last mailed code: anyone may type a child's
   * address into the sign-up form, and what they typed (names, a password hash) goes with it.
   */
  unconfirmedSignups: 30 * DAY_MS,
} as const;

export type PruneCounts = Record<
  | 'users'
  | 'sessions'
  | 'email_codes'
  | 'invites'
  | 'login_requests'
  | 'cookie_hashes'
  | 'federation_states'
  | 'oidc_payloads'
  | 'access_codes'
  | 'access_code_failures'
  | 'outbox'
  | 'mailbox'
  | 'audit_log',
  number
>;

/**
 * Rows one delete statement removes at most: a backlog (a day of an address's sign-in steps, a year
 * of audit entries after an upgrade) then goes in short statements, with other requests' writes
 * between them, instead of one that holds SQLite's single writer (and the event loop) or meets
 * PostgreSQL's statement timeout.
 */
export const PRUNE_BATCH_ROWS = 1000;

/** Runs one table's delete of at most `limit` rows until a batch finds fewer; returns the rows deleted. */
async function inBatches(deleteBatch: (limit: number) => Promise<DeleteResult>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = Number((await deleteBatch(PRUNE_BATCH_ROWS)).numDeletedRows);
    total += deleted;
    if (deleted < PRUNE_BATCH_ROWS) return total;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Deletes what has been dead longer than its RETENTION_MS, by ctx.now(); returns the rows deleted
 * per table. Safe to run from several instances at once: each statement deletes what it finds.
 */
export async function pruneExpired(ctx: Pick<AppContext, 'db' | 'now'>): Promise<PruneCounts> {
  const { db } = ctx;
  const now = ctx.now();
  const spent = now - RETENTION_MS.spent;
  const accessCodes = now - RETENTION_MS.accessCodes;
  const unconfirmed = now - RETENTION_MS.unconfirmedSignups;
  return {
    // a sign-up (it has a description; an administrator's account has none) nobody confirmed, no code
    // mailed to it for the retention either, not turned off; its codes and sessions go with it, and
    // its audit entries keep their events but, as at `user delete`, no client address: a child's
    // history by IP. The delete comes first and decides, in one statement (a confirmation, a code or
    // a disable committed meanwhile keeps the account); on SQLite a transaction that opens with a
    // write waits for the writer, where one that read first would fail beside another writer
    users: await inBatches((limit) =>
      db.transaction().execute(async (trx) => {
        const gone = await trx
          .deleteFrom('users')
          .where('id', 'in', (eb) =>
            eb
              .selectFrom('users')
              .select('id')
              .where('confirmed', '=', 0)
              .where('description', 'is not', null)
              .where('disabled_at', 'is', null)
              .where('created_at', '<=', unconfirmed)
              .where(({ not, exists, selectFrom }) =>
                not(
                  exists(
                    selectFrom('email_codes')
                      .select('email_codes.id')
                      .whereRef('email_codes.user_id', '=', 'users.id')
                      .where('email_codes.created_at', '>', unconfirmed),
                  ),
                ),
              )
              .limit(limit),
          )
          .returning('id')
          .execute();
        const ids = gone.map((row) => row.id);
        // in statements of at most `limit` entries, as every prune statement
        while (ids.length) {
          const res = await trx
            .updateTable('audit_log')
            .set({ address: null })
            .where('id', 'in', (eb) =>
              eb
                .selectFrom('audit_log')
                .select('id')
                .where('user_id', 'in', ids)
                .where('address', 'is not', null)
                .limit(limit),
            )
            .executeTakeFirst();
          if (Number(res.numUpdatedRows) < limit) break;
        }
        return new DeleteResult(BigInt(ids.length));
      }),
    ),
    sessions: await inBatches((limit) =>
      db
        .deleteFrom('sessions')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('sessions')
            .select('id')
            .where('expires_at', '<=', now - RETENTION_MS.sessions)
            .limit(limit),
        )
        .executeTakeFirst(),
    ),
    email_codes: await inBatches((limit) =>
      db
        .deleteFrom('email_codes')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('email_codes')
            .select('id')
            .where((eb) => eb.or([eb('expires_at', '<=', spent), eb('consumed_at', '<=', spent)]))
            .limit(limit),
        )
        .executeTakeFirst(),
    ),
    invites: await inBatches((limit) =>
      db
        .deleteFrom('invites')
        .where('code', 'in', (eb) =>
          eb
            .selectFrom('invites')
            .select('code')
            .where((eb) => eb.or([eb('expires_at', '<=', spent), eb('used_at', '<=', spent)]))
            .limit(limit),
        )
        .executeTakeFirst(),
    ),
    login_requests: await inBatches((limit) =>
      db
        .deleteFrom('login_requests')
        .where('csrf', 'in', (eb) =>
          eb.selectFrom('login_requests').select('csrf').where('expires_at', '<=', spent).limit(limit),
        )
        .executeTakeFirst(),
    ),
    cookie_hashes: await inBatches((limit) =>
      db
        .deleteFrom('cookie_hashes')
        .where('hash_digest', 'in', (eb) =>
          eb
            .selectFrom('cookie_hashes')
            .select('hash_digest')
            .where((eb) => eb.or([eb('expires_at', '<=', spent), eb('used_at', '<=', spent)]))
            .limit(limit),
        )
        .executeTakeFirst(),
    ),
    // a sign-in state is written for anyone who asks (get_csrf): one unused goes as it expires
    federation_states: await inBatches((limit) =>
      db
        .deleteFrom('federation_states')
        .where('state', 'in', (eb) =>
          eb
            .selectFrom('federation_states')
            .select('state')
            .where((eb) => eb.or([eb('expires_at', '<=', now), eb('used_at', '<=', spent)]))
            .limit(limit),
        )
        .executeTakeFirst(),
    ),
    // rows without an expiry (the library's long-lived models) stay; an interaction (a sign-in
    // page's request, stored before anyone has signed in) goes as it ends: nobody asks after one
    oidc_payloads: await inBatches((limit) =>
      db
        .deleteFrom('oidc_payloads')
        .where(({ eb, refTuple, selectFrom }) =>
          eb(
            refTuple('id', 'type'),
            'in',
            selectFrom('oidc_payloads')
              .select(['id', 'type'])
              .where((eb) =>
                eb.or([
                  eb('expires_at', '<=', spent),
                  eb.and([eb('type', '=', 'Interaction'), eb('expires_at', '<=', now)]),
                ]),
              )
              .limit(limit)
              .$asTuple('id', 'type'),
          ),
        )
        .executeTakeFirst(),
    ),
    access_codes: await inBatches((limit) =>
      db
        .deleteFrom('access_codes')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('access_codes')
            .select('id')
            .where((eb) => eb.or([eb('expires_at', '<=', accessCodes), eb('revoked_at', '<=', accessCodes)]))
            .limit(limit),
        )
        .executeTakeFirst(),
    ),
    access_code_failures: await inBatches((limit) =>
      db
        .deleteFrom('access_code_failures')
        .where(({ eb, refTuple, selectFrom }) =>
          eb(
            refTuple('sp_id', 'day'),
            'in',
            selectFrom('access_code_failures')
              .select(['sp_id', 'day'])
              .where('day', '<', utcDay(now - RETENTION_MS.accessCodeFailures))
              .limit(limit)
              .$asTuple('sp_id', 'day'),
          ),
        )
        .executeTakeFirst(),
    ),
    outbox: await inBatches((limit) =>
      db
        .deleteFrom('outbox')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('outbox')
            .select('id')
            .where((eb) =>
              eb.or([
                eb('delivered_at', '<=', now - RETENTION_MS.outboxDelivered),
                eb('rejected_at', '<=', now - RETENTION_MS.outboxDelivered),
                eb('cancelled_at', '<=', now - RETENTION_MS.outboxDelivered),
                eb('failed_at', '<=', now - RETENTION_MS.outboxFailed),
              ]),
            )
            .limit(limit),
        )
        .executeTakeFirst(),
    ),
    mailbox: await inBatches((limit) =>
      db
        .deleteFrom('mailbox')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('mailbox')
            .select('id')
            .where('sent_at', '<=', now - RETENTION_MS.mailbox)
            .limit(limit),
        )
        .executeTakeFirst(),
    ),
    audit_log: await inBatches((limit) =>
      db
        .deleteFrom('audit_log')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('audit_log')
            .select('id')
            .where('at', '<=', now - RETENTION_MS.auditLog)
            .limit(limit),
        )
        .executeTakeFirst(),
    ),
  };
}

import type { DeleteResult } from 'kysely';
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

const count = (result: DeleteResult) => Number(result.numDeletedRows);

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
    // mailed to it for the retention either; its codes and sessions go with it
    users: count(
      await db
        .deleteFrom('users')
        .where('confirmed', '=', 0)
        .where('description', 'is not', null)
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
        .executeTakeFirst(),
    ),
    sessions: count(
      await db
        .deleteFrom('sessions')
        .where('expires_at', '<=', now - RETENTION_MS.sessions)
        .executeTakeFirst(),
    ),
    email_codes: count(
      await db
        .deleteFrom('email_codes')
        .where((eb) => eb.or([eb('expires_at', '<=', spent), eb('consumed_at', '<=', spent)]))
        .executeTakeFirst(),
    ),
    invites: count(
      await db
        .deleteFrom('invites')
        .where((eb) => eb.or([eb('expires_at', '<=', spent), eb('used_at', '<=', spent)]))
        .executeTakeFirst(),
    ),
    login_requests: count(
      await db.deleteFrom('login_requests').where('expires_at', '<=', spent).executeTakeFirst(),
    ),
    cookie_hashes: count(
      await db
        .deleteFrom('cookie_hashes')
        .where((eb) => eb.or([eb('expires_at', '<=', spent), eb('used_at', '<=', spent)]))
        .executeTakeFirst(),
    ),
    // a sign-in state is written for anyone who asks (get_csrf): one unused goes as it expires
    federation_states: count(
      await db
        .deleteFrom('federation_states')
        .where((eb) => eb.or([eb('expires_at', '<=', now), eb('used_at', '<=', spent)]))
        .executeTakeFirst(),
    ),
    // rows without an expiry (the library's long-lived models) stay; an interaction (a sign-in
    // page's request, stored before anyone has signed in) goes as it ends: nobody asks after one
    oidc_payloads: count(
      await db
        .deleteFrom('oidc_payloads')
        .where((eb) =>
          eb.or([
            eb('expires_at', '<=', spent),
            eb.and([eb('type', '=', 'Interaction'), eb('expires_at', '<=', now)]),
          ]),
        )
        .executeTakeFirst(),
    ),
    access_codes: count(
      await db
        .deleteFrom('access_codes')
        .where((eb) => eb.or([eb('expires_at', '<=', accessCodes), eb('revoked_at', '<=', accessCodes)]))
        .executeTakeFirst(),
    ),
    access_code_failures: count(
      await db
        .deleteFrom('access_code_failures')
        .where('day', '<', utcDay(now - RETENTION_MS.accessCodeFailures))
        .executeTakeFirst(),
    ),
    outbox: count(
      await db
        .deleteFrom('outbox')
        .where((eb) =>
          eb.or([
            eb('delivered_at', '<=', now - RETENTION_MS.outboxDelivered),
            eb('rejected_at', '<=', now - RETENTION_MS.outboxDelivered),
            eb('cancelled_at', '<=', now - RETENTION_MS.outboxDelivered),
            eb('failed_at', '<=', now - RETENTION_MS.outboxFailed),
          ]),
        )
        .executeTakeFirst(),
    ),
    mailbox: count(
      await db
        .deleteFrom('mailbox')
        .where('sent_at', '<=', now - RETENTION_MS.mailbox)
        .executeTakeFirst(),
    ),
    audit_log: count(
      await db
        .deleteFrom('audit_log')
        .where('at', '<=', now - RETENTION_MS.auditLog)
        .executeTakeFirst(),
    ),
  };
}

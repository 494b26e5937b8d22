import { createHmac, randomUUID } from 'node:crypto';
import { sql, type Updateable } from 'kysely';
import * as z from 'zod/mini';
import { RESEND_COOLDOWN_SECONDS } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/index.ts';
import type { OutboxTable } from '../db/types.ts';
import { isPostgres } from '../db/dialect.ts';
import {
  MailRejectedError,
  MailSettingsError,
  SEND_DEADLINE_MS,
  SMTP_REPLY_TIMEOUT_MS,
  type Mailer,
} from '../mail/mailer.ts';
import { isLiveCode } from './codes.ts';
import { currentRequestId } from './logger.ts';

/**
 * Everything sent off the machine goes through table `outbox`: a row written in the transaction of
 * what it carries (a mailed code, an invite, a lock, a preference change), then claimed row by row
 * and sent by a worker, retried with exponential backoff up to an attempt limit. Nothing is lost
 * while SMTP or the CRM is down, and several instances never send one row twice. A mail the server
 * refuses for good is rejected, not retried; a mail whose code is no longer live is cancelled.
 */
export type OutboxKind = 'mail' | 'crm';

export const OUTBOX_RETRY = {
  /** After this many failed attempts a row is marked failed and logged at error level. */
  maxAttempts: 10,
  /** Attempt n+1 comes firstDelayMs·2^(n−1) after attempt n, at most maxDelayMs: 30 s … 1 h, about 3 h in all. */
  firstDelayMs: 30_000,
  maxDelayMs: 60 * 60_000,
  /**
   * A claim lasts this long, longer than any send (a mail's SEND_DEADLINE_MS, the CRM's 5 s), so no
   * other instance takes a row being sent; a crashed or stopped worker's row comes back after it.
   */
  leaseMs: SEND_DEADLINE_MS + 60_000,
  /** A started worker also looks this often for rows due later (retries, rows another instance or the CLI wrote). */
  pollMs: 5_000,
  /** A refusal of the portal's own mail settings (SMTP_URL's login) is logged once this often, not per mail. */
  settingsErrorLogMs: 60_000,
} as const;

export const retryDelayMs = (attempts: number): number =>
  Math.min(OUTBOX_RETRY.firstDelayMs * 2 ** (attempts - 1), OUTBOX_RETRY.maxDelayMs);

/**
 * How many rows a worker sends at once, a few, as relays cap the connections of one client. A send
 * that waits longer than OUTBOX_SLOW_SEND_MS for the relay's answer stops counting among them.
 */
export const OUTBOX_SENDS_AT_ONCE = 3;

/**
 * A send that has waited this long for the relay's answer gives its place back, so a relay that
 * hangs on a few mails does not stop every mail behind them. It keeps waiting: the answer to the
 * message's end may take 10 minutes (SMTP_REPLY_TIMEOUT_MS), and a send given up sooner may still
 * be accepted, its retry a second copy. A healthy relay answers in seconds; a fresh code behind hung
 * mails waits some 20 s (and the next poll), not 10 minutes.
 */
export const OUTBOX_SLOW_SEND_MS = 20_000;

/** At most this many sends of one worker at once, the slow ones included: a relay that hangs on every mail is not flooded. */
const OUTBOX_MAX_SENDS = 10;

/**
 * When OUTBOX_SENDS_AT_ONCE sends have waited this long, the worker logs one warn line until none
 * has: the relay is failing, and those mails may come 10 minutes late or twice.
 */
export const OUTBOX_STALL_WARN_MS = 60_000;

const CRM_TIMEOUT_MS = 5_000;
/** Header names of the CRM webhook call (docs/api.md says how a CRM verifies them). */
export const CRM_HEADERS = {
  signature: 'x-frontdoor-signature',
  timestamp: 'x-frontdoor-timestamp',
  delivery: 'x-frontdoor-delivery',
} as const;

/** `sha256=` HMAC-SHA256(secret, `<timestamp>.<body>`) in hex: the timestamp is signed so a replay can be refused. */
export const crmSignature = (secret: string, timestamp: number, body: string): string =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

interface OutboxRow {
  id: number;
  kind: OutboxKind;
  payload: string;
  /** Including the one under way. */
  attempts: number;
  /** The mailed code the row carries: it goes only while the code is live. */
  code_id: number | null;
  /** The account it is about, when one: its id on every delivery line (the request's line has it too). */
  user_id: string | null;
  /** The reqId of the request that queued it (none from the admin CLI): on every delivery line. */
  request_id: string | null;
  /** Which mail it is (verify, reset, invite, locked): on every delivery line; none for CRM rows. */
  template: string | null;
}

/** Sends one row; throws when it was not accepted, so the row is retried. */
type Deliver = (row: OutboxRow) => Promise<void>;

/**
 * Writes a row; pass the transaction of what it carries, and notify() the outbox once that commits.
 * The row keeps the reqId of the request being answered, so its delivery, maybe by another instance
 * hours later, is found from that request.
 */
export async function enqueue(
  db: Db,
  row: {
    kind: OutboxKind;
    payload: string;
    userId: string | null;
    codeId?: number | null;
    /** Which mail it is (MailKind's kind), for its log lines and `user show`. */
    template?: string;
    now: number;
  },
): Promise<number> {
  const { id } = await db
    .insertInto('outbox')
    .values({
      kind: row.kind,
      user_id: row.userId,
      request_id: currentRequestId() ?? null,
      code_id: row.codeId ?? null,
      template: row.template ?? null,
      payload: row.payload,
      attempts: 0,
      next_attempt_at: row.now,
      created_at: row.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** A LIKE pattern matching `text` anywhere, LIKE's own characters taken literally (escape '\\'). */
const containing = (text: string): string => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * Deletes the mails for no account (an invite's) not sent yet (pending, retrying or failed at the
 * attempt limit: their payload is kept) to these addresses, or carrying this text (an invite's
 * link): an erased address's mail, a revoked invitation's, must not go out later. An account's own
 * mails go with it (foreign key); a delivered mail's payload is gone already.
 */
export async function deleteUnsentMails(
  db: Db,
  which: { to: string[] } | { containing: string },
): Promise<void> {
  const patterns =
    'to' in which
      ? which.to.map((address) => containing(`"to":${JSON.stringify(address)}`))
      : [containing(which.containing)];
  if (!patterns.length) return;
  await db
    .deleteFrom('outbox')
    .where('kind', '=', 'mail')
    .where('user_id', 'is', null)
    .where('payload', 'is not', null)
    .where((eb) =>
      eb.or(patterns.map((pattern) => sql<boolean>`${eb.ref('payload')} like ${pattern} escape '\\'`)),
    )
    .execute();
}

/**
 * Whether the mail server refused the account's latest mail for good (a mistyped address) since
 * `since`: a new code to that address would only be refused again.
 */
export async function latestMailRefused(db: Db, userId: string, since: number): Promise<boolean> {
  const latest = await db
    .selectFrom('outbox')
    .select('rejected_at')
    .where('user_id', '=', userId)
    .where('kind', '=', 'mail')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return latest?.rejected_at != null && latest.rejected_at >= since;
}

/**
 * Whether the account's latest mail carries a live code the mail server has not taken yet, its
 * sends failing and retried (SMTP down, its login refused): a new code would wait behind it, the
 * same way, and spend the account's hourly codes on mails none of which arrive. A resend asks for
 * it, so its next try is brought forward to now: the relay may be mended, and a mail that failed 7
 * times would otherwise wait up to an hour. Not while it is being sent, nor within the resend
 * cooldown of its last try, and such a try does not count against the attempt limit: pressing
 * resend neither hammers the relay nor uses up the mail's attempts. Notify the outbox after.
 */
export async function retryDelayedCodeMail(db: Db, userId: string, now: number): Promise<boolean> {
  const latest = await db
    .selectFrom('outbox')
    .select(['id', 'code_id', 'attempts', 'last_error', 'next_attempt_at'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'mail')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  // next_attempt_at stays set only while the row is pending: delivered, refused, cancelled and failed rows clear it
  if (
    latest?.code_id == null ||
    latest.last_error === null ||
    latest.next_attempt_at === null ||
    !(await isLiveCode(db, latest.code_id, now))
  )
    return false;
  const lastTriedAt = latest.next_attempt_at - retryDelayMs(latest.attempts);
  if (latest.next_attempt_at > now && now - lastTriedAt >= RESEND_COOLDOWN_SECONDS * 1000)
    await db
      .updateTable('outbox')
      .set((eb) => ({ next_attempt_at: now, attempts: eb('attempts', '-', 1) }))
      .where('id', '=', latest.id)
      // as read: not claimed, tried or brought forward since
      .where('next_attempt_at', '=', latest.next_attempt_at)
      .where((eb) => eb.or([eb('claimed_by', 'is', null), eb('claimed_until', '<', now)]))
      .execute();
  return true;
}

/**
 * Puts rows that failed at the attempt limit back in the queue (all, or the one of `id`), each with
 * a fresh set of attempts: an operator's remedy once SMTP or the CRM works again, so that a mailed
 * code or a CRM erasure is not given up for good. Returns how many; a started worker sends them.
 */
export async function retryFailed(db: Db, now: number, id?: number): Promise<number> {
  let query = db
    .updateTable('outbox')
    .set({ failed_at: null, attempts: 0, next_attempt_at: now, last_error: null })
    .where('failed_at', 'is not', null)
    .where('payload', 'is not', null);
  if (id !== undefined) query = query.where('id', '=', id);
  return Number((await query.executeTakeFirst()).numUpdatedRows);
}

export interface Outbox {
  /** Wakes a started worker at once: a row was just committed (mail arrives while the page waits). */
  notify(): void;
  /** Sends every row due now (only those written since `createdSince`, if given); returns how many went. */
  drain(options?: { createdSince?: number }): Promise<number>;
  /** Claims and sends one row now if it is due and unclaimed; true when it was delivered. */
  deliver(id: number): Promise<boolean>;
  /** Starts the worker: it sends now, on every notify() (beside sends under way) and every OUTBOX_RETRY.pollMs. */
  start(): void;
  /** Stops the worker after the rows under way. */
  stop(): Promise<void>;
}

const mailPayload = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  // rows written before they were named at enqueue have neither
  messageId: z.optional(z.string()),
  date: z.optional(z.number()),
  // nor rows written before the language went with them
  language: z.optional(z.string()),
});

/** The delivery of each kind: mail through the mailer; CRM changes to the signed webhook, when one is set. */
function deliverers(config: AppContext['config'], now: () => number, mailer: Mailer) {
  const kinds: Partial<Record<OutboxKind, Deliver>> = {
    mail: (row) => mailer.send(mailPayload.parse(JSON.parse(row.payload))),
  };
  const url = config.crmWebhookUrl;
  const secret = config.crmWebhookSecret;
  // without a webhook, CRM rows wait for one (nothing else would take them)
  if (url)
    kinds.crm = async (row) => {
      const timestamp = Math.floor(now() / 1000);
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [CRM_HEADERS.delivery]: String(row.id),
          ...(secret
            ? {
                [CRM_HEADERS.timestamp]: String(timestamp),
                [CRM_HEADERS.signature]: crmSignature(secret, timestamp, row.payload),
              }
            : {}),
        },
        body: row.payload,
        signal: AbortSignal.timeout(CRM_TIMEOUT_MS),
      });
      await res.body?.cancel();
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
    };
  return kinds;
}

/**
 * The outbox worker of one process, sending up to OUTBOX_SENDS_AT_ONCE rows at once besides those
 * the relay is slow to answer (OUTBOX_SLOW_SEND_MS), OUTBOX_MAX_SENDS in all. Rows are
 * claimed one at a time by an UPDATE that sets claimed_by and a lease: on PostgreSQL its row comes
 * from SELECT … FOR UPDATE SKIP LOCKED, so concurrent instances and lanes take different rows;
 * SQLite has a single writer, so the UPDATE is the claim.
 */
export function createOutbox(
  ctx: Pick<AppContext, 'config' | 'db' | 'logger' | 'now'>,
  mailer: Mailer,
  workerId: string = randomUUID(),
): Outbox {
  const { db, logger } = ctx;
  const kinds = deliverers(ctx.config, ctx.now, mailer);
  const kindNames = Object.keys(kinds) as OutboxKind[];
  const postgres = isPostgres(db);
  let settingsErrorLoggedAt: number | undefined;

  async function claim(filter: { id?: number; createdSince?: number }): Promise<OutboxRow | undefined> {
    const now = ctx.now();
    let due = db
      .selectFrom('outbox')
      .select('id')
      .where('next_attempt_at', '<=', now)
      .where('kind', 'in', kindNames)
      .where((eb) => eb.or([eb('claimed_by', 'is', null), eb('claimed_until', '<', now)]))
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(1);
    if (filter.id !== undefined) due = due.where('id', '=', filter.id);
    if (filter.createdSince !== undefined) due = due.where('created_at', '>=', filter.createdSince);
    if (postgres) due = due.forUpdate().skipLocked();
    const row = await db
      .updateTable('outbox')
      .set((eb) => ({
        claimed_by: workerId,
        claimed_until: now + OUTBOX_RETRY.leaseMs,
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', '=', due)
      .returning(['id', 'kind', 'payload', 'attempts', 'code_id', 'user_id', 'request_id', 'template'])
      .executeTakeFirst();
    return row && { ...row, kind: row.kind as OutboxKind, payload: row.payload ?? '' };
  }

  /** Sends a claimed row and records the outcome; only the holder of the claim records it. */
  async function attempt(row: OutboxRow): Promise<boolean> {
    // what every line of this row says: which row, the account it is about and the request that queued it
    const about = {
      outboxId: row.id,
      kind: row.kind,
      ...(row.template === null ? {} : { template: row.template }),
      ...(row.user_id === null ? {} : { userId: row.user_id }),
      ...(row.request_id === null ? {} : { queuedByReqId: row.request_id }),
    };
    const finish = (values: Updateable<OutboxTable>) =>
      db
        .updateTable('outbox')
        .set({ ...values, claimed_by: null, claimed_until: null })
        .where('id', '=', row.id)
        .where('claimed_by', '=', workerId)
        .execute();
    // a code replaced while SMTP was down would land after, and on top of, the one that works
    if (row.code_id !== null && !(await isLiveCode(db, row.code_id, ctx.now()))) {
      await finish({ next_attempt_at: null, cancelled_at: ctx.now(), payload: null });
      logger.info(about, 'outbox: not sent, its code was replaced, used or expired');
      return false;
    }
    try {
      const deliver = kinds[row.kind];
      if (!deliver) throw new Error(`no delivery for kind ${row.kind}`);
      await deliver(row);
    } catch (err) {
      const now = ctx.now();
      const error = (err instanceof Error ? err.message : String(err)).slice(0, 500);
      if (err instanceof MailRejectedError) {
        // a mistyped address: the answer will not change, and it is no operator's alert
        await finish({ last_error: error, next_attempt_at: null, rejected_at: now, payload: null });
        logger.warn(
          { ...about, attempts: row.attempts, error },
          'outbox: the mail server refused the mail for good',
        );
        return false;
      }
      const final = row.attempts >= OUTBOX_RETRY.maxAttempts;
      await finish(
        final
          ? { last_error: error, next_attempt_at: null, failed_at: now }
          : { last_error: error, next_attempt_at: now + retryDelayMs(row.attempts) },
      );
      // the row's id and kind, never its address (and the logger masks any address in the error)
      const fields = { ...about, attempts: row.attempts, error };
      if (final) logger.error(fields, 'outbox: delivery failed for good after the attempt limit');
      else if (err instanceof MailSettingsError) {
        // every mail fails alike until an operator mends SMTP_URL: one line a minute says so, not one per mail
        if (
          settingsErrorLoggedAt === undefined ||
          now - settingsErrorLoggedAt >= OUTBOX_RETRY.settingsErrorLogMs
        ) {
          settingsErrorLoggedAt = now;
          logger.error(fields, `outbox: ${err.advice}; every mail waits and is retried`);
        }
      } else
        logger.warn(
          { ...fields, retryInMs: retryDelayMs(row.attempts) },
          'outbox: delivery failed, retrying',
        );
      return false;
    }
    // the payload (a mailed code, an address) does not outlive its delivery
    await finish({ last_error: null, next_attempt_at: null, delivered_at: ctx.now(), payload: null });
    // whether a mail went out, and when, is a helpdesk's first question; after retries, the line also
    // ends the warnings an operator read: the mail server answers again
    logger.info(
      { ...about, attempts: row.attempts },
      row.attempts > 1 ? 'outbox: delivered after retrying' : 'outbox: delivered',
    );
    return true;
  }

  /** Sends every due row (of `filter`) now, up to OUTBOX_SENDS_AT_ONCE at once. */
  async function drain(filter: { id?: number; createdSince?: number }): Promise<number> {
    let delivered = 0;
    // each lane claims its next row once its send ends; a failed row is due again only later, so every drain ends
    const lane = async () => {
      for (let row = await claim(filter); row; row = await claim(filter))
        if (await attempt(row)) delivered += 1;
    };
    // every lane ends before a failure (the database's) is passed on, so no send outlives its pass
    const lanes = await Promise.allSettled(Array.from({ length: OUTBOX_SENDS_AT_ONCE }, lane));
    const failed = lanes.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
    return delivered;
  }

  let started = false;
  let poll: NodeJS.Timeout | undefined;
  // every wake() counts: a lane that found no row ends only when none came since its claim began,
  // so a row queued while the lanes were finishing is never left for the next poll
  let wakes = 0;
  const running = new Set<Promise<void>>();
  let failureLoggedFor = 0;

  /** The worker's lanes, each with when its send under way began (none while it claims). */
  const lanes = new Set<{ sendingSince?: number }>();
  const waitedSince = (now: number, ms: number) =>
    [...lanes].filter((l) => l.sendingSince !== undefined && now - l.sendingSince >= ms).length;
  /** The lanes holding one of OUTBOX_SENDS_AT_ONCE places: all but those waiting long on the relay. */
  const busy = (now: number) => lanes.size - waitedSince(now, OUTBOX_SLOW_SEND_MS);
  let stallWarned = false;

  /** Sends due rows one after another until none is left; OUTBOX_SENDS_AT_ONCE lanes at once besides slow sends. */
  async function lane(self: { sendingSince?: number }, wokenBy: number): Promise<void> {
    try {
      while (started) {
        // a lane started beside slow sends, or a slow send answered at last, ends rather than keep more than the few going
        if (busy(ctx.now()) > OUTBOX_SENDS_AT_ONCE) break;
        const seen = wakes;
        const row = await claim({});
        if (row) {
          self.sendingSince = ctx.now();
          await attempt(row);
          self.sendingSince = undefined;
        } else if (wakes === seen) break;
      }
    } catch (err) {
      // the lanes one wake started fail together when the database does: one line for them
      if (failureLoggedFor !== wokenBy) {
        failureLoggedFor = wokenBy;
        logger.warn({ err }, 'outbox: pass failed, trying again at the next poll');
      }
    } finally {
      // in the same step as the decision to end, so a wake() from here on starts a lane
      lanes.delete(self);
    }
  }

  // a wake while mails are being sent starts lanes beside those the relay has kept waiting
  // OUTBOX_SLOW_SEND_MS (by the poll, within 5 s of it): a few hung mails never hold the rest back
  function wake(): void {
    if (!started) return;
    wakes += 1;
    const now = ctx.now();
    while (busy(now) < OUTBOX_SENDS_AT_ONCE && lanes.size < OUTBOX_MAX_SENDS) {
      const self = {};
      lanes.add(self);
      const done: Promise<void> = lane(self, wakes).finally(() => running.delete(done));
      running.add(done);
    }
    const stalled = waitedSince(now, OUTBOX_STALL_WARN_MS);
    if (stalled === 0) stallWarned = false;
    else if (stalled >= OUTBOX_SENDS_AT_ONCE && !stallWarned) {
      stallWarned = true;
      logger.warn(
        { unanswered: stalled, sendsUnderWay: lanes.size, maxSends: OUTBOX_MAX_SENDS },
        `outbox: the mail server has not answered ${stalled} mails for over a minute; each waits up to ${SMTP_REPLY_TIMEOUT_MS / 60_000} minutes for its answer (a retry then may be a second copy), and other mail goes beside them, up to ${OUTBOX_MAX_SENDS} sends at once`,
      );
    }
  }

  return {
    notify: wake,
    drain: (options = {}) => drain(options),
    deliver: async (id) => {
      const row = await claim({ id });
      return row ? attempt(row) : false;
    },
    start() {
      if (started) return;
      started = true;
      poll = setInterval(wake, OUTBOX_RETRY.pollMs);
      poll.unref();
      wake();
    },
    async stop() {
      started = false;
      clearInterval(poll);
      await Promise.all(running);
    },
  };
}

import { setTimeout } from 'node:timers/promises';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { Logger } from 'pino';
import { ABUSE_LIMITS, mailboxKey, type MessageCode } from '@frontdoor/contract';
import { addNetwork, type AppConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { User } from '../db/types.ts';
import { createCounters, type CounterStore } from './counters.ts';
import { HashQueue, OneAtATime } from './hash-queue.ts';
import { findUserById } from './users.ts';
import { ApiError } from './http.ts';
import { audit } from './audit.ts';
import { noteAccount, noteRefusingLimit, noteWrongGuess, requestLogOr } from './logger.ts';
import { queueAccountMail } from './accounts.ts';
import type { CodePurpose } from './codes.ts';

/**
 * The abuse limits of docs/SECURITY.md. Failures are counted against what is guessed: the account
 * (in its row, shared by every instance), the pair of address and account, and the address's
 * failures (in the counters); successes never count, so a class behind one address is never held
 * back by its own sign-ins.
 */
export interface LimitState {
  counters: CounterStore;
  hashing: HashQueue;
  /** One guess of an account judged at a time (checkGuess). */
  guesses: OneAtATime;
  /** A network on LIMIT_ALLOWLIST: exempt from the per-address limits (never from per-account ones). */
  allowlisted: (address: string) => boolean;
  /** The end of the hour of each address whose failure ceiling this instance has written its line for. */
  addressLinesWritten: Map<string, number>;
  /** This instance's guesses of each address still being checked (reserveAddressGuess). */
  addressChecks: Map<string, AddressChecks>;
}

/** An address's guesses being checked on this instance, and the refused guesses waiting for one to end. */
interface AddressChecks {
  running: number;
  /** How many have ended: a refusal that saw fewer before its count asks again at once. */
  ended: number;
  waiting: Set<() => void>;
}

/**
 * How long a guess refused at its address's ceiling waits for the guesses still being checked there
 * (whose places a right password gives back) before its refusal stands.
 */
export const ADDRESS_CHECKS_WAIT_MS = 5_000;

export const MINUTE_MS = 60 * 1000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

export async function createLimitState(
  config: Pick<AppConfig, 'limits' | 'redisUrl' | 'redisPrefix'>,
  logger: Logger,
): Promise<LimitState> {
  const allowlist = new BlockList();
  for (const entry of config.limits.allowlist) addNetwork(allowlist, entry);
  return {
    counters: await createCounters(config, logger),
    hashing: new HashQueue(config.limits.passwordHashConcurrency, config.limits.passwordHashQueue),
    guesses: new OneAtATime(config.limits.passwordHashQueue),
    allowlisted: (address) => allowlist.check(address, isIPv4(address) ? 'ipv4' : 'ipv6'),
    addressLinesWritten: new Map(),
    addressChecks: new Map(),
  };
}

/** The wait after `failures` consecutive failures: none before the 5th, then 1 s doubling, capped at 15 min. */
export function accountDelayMs(failures: number): number {
  if (failures < ABUSE_LIMITS.accountDelayAfterFailures) return 0;
  const doublings = failures - ABUSE_LIMITS.accountDelayAfterFailures;
  return Math.min(
    ABUSE_LIMITS.accountDelayStartMs * 2 ** Math.min(doublings, 30),
    ABUSE_LIMITS.accountDelayMaxMs,
  );
}

/**
 * A provider's failed access-code guesses a day: with k live codes one guess hits with chance
 * k / 10^6, so F failures take over a code with chance ≈ F·k / 10^6; the budget keeps that at `risk`.
 */
export function accessCodeBudget(risk: number, liveCodes: number): number {
  return Math.max(1, Math.floor((risk * 1e6) / Math.max(1, liveCodes)));
}

/** What a limit counts against, as its log line names it: never an email (an account is its id). */
export type LimitKey =
  | { key: 'address'; address: string }
  | { key: 'pair'; address: string; userId: string }
  | { key: 'account'; userId: string }
  | { key: 'provider'; spId: string };

/**
 * A Retry-After in whole seconds, at least 1: a refusal read a millisecond before its end must not
 * tell the client to come back "in 0 seconds" (a retry loop without a pause).
 */
export const retryAfterSeconds = (retryAfterMs: number): number =>
  Math.max(1, Math.ceil(retryAfterMs / 1000));

/**
 * The one line an operator reads when a limit starts refusing (docs/DEPLOYMENT.md): the limit, the
 * code its refusals answer, what it counts against and for how many seconds it refuses (retryAfter).
 * Written where the limit trips, never for the requests it then refuses, so a flood cannot flood the log;
 * on the line of the request that tripped it (its reqId).
 */
export function logLimitReached(
  logger: Logger,
  reached: { limit: string; code: MessageCode; key: LimitKey; retryAfterMs: number },
  detail: Record<string, unknown> = {},
  level: 'warn' | 'error' = 'warn',
): void {
  const { limit, code, key, retryAfterMs } = reached;
  requestLogOr(logger)[level](
    { limit, code, ...key, retryAfter: retryAfterSeconds(retryAfterMs), ...detail },
    'abuse limit reached',
  );
}

/**
 * The refusal of a guess by `limit` (its name in the log: docs/DEPLOYMENT.md), which the request's line
 * names beside the code, since one code (tooManyFailures) answers both the account's delay and the pair block.
 */
function refuse(
  code: 'tooManyFailures' | 'accountLocked' | 'addressFailureLimit',
  limit: 'account delay' | 'address and account failures' | 'account lock' | 'address failures',
  untilMs: number,
  now: number,
): ApiError {
  noteRefusingLimit(limit);
  return new ApiError(429, code, undefined, Math.max(1000, untilMs - now));
}

/**
 * What a limit counts as one address: an IPv4 address whole; an IPv6 one by its /64, the block one
 * network (a home, a school) is given, whose 2^64 addresses one machine may rotate through at will.
 */
export function countedAddress(address: string): string {
  const ip = address.replace(/%.*$/, '');
  if (!isIPv6(ip)) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  const [head = '', tail] = ip.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  // an IPv4 address written at the end fills two groups
  const width = (list: string[]) => list.reduce((n, group) => n + (group.includes('.') ? 2 : 1), 0);
  const before = groups(head);
  const after = groups(tail);
  const gap = tail === undefined ? [] : Array<string>(8 - width(before) - width(after)).fill('0');
  const network = [...before, ...gap, ...after].slice(0, 4);
  return `${network.map((group) => Number.parseInt(group, 16).toString(16)).join(':')}::/64`;
}

/**
 * Spends one of an unconfirmed account's hourly password checks (ABUSE_LIMITS.unconfirmedPasswordChecksPerHour);
 * false once they are spent, and the caller answers without hashing.
 */
export async function mayCheckUnconfirmedPassword(ctx: AppContext, user: User): Promise<boolean> {
  const { count } = await ctx.limits.counters.hit(`unconfirmed-checks:${user.id}`, ctx.now(), HOUR_MS);
  return count <= ABUSE_LIMITS.unconfirmedPasswordChecksPerHour;
}

const addressKey = (address: string) => `address-failures:${countedAddress(address)}`;
const pairKey = (address: string, userId: string) => `pair-failures:${countedAddress(address)}:${userId}`;

/**
 * A guess counted against its address before it is evaluated, so that guesses sent in parallel each
 * see the ones before them (a burst cannot slip past the ceiling while the first guesses are still
 * being checked). A failure keeps the count; a success, or a guess that was not checked, takes it back.
 */
export interface AddressGuess {
  address: string;
  /** The address's failures this hour with this guess, and when the hour ends; none when allowlisted. */
  counted?: { count: number; expiresAt: number };
  /** Ends its check (once), waking the refused guesses waiting for it; none when allowlisted. */
  end?: () => void;
  /** Kept as a failure or taken back: later calls of releaseAddressGuess do nothing. */
  settled?: boolean;
}

/**
 * Counts a guess against the address before it is evaluated; refuses (429, nothing counted) once
 * the address has spent its failures of the hour. An allowlisted network is never counted.
 */
export async function reserveAddressGuess(ctx: AppContext, address: string): Promise<AddressGuess> {
  if (ctx.limits.allowlisted(address)) return { address };
  const key = addressKey(address);
  const checks = ctx.limits.addressChecks;
  let gaveUp: Promise<boolean> | undefined;
  for (;;) {
    const before = checks.get(key);
    const endedBefore = before?.ended;
    const now = ctx.now();
    // a copy: the memory store's entry changes as later guesses are counted and taken back
    const counted = { ...(await ctx.limits.counters.hit(key, now, HOUR_MS)) };
    if (counted.count <= ctx.config.limits.addressFailuresPerHour)
      return { address, counted, end: startCheck(checks, key) };
    await ctx.limits.counters.undo(key, now, 1);
    // places held by guesses still being checked here are no failures yet: a class's right passwords,
    // sent in the same seconds as its typos, give theirs back. A refusal asks again once one of them
    // has ended (at once, if one ended since it counted); other instances' guesses are not seen here
    const entry = checks.get(key);
    if (before && (entry !== before || before.ended !== endedBefore)) continue;
    if (entry?.running) {
      gaveUp ??= setTimeout(ADDRESS_CHECKS_WAIT_MS, false, { ref: false });
      if (await aCheckEnds(checks, key, entry, gaveUp)) continue;
    }
    // the guess that filled the hour may have been a success or another instance's: this
    // instance's first refusal says so, if no failure here did
    addressLimitReached(ctx, address, counted.expiresAt);
    throw refuse('addressFailureLimit', 'address failures', counted.expiresAt, now);
  }
}

/** Counts a guess of the address as being checked; the function returned ends its check (once). */
function startCheck(checks: Map<string, AddressChecks>, key: string): () => void {
  const entry = checks.get(key) ?? { running: 0, ended: 0, waiting: new Set() };
  checks.set(key, entry);
  entry.running += 1;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    entry.running -= 1;
    entry.ended += 1;
    if (entry.running === 0 && entry.waiting.size === 0) checks.delete(key);
    for (const wake of entry.waiting) wake();
  };
}

/** Waits until a check of `entry` ends (true), or `gaveUp` (false). */
async function aCheckEnds(
  checks: Map<string, AddressChecks>,
  key: string,
  entry: AddressChecks,
  gaveUp: Promise<boolean>,
): Promise<boolean> {
  let wake = () => {};
  const ended = new Promise<boolean>((resolve) => (wake = () => resolve(true)));
  entry.waiting.add(wake);
  try {
    return await Promise.race([ended, gaveUp]);
  } finally {
    entry.waiting.delete(wake);
    if (entry.running === 0 && entry.waiting.size === 0 && checks.get(key) === entry) checks.delete(key);
  }
}

/** The address's "abuse limit reached" line, once per hour it refuses in (on this instance). */
function addressLimitReached(ctx: AppContext, address: string, expiresAt: number): void {
  const written = ctx.limits.addressLinesWritten;
  const key = countedAddress(address);
  if (written.get(key) === expiresAt) return;
  const now = ctx.now();
  for (const [other, end] of written) if (end <= now) written.delete(other);
  written.set(key, expiresAt);
  logLimitReached(ctx.logger, {
    limit: 'address failures',
    code: 'addressFailureLimit',
    key: { key: 'address', address },
    retryAfterMs: expiresAt - now,
  });
}

/**
 * Takes an address's reserved guess back (it was no failure), with up to `forgiven` more of its
 * failures: those the same person made just before succeeding (ABUSE_LIMITS.typosForgivenPerSuccess).
 */
export async function releaseAddressGuess(ctx: AppContext, guess: AddressGuess, forgiven = 0): Promise<void> {
  if (!guess.counted || guess.settled) return;
  guess.settled = true;
  const by = 1 + Math.min(forgiven, ABUSE_LIMITS.typosForgivenPerSuccess);
  try {
    await ctx.limits.counters.undo(addressKey(guess.address), ctx.now(), by);
  } finally {
    guess.end?.();
  }
}

/** A reserved guess of the address failed: it stays counted; the one that spends the hour says so. */
export function addressGuessFailed(ctx: AppContext, guess: AddressGuess): void {
  if (guess.settled) return;
  guess.settled = true;
  guess.end?.();
  if (guess.counted?.count !== ctx.config.limits.addressFailuresPerHour) return;
  addressLimitReached(ctx, guess.address, guess.counted.expiresAt);
}

/**
 * Refuses a password (429, Retry-After) while the account is locked or waiting out its delay, or while
 * this address is blocked for this account. Nothing is checked, so nothing is counted. A mailed code is
 * never refused here: it is its owner's way back in, which anyone keeping the account delayed with wrong
 * passwords would otherwise close too, and it has bounds of its own (CODE_MAX_ATTEMPTS tries a code,
 * the hourly sends); a wrong one still counts as a failure.
 */
async function assertAccountMayGuess(
  ctx: AppContext,
  address: string,
  user: User,
  guess: Guess,
): Promise<User> {
  const now = ctx.now();
  if (user.locked_at !== null) {
    const until = user.locked_at + ABUSE_LIMITS.accountLockMs;
    if (now < until) {
      if (guess !== 'password') return user;
      throw refuse('accountLocked', 'account lock', until, now);
    }
    // the lock has run its 24 h: the account starts again from no failures
    await ctx.db
      .updateTable('users')
      .set({ locked_at: null, failed_attempts: 0, last_failed_at: null })
      .where('id', '=', user.id)
      .where('locked_at', '=', user.locked_at)
      .execute();
    await audit(ctx, { event: 'account.unlocked', userId: user.id, detail: { by: 'expiry' } });
    return { ...user, locked_at: null, failed_attempts: 0, last_failed_at: null };
  }
  if (guess !== 'password') return user;
  const delayedUntil = (user.last_failed_at ?? 0) + accountDelayMs(user.failed_attempts);
  if (now < delayedUntil) throw refuse('tooManyFailures', 'account delay', delayedUntil, now);
  const pair = await ctx.limits.counters.peek(pairKey(address, user.id), now);
  if (pair.count >= ABUSE_LIMITS.pairBlockAfterFailures)
    throw refuse('tooManyFailures', 'address and account failures', pair.expiresAt, now);
  return user;
}

/**
 * Whether an account's failures delay or lock its passwords: someone may be guessing at it, and a
 * mailed code (which passes both) then has CODE_MAX_ATTEMPTS_UNDER_ATTACK tries.
 */
export const underAttack = (user: User): boolean =>
  user.locked_at !== null || user.failed_attempts >= ABUSE_LIMITS.accountDelayAfterFailures;

/** What a failed guess was: a password, or a mailed code of that purpose. */
export type Guess = 'password' | CodePurpose;

/** How a checked guess turned out; `unchecked`: there was nothing to check it against (no live code). */
export type GuessOutcome = 'right' | 'wrong' | 'unchecked';

/**
 * Checks a password or a mailed code of `user` under the abuse limits. One guess of an account is
 * judged at a time (on this instance), each after the ones before it have been counted, so a burst
 * of parallel guesses meets the delay, the pair block and the lock like guesses sent one by one.
 * A password is refused unevaluated (429) while the address, the pair or the account may not guess, a
 * mailed code only while the address may not (assertAccountMayGuess); a wrong guess counts against all
 * three, a right one resets the account and the pair.
 */
export async function checkGuess<T>(
  ctx: AppContext,
  address: string,
  user: User,
  guess: Guess,
  /** Given the account as read in its turn (its failures and lock so far). */
  check: (current: User) => Promise<T>,
  outcomeOf: (result: T) => GuessOutcome,
): Promise<T> {
  // the request's line names the account guessed at, refused or not: why a pupil cannot sign in
  noteAccount(user.id);
  // counted against the address before the account's turn: a guess waiting for the address's places
  // (reserveAddressGuess) holds up no other guess of the account
  const reserved = await reserveAddressGuess(ctx, address);
  try {
    return await ctx.limits.guesses.run(user.id, async () => {
      // read in its turn: the failures of the guesses before this one are in the row
      let current = (await findUserById(ctx.db, user.id)) ?? user;
      let result: T;
      let counted: CountedFailure | undefined;
      try {
        // as the check left it: a lock that had run its 24 h is gone with its failures
        current = await assertAccountMayGuess(ctx, address, current, guess);
        counted = await countFailureFirst(ctx, current);
        result = await check(current);
      } catch (error) {
        // refused, or not evaluated (the hashing queue was full): no failure
        if (counted) await takeBackFailure(ctx, current, counted);
        throw error;
      }
      const outcome = outcomeOf(result);
      if (outcome === 'wrong') await recordFailure(ctx, reserved, current, guess, counted);
      else if (outcome === 'right') await recordSuccess(ctx, reserved, current);
      else if (counted) await takeBackFailure(ctx, current, counted);
      return result;
    });
  } finally {
    // whatever was not kept as a failure or taken back with its typos (a refusal, nothing to check,
    // an error on the way) is no failure
    await releaseAddressGuess(ctx, reserved);
  }
}

/** A failure written before its guess was checked: the account's row as that write left it. */
interface CountedFailure {
  failed_attempts: number;
  last_failed_at: number;
}

/**
 * Once a failure would delay the account (ABUSE_LIMITS.accountDelayAfterFailures), counts the guess
 * as a failure before it is checked, by a write that holds only while the row is as this guess read
 * it. OneAtATime orders one instance's guesses; this orders every instance's: of guesses sent to
 * several instances at once, one is written and checked, and the others find its failure and its
 * delay (429 tooManyFailures), as they would one by one. A right guess then resets the account, as
 * always; a guess not evaluated takes its failure back.
 */
async function countFailureFirst(ctx: AppContext, user: User): Promise<CountedFailure | undefined> {
  if (accountDelayMs(user.failed_attempts + 1) === 0) return undefined;
  const now = ctx.now();
  const written = await ctx.db
    .updateTable('users')
    .set({ failed_attempts: user.failed_attempts + 1, last_failed_at: now })
    .where('id', '=', user.id)
    .where('failed_attempts', '=', user.failed_attempts)
    .where('last_failed_at', user.last_failed_at === null ? 'is' : '=', user.last_failed_at)
    .executeTakeFirst();
  if (Number(written.numUpdatedRows) === 1)
    return { failed_attempts: user.failed_attempts + 1, last_failed_at: now };
  // another instance's guess of this account was counted since this one read the row
  throw refuse('tooManyFailures', 'account delay', now + accountDelayMs(user.failed_attempts + 1), now);
}

/** Takes back a failure counted first (the guess was not evaluated), unless the row moved on since. */
async function takeBackFailure(ctx: AppContext, user: User, counted: CountedFailure): Promise<void> {
  await ctx.db
    .updateTable('users')
    .set({ failed_attempts: user.failed_attempts, last_failed_at: user.last_failed_at })
    .where('id', '=', user.id)
    .where('failed_attempts', '=', counted.failed_attempts)
    .where('last_failed_at', '=', counted.last_failed_at)
    .execute();
}

/** Writes a failed guess to the audit log: a failed sign-in, or a wrong mailed code. */
async function auditFailure(ctx: AppContext, address: string, user: User | undefined, guess: Guess) {
  noteWrongGuess();
  await audit(ctx, {
    ...(guess === 'password'
      ? { event: 'sign-in.failed', detail: { method: 'password', ...(user ? {} : { unknownAccount: true }) } }
      : { event: 'code.failed', detail: { purpose: guess, ...(user ? {} : { unknownAccount: true }) } }),
    userId: user?.id,
    address,
  });
}

/**
 * A wrong password or code: counts against the account, the pair and the address (locks at 100),
 * and is written to the audit log.
 */
async function recordFailure(
  ctx: AppContext,
  reserved: AddressGuess,
  user: User,
  guess: Guess,
  counted?: CountedFailure,
): Promise<void> {
  const { address } = reserved;
  addressGuessFailed(ctx, reserved);
  await auditFailure(ctx, address, user, guess);
  const now = ctx.now();
  const pair = await ctx.limits.counters.hit(pairKey(address, user.id), now, ABUSE_LIMITS.pairBlockMs, true);
  if (pair.count === ABUSE_LIMITS.pairBlockAfterFailures)
    logLimitReached(ctx.logger, {
      limit: 'address and account failures',
      code: 'tooManyFailures',
      key: { key: 'pair', address, userId: user.id },
      retryAfterMs: pair.expiresAt - now,
    });
  const row = counted
    ? { failed_attempts: counted.failed_attempts, locked_at: null }
    : await ctx.db
        .updateTable('users')
        .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1), last_failed_at: now }))
        .where('id', '=', user.id)
        .returning(['failed_attempts', 'locked_at'])
        .executeTakeFirst();
  if (!row || row.failed_attempts < ABUSE_LIMITS.accountLockAfterFailures || row.locked_at !== null) return;
  // of concurrent failures (several instances), only the one that set the lock tells the owner
  const locked = await ctx.db.transaction().execute(async (trx) => {
    const set = await trx
      .updateTable('users')
      .set({ locked_at: now })
      .where('id', '=', user.id)
      .where('locked_at', 'is', null)
      .executeTakeFirst();
    if (Number(set.numUpdatedRows) !== 1) return false;
    await queueAccountMail(trx, ctx, user, { kind: 'locked' });
    return true;
  });
  if (!locked) return;
  ctx.outbox.notify();
  logLimitReached(
    ctx.logger,
    {
      limit: 'account lock',
      code: 'accountLocked',
      key: { key: 'account', userId: user.id },
      retryAfterMs: ABUSE_LIMITS.accountLockMs,
    },
    { failures: row.failed_attempts },
  );
  await audit(ctx, {
    event: 'account.locked',
    userId: user.id,
    address,
    detail: { failures: row.failed_attempts },
  });
}

/**
 * A password or code for an email without an account: refused or counted like any failure of the
 * address, and written to the audit log (without the email).
 */
export async function guessAtUnknownAccount(ctx: AppContext, address: string, guess: Guess): Promise<void> {
  addressGuessFailed(ctx, await reserveAddressGuess(ctx, address));
  await auditFailure(ctx, address, undefined, guess);
}

/**
 * A right password or code: the account and the pair start again from no failures, and the address
 * takes back this guess and this account's typos here just before it (the pair's count).
 */
async function recordSuccess(ctx: AppContext, reserved: AddressGuess, user: User): Promise<void> {
  const key = pairKey(reserved.address, user.id);
  const typos = await ctx.limits.counters.peek(key, ctx.now());
  await releaseAddressGuess(ctx, reserved, typos.count);
  await ctx.limits.counters.clear(key);
  if (user.failed_attempts === 0 && user.last_failed_at === null) return;
  await ctx.db
    .updateTable('users')
    .set({ failed_attempts: 0, last_failed_at: null })
    .where('id', '=', user.id)
    .execute();
}

/** Ends a lock now (`npm run admin -- user unlock`); false when the account was not locked or failing. */
export async function unlockAccount(
  ctx: Pick<AppContext, 'db' | 'now' | 'logger'>,
  user: User,
  by: string,
): Promise<boolean> {
  const res = await ctx.db
    .updateTable('users')
    .set({ locked_at: null, failed_attempts: 0, last_failed_at: null })
    .where('id', '=', user.id)
    .executeTakeFirst();
  const wasLocked = user.locked_at !== null;
  if (Number(res.numUpdatedRows) === 1)
    await audit(ctx, { event: 'account.unlocked', userId: user.id, detail: { by, wasLocked } });
  return wasLocked || user.failed_attempts > 0;
}

const mailKey = (address: string) => `mail-sends:${countedAddress(address)}`;

/** The account a code would be mailed to: its id (none before a sign-up creates it) and its address. */
export type CodeRecipient = { id?: string; email: string };

/**
 * How long until a code may be mailed to `recipient` (when known) from `address`: at most
 * LIMIT_MAIL_PER_ACCOUNT_PER_HOUR codes to one account, or to one inbox across the accounts whose mail
 * reaches it (contract mailboxKey: v+1@…, v+2@… are accounts of their own, one person's inbox), counted
 * from the codes issued, so every instance agrees; and LIMIT_MAIL_PER_ADDRESS_PER_HOUR from one address.
 * 0: now.
 */
export async function codeSendWaitMs(
  ctx: AppContext,
  address: string | undefined,
  recipient: CodeRecipient | undefined,
): Promise<number> {
  const now = ctx.now();
  const { limits } = ctx.config;
  if (recipient) {
    const mailbox = mailboxKey(recipient.email);
    const recent = await ctx.db
      .selectFrom('email_codes')
      .select('created_at')
      .where((eb) =>
        eb.or([
          eb('mailbox', '=', mailbox),
          // codes issued before migration 021 have no mailbox
          ...(recipient.id ? [eb('user_id', '=', recipient.id)] : []),
        ]),
      )
      .where('created_at', '>', now - HOUR_MS)
      .orderBy('created_at', 'asc')
      .execute();
    if (recent.length >= limits.mailSendsPerAccountPerHour) {
      const oldest = recent[recent.length - limits.mailSendsPerAccountPerHour]?.created_at ?? now;
      return oldest + HOUR_MS - now;
    }
  }
  if (address === undefined || ctx.limits.allowlisted(address)) return 0;
  const sent = await ctx.limits.counters.peek(mailKey(address), now);
  return sent.count >= limits.mailSendsPerAddressPerHour ? sent.expiresAt - now : 0;
}

/**
 * Before a code is mailed to `recipient`: refuses (429 codeSendLimit) past the account's or its inbox's
 * hourly codes (codeSendWaitMs); the address's sends are taken by reserveCodeSend.
 */
export async function assertMaySendCode(ctx: AppContext, recipient: CodeRecipient): Promise<void> {
  const wait = await codeSendWaitMs(ctx, undefined, recipient);
  if (wait > 0) throw new ApiError(429, 'codeSendLimit', undefined, Math.max(1000, wait));
}

/** One of an address's hourly mail sends, held while its code is issued. */
export interface CodeSendReservation {
  /** No code went out (a cooldown skipped it, a failure): the send goes back. */
  release(): Promise<void>;
  /** The code went out: the send that took the hour's last says that the limit now refuses. */
  kept(): void;
}

/**
 * Takes one of the address's hourly sends (LIMIT_MAIL_PER_ADDRESS_PER_HOUR) before a code is issued,
 * or refuses (429 codeSendLimit, nothing counted): sends asked for at once each see the ones before
 * them, so a burst from one address mails no more than the limit. An allowlisted address is not counted.
 */
export async function reserveCodeSend(ctx: AppContext, address: string): Promise<CodeSendReservation> {
  if (ctx.limits.allowlisted(address)) return { release: async () => {}, kept: () => {} };
  const now = ctx.now();
  const key = mailKey(address);
  const max = ctx.config.limits.mailSendsPerAddressPerHour;
  const spent = await ctx.limits.counters.hit(key, now, HOUR_MS);
  const retryAfterMs = spent.expiresAt - now;
  if (spent.count > max) {
    await ctx.limits.counters.undo(key, now, 1);
    throw new ApiError(429, 'codeSendLimit', undefined, Math.max(1000, retryAfterMs));
  }
  return {
    release: () => ctx.limits.counters.undo(key, ctx.now(), 1),
    kept: () => {
      if (spent.count === max)
        logLimitReached(ctx.logger, {
          limit: 'mail sends per address',
          code: 'codeSendLimit',
          key: { key: 'address', address },
          retryAfterMs,
        });
    },
  };
}

/**
 * Server-to-server calls of one service provider a minute, counted per client id; never per address.
 * Those with a wrong secret (`staleSecret`) count apart: anyone knowing a client id could otherwise
 * spend the product's own calls; the first of each minute is logged for the operator.
 */
export async function assertServiceProviderCall(
  ctx: AppContext,
  sp: { spId: string; clientId: string },
  staleSecret = false,
): Promise<void> {
  const now = ctx.now();
  const max = Math.ceil(ctx.config.limits.serviceProviderCallsPerMinute * ctx.config.rateLimitMultiplier);
  const calls = await ctx.limits.counters.hit(
    `${staleSecret ? 'sp-stale-secret' : 'sp-calls'}:${sp.clientId}`,
    now,
    MINUTE_MS,
  );
  if (staleSecret && calls.count === 1)
    requestLogOr(ctx.logger).warn({ spId: sp.spId }, 'service provider sent a wrong client secret');
  if (calls.count <= max) return;
  const retryAfterMs = Math.max(1000, calls.expiresAt - now);
  // the first call over the limit is where it starts refusing
  if (calls.count === max + 1)
    logLimitReached(ctx.logger, {
      limit: staleSecret ? 'service-provider wrong secrets' : 'service-provider calls',
      code: 'tooManyRequests',
      key: { key: 'provider', spId: sp.spId },
      retryAfterMs,
    });
  throw new ApiError(429, 'tooManyRequests', undefined, retryAfterMs);
}

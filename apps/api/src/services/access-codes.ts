import { randomUUID } from 'node:crypto';
import { setTimeout } from 'node:timers/promises';
import type { ExpressionBuilder } from 'kysely';
import { ABUSE_LIMITS, ACCESS_CODE_LENGTH, wrongProviderMessage } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { POOL_WAIT_MS, STATEMENT_TIMEOUT_MS, type Db } from '../db/index.ts';
import type { Database } from '../db/types.ts';
import { accessCodeDigest, browserTag, randomDigits, sha256 } from './crypto.ts';
import { createCookieHash } from './cookie-hashes.ts';
import { audit } from './audit.ts';
import { ApiError } from './http.ts';
import {
  DAY_MS,
  HOUR_MS,
  accessCodeBudget,
  addressGuessFailed,
  type AddressGuess,
  countedAddress,
  logLimitReached,
  releaseAddressGuess,
  reserveAddressGuess,
} from './limits.ts';
import { noteWrongGuess, requestLogOr } from './logger.ts';
import { findServiceProvider } from './service-providers.ts';
import { findUserById, isAdministrator } from './users.ts';

type CodeContext = Pick<AppContext, 'db' | 'config' | 'now'>;

/**
 * A classroom access code: six digits (§1 "six-digit") for one student at one service provider,
 * stored as a keyed hash, living ACCESS_CODE_TTL_DAYS unless `ttlDays` says otherwise (at most
 * ABUSE_LIMITS.accessCodeMaxTtlDays).
 */
export async function createAccessCode(
  ctx: CodeContext,
  input: { spId: string; userId: string; ttlDays?: number | undefined },
): Promise<{ id: string; code: string; expiresAt: number }> {
  const now = ctx.now();
  const ttlDays = input.ttlDays ?? ctx.config.limits.accessCodeTtlDays;
  // a code that never expires, or a date no Date can hold, would be stored and break every listing
  if (!Number.isSafeInteger(ttlDays) || ttlDays < 1 || ttlDays > ABUSE_LIMITS.accessCodeMaxTtlDays)
    throw new RangeError(
      `an access code lives 1 to ${ABUSE_LIMITS.accessCodeMaxTtlDays} days, not ${ttlDays}`,
    );
  const expiresAt = now + ttlDays * DAY_MS;
  for (;;) {
    const code = randomDigits(ACCESS_CODE_LENGTH);
    const codeHash = accessCodeDigest(ctx.config.secret, code);
    // unique in the deployment, so a code typed at the wrong product is found at exactly one other
    const taken = await ctx.db
      .selectFrom('access_codes')
      .select('id')
      .where('code_hash', '=', codeHash)
      .executeTakeFirst();
    if (taken) continue;
    const id = randomUUID();
    await ctx.db
      .insertInto('access_codes')
      .values({
        id,
        code_hash: codeHash,
        sp_id: input.spId,
        user_id: input.userId,
        created_at: now,
        expires_at: expiresAt,
        revoked_at: null,
      })
      .execute();
    return { id, code, expiresAt };
  }
}

/** Codes that can sign in now: not revoked, not expired. */
export const liveCodes = (db: Db, now: number) =>
  db.selectFrom('access_codes').where('revoked_at', 'is', null).where('expires_at', '>', now);

export async function countLiveCodes(db: Db, spId: string, now: number): Promise<number> {
  const row = await liveCodes(db, now)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('sp_id', '=', spId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listAccessCodes(db: Db, spId: string, now: number) {
  const rows = await db
    .selectFrom('access_codes')
    .innerJoin('users', 'users.id', 'access_codes.user_id')
    .select([
      'access_codes.id',
      'users.email',
      'access_codes.created_at',
      'access_codes.expires_at',
      'access_codes.revoked_at',
    ])
    .where('access_codes.sp_id', '=', spId)
    .orderBy('access_codes.created_at', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    createdAt: new Date(r.created_at).toISOString(),
    expiresAt: new Date(r.expires_at).toISOString(),
    state: r.revoked_at !== null ? 'revoked' : r.expires_at <= now ? 'expired' : 'live',
  }));
}

/**
 * Revokes live codes by id, or every live code of a student at a provider; returns how many. Each is
 * audited with its student and provider, so `audit list --id <student>` shows it.
 */
export async function revokeAccessCodes(
  ctx: Pick<AppContext, 'db' | 'now'>,
  which: { id: string } | { spId: string; userId: string },
): Promise<number> {
  const now = ctx.now();
  let query = ctx.db.updateTable('access_codes').set({ revoked_at: now }).where('revoked_at', 'is', null);
  query =
    'id' in which
      ? query.where('id', '=', which.id)
      : query.where('sp_id', '=', which.spId).where('user_id', '=', which.userId);
  const revoked = await query.returning(['id', 'user_id', 'sp_id']).execute();
  for (const code of revoked)
    await audit(ctx, {
      event: 'access-code.revoked',
      userId: code.user_id,
      spId: code.sp_id,
      detail: { id: code.id },
    });
  return revoked.length;
}

/** The UTC day number of an instant: access_code_failures counts per provider per day. */
export const utcDay = (now: number): number => Math.floor(now / DAY_MS);

/** The provider's budget of failed guesses today, derived from its live codes (limits.accessCodeBudget). */
export async function accessCodeBudgetOf(ctx: CodeContext, spId: string) {
  const now = ctx.now();
  const live = await countLiveCodes(ctx.db, spId, now);
  const budget = accessCodeBudget(ctx.config.limits.accessCodeDailyRisk, live);
  const { failures, inFlight } = await providerToday(ctx, spId);
  return {
    liveCodes: live,
    budget,
    failures,
    remaining: Math.max(0, budget - failures),
    inFlight,
    resetsAt: (utcDay(now) + 1) * DAY_MS,
  };
}

type Budget = Awaited<ReturnType<typeof accessCodeBudgetOf>>;

/**
 * A provider's budget is spent: the first to see it tells the operator (error line, audit entry),
 * once a day, whether a failure spent it or new codes shrank it below the failures already counted.
 */
async function noticeBudgetSpent(ctx: AppContext, spId: string, spent: Budget): Promise<void> {
  const now = ctx.now();
  const marked = await ctx.db
    .updateTable('access_code_failures')
    .set({ exhausted_at: now })
    .where('sp_id', '=', spId)
    .where('day', '=', utcDay(now))
    .where('exhausted_at', 'is', null)
    .executeTakeFirst();
  if (Number(marked.numUpdatedRows) !== 1) return;
  const { failures, budget, liveCodes, resetsAt } = spent;
  const detail = { failures, budget, liveCodes, resetsAt: new Date(resetsAt).toISOString() };
  // error, not warn: every class of the provider loses its code sign-in until the day ends
  logLimitReached(
    ctx.logger,
    {
      limit: 'access-code budget',
      code: 'accessCodesPaused',
      key: { key: 'provider', spId },
      retryAfterMs: resetsAt - now,
    },
    detail,
    'error',
  );
  await audit(ctx, { event: 'access-codes.budget-exhausted', spId, detail });
}

/** Counts one failed guess against a provider today (atomically): another provider's code named. */
async function countProviderFailure(ctx: CodeContext, spId: string): Promise<void> {
  await ctx.db
    .insertInto('access_code_failures')
    .values({ sp_id: spId, day: utcDay(ctx.now()), failures: 1, exhausted_at: null })
    .onConflict((oc) =>
      oc
        .columns(['sp_id', 'day'])
        .doUpdateSet((eb) => ({ failures: eb('access_code_failures.failures', '+', 1) })),
    )
    .execute();
}

/**
 * How long a held place counts after the provider's last hold. Between its hold and its settle a
 * guess runs three statements (its code, its student, the settle), each within the pool's wait and
 * the statement timeout on PostgreSQL (busy_timeout on SQLite): a place older than that belongs to a
 * guess that ended without giving it back (the database unreachable at its settle, a crash).
 */
export const PLACE_LEASE_MS = 3 * (POOL_WAIT_MS + STATEMENT_TIMEOUT_MS);

/**
 * The provider's places in flight today: none once its last hold is older than PLACE_LEASE_MS (then
 * every place is), so places never given back free themselves though no instance remembers them.
 */
const placesInFlight = (eb: ExpressionBuilder<Database, 'access_code_failures'>, now: number) =>
  eb
    .case()
    .when('access_code_failures.held_at', '>', now - PLACE_LEASE_MS)
    .then(eb.ref('access_code_failures.in_flight'))
    .else(0)
    .end();

/** Today's failures of a provider (wrong guesses already looked up) and its places in flight. */
async function providerToday(ctx: CodeContext, spId: string) {
  const now = ctx.now();
  const row = await ctx.db
    .selectFrom('access_code_failures')
    .select((eb) => ['failures', 'held_at', placesInFlight(eb, now).as('in_flight')])
    .where('sp_id', '=', spId)
    .where('day', '=', utcDay(now))
    .executeTakeFirst();
  return { failures: row?.failures ?? 0, inFlight: Number(row?.in_flight ?? 0), heldAt: row?.held_at ?? now };
}

/** How a guess waits for the guesses before it to settle: 40 tries, 25 ms apart (about a second). */
const SETTLE_ATTEMPTS = 40;
const SETTLE_WAIT_MS = 25;

/** A guess's place in its provider's budget of one day (holdBudgetPlace). */
interface BudgetPlace {
  spId: string;
  day: number;
}

/**
 * Holds a place for one guess within the provider's budget before its code is looked up, in one
 * statement every instance shares: today's failures and the guesses being looked up (`in_flight`)
 * may not pass the budget, so a burst of wrong codes cannot spend more than the budget. Only a wrong
 * code then becomes a failure (settleBudgetPlace), so a class typing its right codes at once never
 * pauses its provider nor alarms its operator: while the budget is full only of guesses still being
 * looked up, a guess waits for them to settle (about a second, then 429 tooManyRequests). A place
 * never given back (the database unreachable at its settle, an instance crashing mid-lookup) counts
 * until PLACE_LEASE_MS after the provider's last hold.
 */
async function holdBudgetPlace(ctx: AppContext, spId: string, spent: Budget): Promise<BudgetPlace> {
  for (let attempt = 1; ; attempt++) {
    const now = ctx.now();
    const place = { spId, day: utcDay(now) };
    const held = await ctx.db
      .insertInto('access_code_failures')
      .values({ sp_id: spId, day: place.day, failures: 0, in_flight: 1, held_at: now, exhausted_at: null })
      .onConflict((oc) =>
        oc
          .columns(['sp_id', 'day'])
          .doUpdateSet((eb) => ({
            in_flight: eb(placesInFlight(eb, now), '+', 1),
            held_at: now,
          }))
          .where((eb) =>
            eb(eb('access_code_failures.failures', '+', placesInFlight(eb, now)), '<', spent.budget),
          ),
      )
      .returning('day')
      .executeTakeFirst();
    if (held) return place;
    const today = await providerToday(ctx, spId);
    if (today.failures >= spent.budget) {
      await noticeBudgetSpent(ctx, spId, { ...spent, failures: today.failures });
      throw new ApiError(429, 'accessCodesPaused', undefined, spent.resetsAt - now);
    }
    if (attempt === SETTLE_ATTEMPTS) {
      noticePlacesHeld(ctx, spId, spent, today);
      throw new ApiError(429, 'tooManyRequests', undefined, 1000);
    }
    await setTimeout(SETTLE_WAIT_MS);
  }
}

/** Per instance (its limits' state), when each provider's held places were last logged. */
const placesLogged = new WeakMap<AppContext['limits'], Map<string, number>>();

/**
 * Guesses were refused because the provider's places stayed held: a flood of lookups, or places
 * never given back (a database blip) that free themselves PLACE_LEASE_MS after its last hold. Told
 * once a lease per provider (on this instance), so a class's refusals or a flood write one line.
 */
function noticePlacesHeld(
  ctx: AppContext,
  spId: string,
  spent: Budget,
  today: Awaited<ReturnType<typeof providerToday>>,
): void {
  let logged = placesLogged.get(ctx.limits);
  if (!logged) placesLogged.set(ctx.limits, (logged = new Map()));
  const now = ctx.now();
  if ((logged.get(spId) ?? -Infinity) > now - PLACE_LEASE_MS) return;
  logged.set(spId, now);
  logLimitReached(
    ctx.logger,
    {
      limit: 'access-code places',
      code: 'tooManyRequests',
      key: { key: 'provider', spId },
      retryAfterMs: today.heldAt + PLACE_LEASE_MS - now,
    },
    { inFlight: today.inFlight, failures: today.failures, budget: spent.budget },
  );
}

/** Gives a guess's place back once its code is looked up; a wrong one becomes a failure in the same write. */
async function settleBudgetPlace(ctx: CodeContext, place: BudgetPlace, failed: boolean): Promise<void> {
  await ctx.db
    .updateTable('access_code_failures')
    .set((eb) => ({
      in_flight: eb
        .case()
        .when('in_flight', '>', 0)
        .then(eb('in_flight', '-', 1))
        .else(0)
        .end(),
      ...(failed ? { failures: eb('failures', '+', 1) } : {}),
    }))
    .where('sp_id', '=', place.spId)
    .where('day', '=', place.day)
    .execute();
}

/** Tells the operator when a provider's failures have reached its budget (noticeBudgetSpent). */
async function noticeIfSpent(ctx: AppContext, spId: string): Promise<void> {
  const spent = await accessCodeBudgetOf(ctx, spId);
  if (spent.failures >= spent.budget) await noticeBudgetSpent(ctx, spId, spent);
}

/**
 * Whether a wrong guess may still learn that its code is another provider's ('not for …').
 * That answer tests a guess against every live code of the deployment, so its budget is the
 * deployment's: today's failures of every provider within accessCodeBudget of all live codes. Past
 * it, such a code answers like any wrong one, and no provider's codes are exposed beyond the risk.
 */
async function mayNameOtherProvider(ctx: CodeContext): Promise<boolean> {
  const now = ctx.now();
  const live = await liveCodes(ctx.db, now)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const spent = await ctx.db
    .selectFrom('access_code_failures')
    .select((eb) => eb.fn.sum<number>('failures').as('failures'))
    .where('day', '=', utcDay(now))
    .executeTakeFirst();
  const budget = accessCodeBudget(ctx.config.limits.accessCodeDailyRisk, Number(live.n));
  return Number(spent?.failures ?? 0) <= budget;
}

/**
 * Wrong codes of one browser behind an address in the last hour: its right code forgives them (a few,
 * once an hour: forgivenKey) and starts the count again; at ABUSE_LIMITS.browserCodeFailuresWarnPerHour a
 * warn line names the browser.
 */
const typosKey = (address: string, browser: string) =>
  // the browser's token is the client's to choose: hashed, a 15 kB cookie makes a 64-byte key
  `access-code-typos:${countedAddress(address)}:${sha256(browser)}`;
/**
 * A code forgives its typos once an hour. A wrong code is a guess at the class's other codes, and the browser is
 * the client's to choose: a student who types their own code after every three guesses would
 * otherwise keep the address's failure count flat while spending the provider's budget.
 */
const forgivenKey = (codeHash: string) => `access-code-forgave:${codeHash}`;

/**
 * GET accessCodes/login/{code}/{sp_id}: the code is looked up within the provider asked for. A
 * wrong guess counts against that provider's daily budget and the address; a code of another
 * provider answers the spec's 'not for <the product being signed into>' (while the deployment's budget allows it,
 * mayNameOtherProvider) and counts against both providers. While the budget is spent, the
 * provider's class-code sign-in answers 429 without looking anything up.
 */
export async function accessCodeLogin(
  ctx: AppContext,
  input: { code: string; spId: string; address: string; browser: string },
): Promise<{ cookieHash: string; spId: string }> {
  if (!(await findServiceProvider(ctx.db, input.spId))) {
    // no provider, no budget to spend: the guess still counts against the address
    addressGuessFailed(ctx, await reserveAddressGuess(ctx, input.address));
    noteWrongGuess();
    await audit(ctx, {
      event: 'sign-in.failed',
      address: input.address,
      detail: { method: 'access-code', unknownProvider: true },
    });
    throw new ApiError(404, 'accessCodeNotFound');
  }
  const spent = await accessCodeBudgetOf(ctx, input.spId);
  // holdBudgetPlace would refuse too; this read first keeps a paused provider's flood of refusals
  // from writing (and taking back) a count each, and tells the operator
  if (spent.failures >= spent.budget) {
    await noticeBudgetSpent(ctx, input.spId, spent);
    throw new ApiError(429, 'accessCodesPaused', undefined, spent.resetsAt - ctx.now());
  }
  // counted against the address before a place in the budget is taken: a guess waiting for the
  // address's places (reserveAddressGuess) holds none of the provider's, which other schools need
  const guess = await reserveAddressGuess(ctx, input.address);
  try {
    const place = await holdBudgetPlace(ctx, input.spId, spent);
    let settled = false;
    // once: by the lookup's outcome, else (a refusal, an error) as no failure
    const settle = async (failed: boolean) => {
      if (settled) return;
      settled = true;
      await settleBudgetPlace(ctx, place, failed);
    };
    try {
      return await lookUpGuess(ctx, input, guess, settle);
    } finally {
      await settle(false);
    }
  } finally {
    // not kept as a failure nor taken back with its typos (an error on the way): no failure
    await releaseAddressGuess(ctx, guess);
  }
}

/**
 * accessCodeLogin's guess, within its place in the provider's budget, which `settle` gives back as
 * soon as the code is looked up: a wrong code as a failure.
 */
async function lookUpGuess(
  ctx: AppContext,
  input: { code: string; spId: string; address: string; browser: string },
  guess: AddressGuess,
  settle: (failed: boolean) => Promise<void>,
): Promise<{ cookieHash: string; spId: string }> {
  const now = ctx.now();
  const typos = typosKey(input.address, input.browser);
  const codeHash = accessCodeDigest(ctx.config.secret, input.code);
  const row = await liveCodes(ctx.db, now)
    .select(['user_id', 'sp_id'])
    .where('code_hash', '=', codeHash)
    .where('sp_id', '=', input.spId)
    .executeTakeFirst();
  // a code made before its account became an administrator's opens nothing
  const student = row && (await findUserById(ctx.db, row.user_id));
  if (row && student && !isAdministrator(student)) {
    await settle(false);
    // only a code that has typos to forgive spends its hour's forgiveness (and writes a counter)
    const { count: typed } = await ctx.limits.counters.peek(typos, now);
    const forgives =
      typed > 0 && (await ctx.limits.counters.hit(forgivenKey(codeHash), now, HOUR_MS)).count === 1;
    await releaseAddressGuess(ctx, guess, forgives ? typed : 0);
    // only a forgiving code starts the count again: a guesser typing their own code between guesses
    // would otherwise never reach the warn line
    if (forgives) await ctx.limits.counters.clear(typos);
    // an account turned off is refused at auth/cookie (no session starts): no sign-in to record
    const disabled = student.disabled_at !== null;
    await audit(ctx, {
      event: disabled ? 'sign-in.failed' : 'sign-in',
      userId: row.user_id,
      spId: row.sp_id,
      address: input.address,
      detail: { method: 'access-code', ...(disabled && { reason: 'disabled' }) },
    });
    return {
      cookieHash: await createCookieHash(
        ctx.db,
        { userId: row.user_id, spId: row.sp_id, browser: input.browser },
        now,
      ),
      spId: row.sp_id,
    };
  }

  await settle(true);
  addressGuessFailed(ctx, guess);
  noteWrongGuess();
  const { count: wrong } = await ctx.limits.counters.hit(typos, now, HOUR_MS);
  // once an hour per browser: a guesser among the school's pupils, before the address limit locks them all out
  if (wrong === ABUSE_LIMITS.browserCodeFailuresWarnPerHour)
    requestLogOr(ctx.logger).warn(
      {
        spId: input.spId,
        browser: browserTag(ctx.config.secret, input.browser),
        wrongCodes: wrong,
        address: input.address,
      },
      'many wrong class codes from one browser',
    );
  await audit(ctx, {
    event: 'sign-in.failed',
    spId: input.spId,
    address: input.address,
    detail: { method: 'access-code' },
  });
  await noticeIfSpent(ctx, input.spId);
  if (!(await mayNameOtherProvider(ctx))) throw new ApiError(404, 'accessCodeNotFound');
  const other = await liveCodes(ctx.db, now)
    .select('sp_id')
    .where('code_hash', '=', codeHash)
    .where('sp_id', '!=', input.spId)
    .executeTakeFirst();
  if (!other) throw new ApiError(404, 'accessCodeNotFound');
  await countProviderFailure(ctx, other.sp_id);
  await noticeIfSpent(ctx, other.sp_id);
  // the product being signed into: the code is not for it (naming the code's own would say the opposite,
  // and tell a guesser whose code it found)
  const name = (await findServiceProvider(ctx.db, input.spId))?.name ?? input.spId;
  const refusal = new ApiError(400, 'accessCodeWrongProviderPrefix', wrongProviderMessage(name));
  refusal.extras = { sp_name: name };
  throw refusal;
}

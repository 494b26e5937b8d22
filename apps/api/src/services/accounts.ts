import { sql } from 'kysely';
import {
  CODE_MAX_ATTEMPTS,
  CODE_MAX_ATTEMPTS_UNDER_ATTACK,
  RESEND_COOLDOWN_SECONDS,
  cleanName,
  embedMessage,
  mailboxKey,
  messages,
  type MessageCode,
  type ResendResult,
} from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { claimOnce } from '../db/claim-once.ts';
import { isPostgres } from '../db/dialect.ts';
import type { Db } from '../db/index.ts';
import type { User } from '../db/types.ts';
import { newMessageId, type MailMessage } from '../mail/mailer.ts';
import { pickLanguage, renderMail, type MailKind } from '../mail/render.ts';
import { ApiError, type FailureStatus } from './http.ts';
import {
  checkCode,
  consumeCode,
  hasLiveCode,
  issueCode,
  lastIssuedAt,
  wasJustUsed,
  type CodeCheck,
  type CodePurpose,
} from './codes.ts';
import {
  emailStatusOf,
  findUserByEmail,
  findUserById,
  hashPassword,
  newUserRow,
  verifyPassword,
  type NewAccount,
} from './users.ts';
import { passwordRefusal } from './password-policy.ts';
import { revokeUserSessions } from './sessions.ts';
import { randomToken, safeEqual, sha256 } from './crypto.ts';
import { audit, type AuditEvent } from './audit.ts';
import { noteAccount } from './logger.ts';
import { enqueue, latestMailRefused, retryDelayedCodeMail } from './outbox.ts';
import {
  assertMaySendCode,
  checkGuess,
  codeSendWaitMs,
  guessAtUnknownAccount,
  mayCheckUnconfirmedPassword,
  reserveCodeSend,
  underAttack,
  type CodeSendReservation,
} from './limits.ts';

/**
 * The name a mail greets its reader by: only that of an account whose owner proved the address and
 * chose the password and the names. Until then it is whatever the person who signed up typed, and
 * anyone may sign up with anyone's address: their words would open a genuine mail to it.
 */
const greetingName = (
  user: Partial<Pick<User, 'first' | 'confirmed' | 'must_reset' | 'names_proven'>>,
): string =>
  // cleaned again: a name stored before cleanName may hold a line break or a bidi control
  user.confirmed === 1 && user.must_reset === 0 && user.names_proven === 1 ? cleanName(user.first ?? '') : '';

/**
 * Renders a mail into the outbox. `trx` is the transaction that writes what the mail carries (the
 * code, the invite, the lock), so both or neither exist; notify the outbox after it commits.
 */
export async function queueAccountMail(
  trx: Db,
  ctx: Pick<AppContext, 'config' | 'now'>,
  user: Pick<User, 'email' | 'first' | 'language'> &
    Partial<Pick<User, 'id' | 'confirmed' | 'must_reset' | 'names_proven'>>,
  mail: MailKind,
  codeId: number | null = null,
): Promise<void> {
  const now = ctx.now();
  // the request's line names the account its mail is about (a sign-up, a resend), as a delivery's does
  if (user.id) noteAccount(user.id);
  const message: MailMessage = {
    ...renderMail({ to: user.email, first: greetingName(user), language: user.language }, mail, ctx.config),
    // named now, so a retry is the same message and a receiver can drop a second copy
    messageId: newMessageId(ctx.config.mailSender),
    date: now,
  };
  await enqueue(trx, {
    kind: 'mail',
    payload: JSON.stringify(message),
    userId: user.id ?? null,
    codeId,
    template: mail.kind,
    now,
  });
}

/**
 * Keeps the language the account holder signed in with (`languages`: the request's, best first) as the
 * account's: a mail no request asks for (the lock's) goes out in it, not in the sign-up's forever.
 */
async function rememberLanguage(
  ctx: Pick<AppContext, 'db'>,
  user: Pick<User, 'id' | 'language'>,
  languages: (string | undefined)[],
): Promise<void> {
  if (!languages.some(Boolean)) return;
  const language = pickLanguage(...languages, user.language);
  if (language !== user.language)
    await ctx.db.updateTable('users').set({ language }).where('id', '=', user.id).execute();
}

/**
 * What every sign-in that proved who it is records: the language it spoke (tag lists, best first)
 * becomes the account's (its mails follow), and the audit log's `sign-in` entry.
 */
export async function recordSignIn(
  ctx: AppContext,
  user: User,
  signIn: { address: string; languages: (string | undefined)[]; detail: AuditEvent['detail'] },
): Promise<void> {
  await rememberLanguage(ctx, user, signIn.languages);
  await audit(ctx, { event: 'sign-in', userId: user.id, address: signIn.address, detail: signIn.detail });
}

/** How long a mail the mail server refused for good answers a resend with mailRejected. */
const MAIL_REFUSED_HOLD_MS = 15 * 60_000;

/** What is left of the resend cooldown of a code issued at `issuedAt` (0: over, or none issued). */
const cooldownLeftMs = (issuedAt: number | null, now: number): number =>
  issuedAt === null ? 0 : Math.max(0, issuedAt + RESEND_COOLDOWN_SECONDS * 1000 - now);

/**
 * Which code an account is mailed: one purpose, or one decided on the account as it is once its
 * transaction holds the account (lockAccount), since a confirmation or a reset may have committed
 * after the caller read it; the decision may refuse (throw).
 */
type PurposeOf = CodePurpose | ((user: User) => CodePurpose);

/**
 * What mailCode does while a code mailed before may still be in use: `reject` (429 resendCooldown)
 * or `skip` inside the resend cooldown, `keepLive` (mail none) while that code is live at all.
 */
type OnCooldown = 'reject' | 'skip' | 'keepLive';

/**
 * Issues a code of `purposeOf` and mails it, from `address`, in the request's `languages` (tag lists
 * best first: an API call's Accept-Language is the SPA's current language), else the account's
 * language. Inside the resend cooldown it answers 429 (or silently skips: the code sent moments ago
 * is still good); `onCooldown: 'keepLive'` skips as long as a code of the purpose is live at all.
 * Past the hourly sends of the account or the address it answers 429 codeSendLimit
 * (docs/SECURITY.md). Answers the purpose of the code mailed, null when none was.
 */
async function mailCode(
  ctx: AppContext,
  user: User,
  purposeOf: PurposeOf,
  request: {
    address: string;
    onCooldown: OnCooldown;
    languages?: (string | undefined)[];
    /** The address's send, when the caller took it already (signUp, before the account exists). */
    reserved?: CodeSendReservation;
  },
): Promise<CodePurpose | null> {
  const now = ctx.now();
  // the address's hourly sends live in the counters (Redis): taken before the transaction holds anything
  const send = request.reserved ?? (await reserveCodeSend(ctx, request.address));
  let issued: CodePurpose | null;
  try {
    issued = await issueAndQueue(ctx, user.id, purposeOf, { ...request, now });
  } catch (error) {
    await send.release();
    throw error;
  }
  // a code sent moments ago is still good, or none is of use: none went out, the send goes back
  if (!issued) {
    await send.release();
    return null;
  }
  send.kept();
  ctx.outbox.notify();
  // written once a code is issued, so requests refused or skipped above add nothing to the log
  if (issued === 'reset')
    await audit(ctx, { event: 'password.reset-requested', userId: user.id, address: request.address });
  return issued;
}

/**
 * Holds the account's code requests, confirmations and resets until the transaction ends, on every
 * instance: each sees what the one before it wrote, so a burst sent in parallel cannot slip past the
 * cooldown or the hourly sends, and no code is issued for a state a confirmation just left. SQLite
 * runs its transactions one at a time; on PostgreSQL an advisory lock of the account taken first, not
 * a lock of its row: a confirmation locks its code before the row, a code request the other way round.
 */
export async function lockAccount(trx: Db, userId: string): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(hashtext(${userId}))`.execute(trx);
}

/**
 * Holds the code requests of every account whose mail reaches `email`'s inbox (contract mailboxKey),
 * so that a burst at v+1@…, v+2@… cannot slip past the inbox's hourly codes. Taken after the account's
 * lock, and no transaction holds it while it waits for an account: the two never wait on each other.
 */
async function lockMailbox(trx: Db, email: string): Promise<void> {
  if (isPostgres(trx))
    await sql`select pg_advisory_xact_lock(hashtext(${`mailbox:${mailboxKey(email)}`}))`.execute(trx);
}

/**
 * mailCode's transaction: the account as it is now, the cooldown and the hourly codes of the account
 * and of its inbox, then the code and its mail.
 */
function issueAndQueue(
  ctx: AppContext,
  userId: string,
  purposeOf: PurposeOf,
  request: { now: number; onCooldown: OnCooldown; languages?: (string | undefined)[] },
): Promise<CodePurpose | null> {
  const { now } = request;
  return ctx.db.transaction().execute(async (trx) => {
    await lockAccount(trx, userId);
    const user = await findUserById(trx, userId);
    // deleted meanwhile: nobody to mail
    if (!user) return null;
    const purpose = typeof purposeOf === 'function' ? purposeOf(user) : purposeOf;
    // confirmed meanwhile (a sign-up sent again as its code came back): a verification code is of no use
    if (purpose === 'verify' && user.confirmed) return null;
    const cooldown = cooldownLeftMs(await lastIssuedAt(trx, user.id, purpose), now);
    if (cooldown > 0) {
      if (request.onCooldown === 'reject')
        // the code checked here, on the account as this transaction holds it
        throw withPending(new ApiError(429, 'resendCooldown', undefined, cooldown), resendResultOf(purpose));
      return null;
    }
    if (request.onCooldown === 'keepLive' && (await hasLiveCode(trx, user.id, purpose, now))) return null;
    await lockMailbox(trx, user.email);
    await assertMaySendCode({ ...ctx, db: trx }, user);
    const { code, id } = await issueCode(trx, ctx.config.secret, user, purpose, now);
    const language = pickLanguage(...(request.languages ?? []), user.language);
    const mail = { kind: purpose, code, email: user.email } as const;
    await queueAccountMail(trx, ctx, { ...user, language }, mail, id);
    return purpose;
  });
}

/**
 * The code a resend mails: an unconfirmed account a new verification code; one with no password yet
 * (or that must reset it) a reset code, which sets one; a confirmed one none (409).
 */
function resendPurpose(user: User): CodePurpose {
  const status = emailStatusOf(user);
  if (status === 'unconfirmed') return 'verify';
  if (status === 'verify' || status === 'reset-password') return 'reset';
  throw new ApiError(409, 'userAlreadyConfirmed');
}

/**
 * GET cognito/resend_verification: mails the code resendPurpose decides, on the account as it is
 * once its transaction holds it (a confirmation may have committed since it was read, then the
 * answer is as if the resend came after). Answers which was mailed, so the page goes on to where
 * that code is typed; an unknown address is a 404, a confirmed one a 409.
 */
export async function resendCode(
  ctx: AppContext,
  email: string,
  request: { address: string; languages: (string | undefined)[] },
): Promise<ResendResult> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user) throw new ApiError(404, 'userNotFound');
  // a confirmed account answers 409 userAlreadyConfirmed whatever became of its mail (a lock mail refused)
  const delayedPurpose = resendPurpose(user);
  // a mistyped address: saying so beats a code that never comes; after a while a new one is tried
  // again, so a relay that refused every mail for an hour locks nobody out once it is mended
  if (await latestMailRefused(ctx.db, user.id, ctx.now() - MAIL_REFUSED_HOLD_MS))
    throw new ApiError(409, 'mailRejected');
  // the code mailed last has not reached the mail server yet, its retries under way: it is still
  // good and comes when mail goes again; a new code would only queue behind it, so it is tried now
  if (await retryDelayedCodeMail(ctx.db, user.id, ctx.now())) {
    ctx.outbox.notify();
    throw withPending(new ApiError(409, 'mailDelayed'), resendResultOf(delayedPurpose));
  }
  const purpose = await mailCode(ctx, user, resendPurpose, { ...request, onCooldown: 'reject' });
  // none mailed while the cooldown rejects: the account was deleted meanwhile
  if (!purpose) throw new ApiError(404, 'userNotFound');
  return resendResultOf(purpose);
}

const resendResultOf = (purpose: CodePurpose): ResendResult =>
  purpose === 'verify' ? 'verify_email' : 'password_reset';

/**
 * A resend refused while the code mailed before is still good (sent moments ago, or its mail
 * delayed): the answer names that code, so the page offers the way to where it is typed instead of
 * leaving the person with a code and no field for it.
 */
function withPending(refusal: ApiError, pending: ResendResult): ApiError {
  refusal.extras = { pending };
  return refusal;
}

/**
 * Starts a password reset: mails a reset code when the account exists (in the request's `languages`,
 * else the account's); says nothing either way, except that a spent hourly sending limit answers 429
 * (its message says to use the newest code).
 */
export async function startPasswordReset(
  ctx: AppContext,
  email: string,
  address: string,
  languages: (string | undefined)[] = [],
): Promise<void> {
  const user = await findUserByEmail(ctx.db, email);
  if (user) await mailCode(ctx, user, 'reset', { address, onCooldown: 'skip', languages });
}

export interface SignupInput extends Omit<NewAccount, 'passwordHash' | 'confirmed'> {
  password: string;
  inviteCode?: string | undefined;
  /** The client's address: the first code counts against its hourly sends. */
  address: string;
  /** The browser's SIGNUP_COOKIE (signupBrowser). */
  browser: string;
  /** Whether the browser sent it (false: made for this answer). */
  browserHeld: boolean;
}

/**
 * The SIGNUP_COOKIE a sign-up gives its browser: the one it already holds, so that every account
 * signed up on a classroom's shared device can be confirmed from it, else a new one.
 */
export const signupBrowser = (cookie: string | undefined): { browser: string; held: boolean } =>
  cookie !== undefined && /^[\w-]{43}$/.test(cookie)
    ? { browser: cookie, held: true }
    : { browser: randomToken(), held: false };

/**
 * The same sign-up sent again, its answer lost on a failing network: not confirmed yet, with the same
 * password, from the browser that signed up, or from a browser holding no sign-up cookie (the lost
 * answer carried its first). It goes on as the first did (to the code page); anything else about an
 * existing address is `accountExists`. Only who chose the password can send it again, so a browser
 * without a cookie that does is that person's: the account is bound to its new cookie.
 */
const isSentAgain = async (ctx: AppContext, user: User, input: SignupInput): Promise<boolean> =>
  user.confirmed === 0 &&
  user.signup_browser !== null &&
  (signedUpIn(user, input.browser) || !input.browserHeld) &&
  (await mayCheckUnconfirmedPassword(ctx, user)) &&
  (await ctx.limits.hashing.run(() => verifyPassword(user.password_hash, input.password)));

/**
 * Self sign-up: the account (unconfirmed), the used invite and the first code are one transaction.
 * The account records the browser that chose its password (`browser`, its SIGNUP_COOKIE).
 */
export async function signUp(ctx: AppContext, input: SignupInput): Promise<User> {
  const refusal = passwordRefusal(input.password, input);
  if (refusal) throw new ApiError(400, refusal);
  const now = ctx.now();
  const existing = await findUserByEmail(ctx.db, input.email);
  if (existing) return signUpTaken(ctx, existing, input);
  // an inbox that had its hourly codes (v+1@…, v+2@…) gets no account without one
  await assertMaySendCode(ctx, { email: input.email });
  // taken before the account exists, so no account is left without its code
  const send = await reserveCodeSend(ctx, input.address);
  let inserted: { user: User; created: boolean };
  try {
    inserted = await insertAccount(ctx, input, now);
  } catch (error) {
    await send.release();
    throw error;
  }
  if (!inserted.created) {
    await send.release();
    // another sign-up of the address got there first: perhaps this very one, sent twice at once (a
    // double tap, a retry), which is answered as when it comes after
    return signUpTaken(ctx, inserted.user, input);
  }
  await mailCode(ctx, inserted.user, 'verify', {
    address: input.address,
    onCooldown: 'skip',
    reserved: send,
  });
  return inserted.user;
}

/**
 * A sign-up of an address that has an account: the same one sent again goes on, anything else is
 * refused. It mails a code only when the account has no live one: sent again after the SPA's
 * timeout, which equals the resend cooldown, a new code ended the one already in the inbox, and the
 * person typed that one. A code whose mail never came is asked for on the code page (its resend).
 */
async function signUpTaken(ctx: AppContext, existing: User, input: SignupInput): Promise<User> {
  if (!(await isSentAgain(ctx, existing, input)))
    throw new ApiError(409, 'accountExists', `${messages.accountExists} (UsernameExistsException)`);
  if (!input.browserHeld)
    await ctx.db
      .updateTable('users')
      .set({ signup_browser: sha256(input.browser) })
      .where('id', '=', existing.id)
      .execute();
  await mailCode(ctx, existing, 'verify', { address: input.address, onCooldown: 'keepLive' });
  return existing;
}

/**
 * signUp's new account, with the invite it uses, in one transaction; `created: false` with the
 * account a concurrent sign-up of the same address made meanwhile (the unique index, or the invite's
 * single use, stopped this one).
 */
async function insertAccount(
  ctx: AppContext,
  input: SignupInput,
  now: number,
): Promise<{ user: User; created: boolean }> {
  const passwordHash = await ctx.limits.hashing.run(() => hashPassword(input.password));
  const row = newUserRow(
    { ...input, passwordHash, confirmed: false, signupBrowser: sha256(input.browser) },
    now,
  );
  try {
    await ctx.db.transaction().execute(async (trx) => {
      if (input.inviteCode) {
        const { inviteCode } = input;
        const used = await claimOnce(
          trx,
          'invites',
          (invite) =>
            invite
              .where('code', '=', inviteCode)
              .where('email', '=', row.email)
              .where('expires_at', '>', now),
          now,
        );
        if (!used) throw new ApiError(400, 'inviteNotFound');
      }
      await trx.insertInto('users').values(row).execute();
    });
  } catch (error) {
    // read after the failed transaction: the winner's has committed (its rows held this one up)
    const winner = await findUserByEmail(ctx.db, row.email);
    if (winner) return { user: winner, created: false };
    throw error;
  }
  return { user: row, created: true };
}

const CODE_FAILURES: Record<
  Exclude<CodeCheck['result'], 'ok' | 'attemptLimit' | 'lastMismatch'>,
  { status: FailureStatus; code: MessageCode; exception: string }
> = {
  mismatch: { status: 400, code: 'invalidVerificationCode', exception: 'CodeMismatchException' },
  none: { status: 400, code: 'expiredCode', exception: 'ExpiredCodeException' },
  expired: { status: 400, code: 'expiredCode', exception: 'ExpiredCodeException' },
};

/** Reset failures carry their text as embedded JSON (§8), in the shape of the hosted service's errors. */
const resetText = (code: MessageCode, exception: string): string =>
  embedMessage('Password reset failed:', exception, messages[code]);

/**
 * Why a mailed code did not work, as the hosted service names it (`reset`: with its text embedded,
 * §8). A code whose tries are used up never works again, so its 429 says when a new code may be
 * mailed (the resend cooldown, the hourly sends): that is when trying again can succeed. The wrong
 * guess that used up the last try says so at once, rather than letting the person type a sixth.
 */
async function codeRefusal(
  ctx: AppContext,
  request: { address: string; user: User; purpose: CodePurpose; reset: boolean },
  result: Exclude<CodeCheck['result'], 'ok'>,
): Promise<ApiError> {
  const { address, user, purpose, reset } = request;
  if (result === 'attemptLimit' || result === 'lastMismatch') {
    const cooldown = cooldownLeftMs(await lastIssuedAt(ctx.db, user.id, purpose), ctx.now());
    const wait = Math.max(1000, cooldown, await codeSendWaitMs(ctx, address, user));
    const msg = reset ? resetText('attemptLimit', 'LimitExceededException') : undefined;
    return new ApiError(429, 'attemptLimit', msg, wait);
  }
  const failure = CODE_FAILURES[result];
  const msg = reset ? resetText(failure.code, failure.exception) : undefined;
  return new ApiError(failure.status, failure.code, msg);
}

/**
 * Checks a mailed code under the abuse limits: refused unevaluated while the address may not guess,
 * never for the account's delay or lock, which hold passwords only (checkGuess); a wrong code counts
 * as a failure of the account, a right one resets it. While the account is delayed or locked a code
 * has one try: the delay no longer holds a guesser who has codes mailed to it, the hourly sends do.
 */
async function checkCodeGuarded(
  ctx: AppContext,
  address: string,
  user: User,
  purpose: CodePurpose,
  code: string,
): Promise<CodeCheck> {
  return checkGuess(
    ctx,
    address,
    user,
    purpose,
    (current) =>
      checkCode(ctx.db, ctx.config.secret, user.id, purpose, code, ctx.now(), {
        maxAttempts: underAttack(current) ? CODE_MAX_ATTEMPTS_UNDER_ATTACK : CODE_MAX_ATTEMPTS,
      }),
    // no live code, or one past its tries: nothing was checked
    ({ result }) =>
      result === 'ok' ? 'right' : result === 'mismatch' || result === 'lastMismatch' ? 'wrong' : 'unchecked',
  );
}

/**
 * Whether the password and the names of an account were chosen by the browser confirming it: the one
 * that signed up (its SIGNUP_COOKIE), or an administrator (no browser recorded).
 */
const signedUpIn = (user: User, browser: string | undefined): boolean =>
  user.signup_browser === null || (browser !== undefined && safeEqual(sha256(browser), user.signup_browser));

/**
 * Confirms a self-signed-up account with its mailed code. The code proves the address, not who
 * chose the password: anyone may sign up with a child's address first. Confirmed from another
 * browser than the one that signed up, the account must have its password reset (by a code mailed
 * to the address) before a password signs in, so a password its owner never chose never does.
 */
export async function confirmAccount(
  ctx: AppContext,
  email: string,
  code: string,
  address: string,
  browser: string | undefined,
): Promise<{ newPasswordNeeded: boolean }> {
  const user = await findUserByEmail(ctx.db, email);
  // an unknown address answers like a wrong code: confirm reveals nothing validateEmail does not
  if (!user) {
    await guessAtUnknownAccount(ctx, address, 'verify');
    throw new ApiError(400, 'invalidVerificationCode');
  }
  if (user.confirmed) throw new ApiError(409, 'userAlreadyConfirmed');
  const now = ctx.now();
  const check = await checkCodeGuarded(ctx, address, user, 'verify', code);
  if (check.result !== 'ok') {
    // used a moment ago by the same request sent at once (a double tap): answered as a retry after it
    if (check.result === 'none' && (await findUserById(ctx.db, user.id))?.confirmed)
      throw new ApiError(409, 'userAlreadyConfirmed');
    throw await codeRefusal(ctx, { address, user, purpose: 'verify', reset: false }, check.result);
  }
  const chosenHere = signedUpIn(user, browser);
  await ctx.db.transaction().execute(async (trx) => {
    // a resend in progress mails its code before this confirms, or sees the account confirmed
    await lockAccount(trx, user.id);
    if (!(await consumeCode(trx, check.codeId, now))) {
      // the same code a moment ago (a double tap, a retry at once): answered as a retry after it is
      const row = await trx
        .selectFrom('users')
        .select('confirmed')
        .where('id', '=', user.id)
        .executeTakeFirst();
      throw row?.confirmed ? new ApiError(409, 'userAlreadyConfirmed') : new ApiError(400, 'expiredCode');
    }
    await trx
      .updateTable('users')
      .set({
        confirmed: 1,
        signup_browser: null,
        ...(chosenHere ? {} : { must_reset: 1, names_proven: 0 }),
        updated_at: now,
      })
      .where('id', '=', user.id)
      .execute();
  });
  if (!chosenHere) await audit(ctx, { event: 'account.confirmed-elsewhere', userId: user.id, address });
  return { newPasswordNeeded: !chosenHere };
}

/** Whether the account's password, as stored now (another request may just have set it), is `password`. */
async function hasPassword(ctx: AppContext, userId: string, password: string): Promise<boolean> {
  const now = await findUserById(ctx.db, userId);
  return ctx.limits.hashing.run(() => verifyPassword(now?.password_hash ?? null, password));
}

/** A failure of the reset page (a bad request, a refused password), its text embedded (§8). */
export const resetFailure = (status: FailureStatus, code: MessageCode, exception: string): ApiError =>
  new ApiError(status, code, resetText(code, exception));

/** A limit's refusal on the reset page travels like every reset failure: its text embedded (§8). */
async function asResetFailure<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 429 && error.retryAfterMs !== undefined)
      throw new ApiError(
        429,
        error.code,
        resetText(error.code, 'LimitExceededException'),
        error.retryAfterMs,
      );
    throw error;
  }
}

/**
 * Sets a new password with a reset code. The code proves the address, so the account becomes
 * confirmed and loses its must-reset flag; every other session ends and every upstream identity is
 * unlinked (one transaction). It proves nothing of the names a sign-up typed in another browser.
 */
export async function resetPassword(
  ctx: AppContext,
  input: {
    email: string;
    code: string;
    password: string;
    address: string;
    /** The browser's SIGNUP_COOKIE: a reset that confirms a sign-up proves its names only there. */
    browser: string | undefined;
  },
): Promise<void> {
  const user = await findUserByEmail(ctx.db, input.email);
  if (!user) {
    await asResetFailure(() => guessAtUnknownAccount(ctx, input.address, 'reset'));
    throw resetFailure(400, 'invalidVerificationCode', 'CodeMismatchException');
  }
  const now = ctx.now();
  const check = await asResetFailure(() => checkCodeGuarded(ctx, input.address, user, 'reset', input.code));
  // sent again after its answer was lost (a failing network), or at once (a double tap): the code was
  // used for this very password
  if (
    check.result === 'none' &&
    (await wasJustUsed(ctx.db, ctx.config.secret, user.id, 'reset', input.code, now)) &&
    (await hasPassword(ctx, user.id, input.password))
  )
    return;
  if (check.result !== 'ok')
    throw await codeRefusal(
      ctx,
      { address: input.address, user, purpose: 'reset', reset: true },
      check.result,
    );
  // only a holder of the code learns why a password is refused: the names it is checked against stay private
  const refusal = passwordRefusal(input.password, user);
  if (refusal) throw resetFailure(400, refusal, 'InvalidPasswordException');
  const passwordHash = await ctx.limits.hashing.run(() => hashPassword(input.password));
  const confirmedElsewhere = user.confirmed === 0 && !signedUpIn(user, input.browser);
  let unlinked: { provider: string }[] = [];
  let wasLocked = false;
  const consumed = await ctx.db.transaction().execute(async (trx) => {
    // as a confirmation: a resend in progress finishes first, or sees the account confirmed
    await lockAccount(trx, user.id);
    if (!(await consumeCode(trx, check.codeId, now))) return false;
    wasLocked = (await findUserById(trx, user.id))?.locked_at != null;
    await trx
      .updateTable('users')
      .set({
        password_hash: passwordHash,
        confirmed: 1,
        must_reset: 0,
        signup_browser: null,
        ...(confirmedElsewhere ? { names_proven: 0 } : {}),
        // the guesses at the old password say nothing of the new one: its owner signs in with it now
        failed_attempts: 0,
        last_failed_at: null,
        locked_at: null,
        updated_at: now,
      })
      .where('id', '=', user.id)
      .execute();
    await revokeUserSessions(trx, user.id, now);
    // the code proves the mailbox now; a provider's word for it may be old (an Apple ID that once
    // verified a school's recycled address, a pre-hijacked account): no way in stays that its holder
    // did not choose. A provider that owns the address links again at its next sign-in
    unlinked = await trx
      .deleteFrom('user_identities')
      .where('user_id', '=', user.id)
      .returning('provider')
      .execute();
    return true;
  });
  if (!consumed) {
    // the same reset a moment ago (a double tap): as a retry after it, a success for this very password
    if (await hasPassword(ctx, user.id, input.password)) return;
    throw resetFailure(400, 'expiredCode', 'ExpiredCodeException');
  }
  await audit(ctx, { event: 'password.reset', userId: user.id, address: input.address });
  // what the reset did besides, each said as done by it
  const byReset = (event: AuditEvent['event'], detail: Record<string, unknown> = {}) =>
    audit(ctx, {
      event,
      userId: user.id,
      address: input.address,
      detail: { ...detail, by: 'password-reset' },
    });
  if (wasLocked) await byReset('account.unlocked');
  for (const { provider } of unlinked) await byReset('identity.unlinked', { provider });
  if (confirmedElsewhere) await byReset('account.confirmed-elsewhere');
}

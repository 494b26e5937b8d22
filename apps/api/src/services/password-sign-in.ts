import type { AppContext } from '../context.ts';
import type { User } from '../db/types.ts';
import { recordSignIn } from './accounts.ts';
import { voidCodes } from './codes.ts';
import { ApiError } from './http.ts';
import { checkGuess, guessAtUnknownAccount, mayCheckUnconfirmedPassword } from './limits.ts';
import {
  findUserByEmail,
  hashPassword,
  passwordMatch,
  upgradePasswordHash,
  verifyPassword,
} from './users.ts';

let timingHash: Promise<string> | undefined;
/**
 * Unknown emails still pay the argon2 verifications of a wrong guess (two for a password NFC changes:
 * passwordMatch), so timing does not reveal accounts.
 */
const equaliseTiming = async (ctx: AppContext, password: string) => {
  timingHash ??= hashPassword('frontdoor-timing-equaliser');
  const equaliser = await timingHash;
  await ctx.limits.hashing.run(() => verifyPassword(equaliser, password));
};

/** Sends a reset code to an account of the portal's user pool (the interactions' and cognito/login's). */
export type SendReset = (email: string, address: string, languages: (string | undefined)[]) => Promise<void>;

export type PasswordSignIn = { kind: 'signedIn'; user: User } | { kind: 'mustReset'; email: string };

/**
 * The built-in user pool's password check (POST api/cognito/login). A must-reset account gets the
 * reset mail (`sendReset`) instead of a sign-in. Every check goes through the abuse limits first
 * (services/limits.ts): a wrong password counts against the account, the pair of address and
 * account, and the address; a right one resets them (of a confirmed account only), and upgrades a
 * hash made with older parameters. Refusals throw: incorrectCredentials, userNotConfirmed,
 * accountDisabled (an account turned off, told only after its right password) or a limit's.
 */
export async function signInWithPassword(
  ctx: AppContext,
  input: {
    email: string;
    password: string;
    address: string;
    /** the request's languages, best first: an API call's Accept-Language is the SPA's */
    languages: (string | undefined)[];
    sendReset: SendReset;
  },
): Promise<PasswordSignIn> {
  const user = await findUserByEmail(ctx.db, input.email);
  if (user?.must_reset) {
    await input.sendReset(user.email, input.address, input.languages);
    return { kind: 'mustReset', email: user.email };
  }
  if (!user) {
    await guessAtUnknownAccount(ctx, input.address, 'password');
    await equaliseTiming(ctx, input.password);
    throw new ApiError(401, 'incorrectCredentials');
  }
  // a right password signs nobody in here and a success counts as no failure: past its hourly
  // checks an unconfirmed account is sent to its code without a hash
  if (user.confirmed !== 1 && !(await mayCheckUnconfirmedPassword(ctx, user)))
    throw new ApiError(403, 'userNotConfirmed');
  const matched = await checkGuess(
    ctx,
    input.address,
    user,
    'password',
    () => ctx.limits.hashing.run(() => passwordMatch(user.password_hash, input.password)),
    // whoever signed up first with someone's address knows an unconfirmed account's password: it
    // proves nothing of the mailbox, so it resets no failures (each new code would get its full tries)
    (match) => (!match ? 'wrong' : user.confirmed === 1 ? 'right' : 'unchecked'),
  );
  if (!matched) throw new ApiError(401, 'incorrectCredentials');
  await upgradePasswordHash(ctx, user, input.password, matched);
  if (user.confirmed !== 1) throw new ApiError(403, 'userNotConfirmed');
  // said only to whoever knows the password, here on its page rather than after the redirects
  // (createSession refuses it there too, should `user disable` come in between)
  if (user.disabled_at !== null) throw new ApiError(403, 'accountDisabled');
  // the owner knows the password: a reset asked for before (its code in a mail or a shared
  // device's history) opens nothing any more
  await voidCodes(ctx.db, user.id, 'reset', ctx.now());
  await recordSignIn(ctx, user, {
    address: input.address,
    languages: input.languages,
    detail: { method: 'password' },
  });
  return { kind: 'signedIn', user };
}

import { dictionary } from '@zxcvbn-ts/language-common';
import { containsPersonalWord, type PasswordOwner, type PasswordRefusal } from '@frontdoor/contract';

/**
 * The 49,233 most common passwords of leaked-password corpora, as zxcvbn-ts ships them
 * (@zxcvbn-ts/language-common, MIT), lower-cased. Server-side only: the SPA bundle never carries it.
 */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  dictionary['passwords-common'].map((password) => password.toLowerCase()),
);

/** The digits and symbols people add at either end to pass a composition rule ('Password123!'). */
const DECORATION = /^[^\p{L}]+|[^\p{L}]+$/gu;

/**
 * Whether a password is on the common list, ignoring letter case, either whole or without the
 * digits and symbols at its start and end: under the composition rule hardly a listed password
 * passes as it is, while 'Password123!' is the first thing a guesser tries.
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  return COMMON_PASSWORDS.has(lower) || COMMON_PASSWORDS.has(lower.replace(DECORATION, ''));
}

/**
 * Why a new password is refused beyond the composition rule, or null: every path that sets one
 * (sign-up, reset, `user create --password`) asks this before hashing.
 */
export function passwordRefusal(password: string, owner: PasswordOwner): PasswordRefusal | null {
  if (isCommonPassword(password)) return 'passwordCommon';
  if (containsPersonalWord(password, owner)) return 'passwordPersonal';
  return null;
}

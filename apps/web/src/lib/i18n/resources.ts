import { featureCatalogs } from '../../features/locales.ts';
import * as common from './catalogs/common.ts';
import * as kit from './catalogs/kit.ts';
import * as errors from '@frontdoor/contract/message-catalogs';
import type { MessageCode } from '@frontdoor/contract';
import { BUNDLED_LANGUAGES } from './languages.ts';
import type { BundledLanguage } from './languages.ts';

/** A namespace module: one catalog per bundled language, English the source. */
export type NamespaceCatalogs = Record<BundledLanguage, Record<string, string>>;

/**
 * The catalog registry (build-time and tests: the app loads one language's chunk, load.ts). 'common'
 * (shell and UI kit), 'kit' (the UI kit's widgets no first page shows) and 'errors' (contract messages
 * by code) live here; every feature namespace comes from src/features/locales.ts (`featureCatalogs`): a feature
 * adds its folder's locales.ts there and it is registered for every language.
 */
export const namespaces: Record<string, NamespaceCatalogs> = {
  common,
  errors,
  kit,
  ...(featureCatalogs as Record<string, NamespaceCatalogs>),
};

/**
 * The namespaces only the pages after the first ones use (each loaded with its page, lazily): their
 * texts come in a chunk of their own per language (`virtual:fd-later-catalogs/<language>`), asked by
 * `useLaterTranslation` when such a page first shows, so the first load carries only the texts of
 * the four pages a sign-in starts on, the shell and the errors.
 */
export const LATER_NAMESPACES = [
  'kit',
  'passwordReset',
  'postLogin',
  'signIn',
  'validate',
  'verification',
] as const;
export type LaterNamespace = (typeof LATER_NAMESPACES)[number];

/** One language's catalogs: namespace → key → text. */
export type LanguageCatalogs = Record<string, Record<string, string>>;
export type Resources = Record<BundledLanguage, LanguageCatalogs>;

/**
 * The contract messages only those later pages show (a mailed code's refusals, the validate link's
 * and the reset's words, the password page's refusals): their texts travel in the later part with
 * the pages' own, as each of these pages waits for that part before it shows (`useLaterTranslation`).
 * The server answers them only to calls these pages alone make: a mailed code's (cognito/confirm,
 * reset), a resend's (resend_verification: the cooldown, a mail delayed or refused) and the
 * password's (cognito/login); catalogs.test.ts holds the pages to the list.
 */
export const LATER_MESSAGE_CODES = [
  'verifyEmailParamMissing',
  'verifyCodeParamMissing',
  'verifyPageFailure',
  'verifyPageSuccess',
  'codeRequired',
  'invalidVerificationCode',
  'invalidCodeRequestAgain',
  'requestNewVerificationCode',
  'expiredCode',
  'attemptLimit',
  'userAlreadyConfirmed',
  'passwordResetCodeSentPopup',
  'resetResendSuccess',
  'resendCooldown',
  'mailDelayed',
  'mailRejected',
  // cognito/login's (the password page); a callback's or auth/cookie's refusal is a server page
  'incorrectCredentials',
  'userNotConfirmed',
  'passwordResetRequired',
  'accountDisabled',
] as const satisfies readonly MessageCode[];

const isLater = (namespace: string, key: string): boolean =>
  (LATER_NAMESPACES as readonly string[]).includes(namespace) ||
  (namespace === 'errors' && (LATER_MESSAGE_CODES as readonly string[]).includes(key));

/** One part of a language's catalogs: the first pages' texts, or the later pages' (`later`). */
export function partOf(catalogs: LanguageCatalogs, later: boolean): LanguageCatalogs {
  const part: LanguageCatalogs = {};
  for (const [namespace, texts] of Object.entries(catalogs)) {
    const kept = Object.entries(texts).filter(([key]) => isLater(namespace, key) === later);
    if (kept.length) part[namespace] = Object.fromEntries(kept);
  }
  return part;
}

export function buildResources(): Resources {
  const resources = {} as Resources;
  for (const lang of BUNDLED_LANGUAGES) {
    resources[lang] = Object.fromEntries(
      Object.entries(namespaces).map(([ns, catalogs]) => [ns, catalogs[lang]]),
    );
  }
  return resources;
}

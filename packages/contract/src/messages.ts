/**
 * Every message's stable code: errors travel as codes, the web translates them (the English texts are
 * english-messages.ts, the other languages message-catalogs.ts), and the server answers a code with
 * its text.
 */
export const MESSAGE_CODES = [
  'firstNameRequired',
  'lastNameRequired',
  'firstNameTooLong',
  'lastNameTooLong',
  'emailInvalidSignup',
  'passwordRequired',
  'confirmPasswordRequired',
  'passwordsDoNotMatch',
  'formInvalid',
  'descriptionRequired',
  'emailFormatInvalid',
  'workEmailInvalid',
  'accessCodeLength',
  'verifyEmailParamMissing',
  'verifyCodeParamMissing',
  'codeRequired',
  'passwordResetCodeSentPopup',
  'resetResendSuccess',
  'unknownError',
  'invalidVerificationCode',
  'invalidCodeRequestAgain',
  'requestNewVerificationCode',
  'accessCodeFailed',
  'accessCodeWrongProviderPrefix',
  'workEmailValidationFailed',
  'workEmailNotFound',
  'workEmailAccessDenied',
  'workEmailOtherError',
  'verifyPageFailure',
  'verifyPageSuccess',
  'loginParamsFailure',
  'authNotInitialized',
  'networkError',
  'accountExists',
  'userNotFound',
  'userNotConfirmed',
  'userAlreadyConfirmed',
  'incorrectCredentials',
  'passwordResetRequired',
  'expiredCode',
  'attemptLimit',
  'passwordPolicy',
  'passwordCommon',
  'passwordPersonal',
  'inviteNotFound',
  'inviteAccepted',
  'loginRequestNotFound',
  'accessCodeNotFound',
  'cookieHashInvalid',
  'returnUrlNotAllowed',
  'notSignedIn',
  'forbidden',
  'crossSiteRequest',
  'cookiesBlocked',
  'badRequest',
  'notFound',
  'payloadTooLarge',
  'tooManyRequests',
  'tooManyFailures',
  'accountLocked',
  'accountDisabled',
  'addressFailureLimit',
  'codeSendLimit',
  'resendCooldown',
  'mailRejected',
  'mailDelayed',
  'accessCodesPaused',
  'serverBusy',
  'serviceProviderAuthFailed',
  'stateInvalid',
  'upstreamFailed',
  'upstreamRefused',
  'internalError',
  'signInStopped',
  'backToSignIn',
  'useEmailInstead',
] as const;

export type MessageCode = (typeof MESSAGE_CODES)[number];

/** The words of the server's own pages (identity/pages.ts), which no SPA page shows: its chunks leave them out. */
export const SERVER_PAGE_MESSAGE_CODES = [
  'signInStopped',
  'backToSignIn',
  'useEmailInstead',
] as const satisfies readonly MessageCode[];

/**
 * The English texts the rules themselves compare or throw (§6 role checks, §8 password reset
 * failures), the only English the SPA's first script carries; the English catalog takes them from here.
 */
export const RULE_TEXTS = {
  unknownError: 'An unknown error occurred.',
  invalidVerificationCode: 'Invalid verification code provided, please try again.',
  invalidCodeRequestAgain: 'Invalid code provided, please request a code again.',
  authNotInitialized: 'Auth object has not been properly initialized, cannot perform role check!',
} as const satisfies Partial<Record<MessageCode, string>>;

/** Whether a value is a contract message code: the one guard for codes read off the wire or a zod issue. */
export const isMessageCode = (value: unknown): value is MessageCode =>
  typeof value === 'string' && (MESSAGE_CODES as readonly string[]).includes(value);

/**
 * A zod issue's error (with any other issue options) whose message IS the contract code: the server
 * answers that code, the SPA translates it; nothing maps texts back to codes.
 */
export const errorCode = <Options extends object = object>(code: MessageCode, options?: Options) =>
  ({ ...options, error: code }) as Options & { error: MessageCode };

/** The code a failed parse names: its first issue's (the schemas set codes), or badRequest for zod's own texts. */
export function issueCode(error: { issues: readonly { message: string }[] }): MessageCode {
  const message = error.issues[0]?.message;
  return isMessageCode(message) ? message : 'badRequest';
}

/** Refusals of a new password beyond the composition rule: the SPA shows them under its password field. */
export const PASSWORD_REFUSALS = [
  'passwordCommon',
  'passwordPersonal',
] as const satisfies readonly MessageCode[];
export type PasswordRefusal = (typeof PASSWORD_REFUSALS)[number];

/**
 * §6: a refusal naming a product: its message (in any language), then the product's name. The one
 * form of 'The code you entered is not for <product>', on the server and in the SPA.
 */
export const namingProvider = (message: string, name: string): string => `${message} ${name}`;

/** §8: sign-up failure shows the server msg with any parenthesised parts removed. */
export function stripParenthesised(msg: string): string {
  let out = msg;
  // repeat so that nested parentheses disappear too
  for (let prev = ''; prev !== out;) {
    prev = out;
    out = out.replace(/\([^()]*\)/g, '');
  }
  return out
    .replace(/\s{2,}/g, ' ')
    .replace(/\s+([.,!?])/g, '$1')
    .trim();
}

/**
 * §8: a password reset failure carries its message inside JSON embedded in msg
 * (e.g. `Reset failed: {"code":"CodeMismatchException","message":"…"}`).
 */
export const extractEmbeddedMessage = (msg: string | undefined | null): string =>
  embeddedMessage(msg) ?? RULE_TEXTS.unknownError;

/** The message embedded in msg as JSON, or undefined when msg embeds none. */
export function embeddedMessage(msg: string | undefined | null): string | undefined {
  if (!msg) return undefined;
  const start = msg.indexOf('{');
  const end = msg.lastIndexOf('}');
  if (start === -1 || end <= start) return undefined;
  try {
    const parsed: unknown = JSON.parse(msg.slice(start, end + 1));
    if (parsed && typeof parsed === 'object' && 'message' in parsed) {
      const m = (parsed as { message: unknown }).message;
      if (typeof m === 'string' && m.trim()) return m;
    }
  } catch {
    // not JSON: no embedded message
  }
  return undefined;
}

/** Builds a message with embedded JSON, the shape extractEmbeddedMessage reads. */
export function embedMessage(prefix: string, code: string, message: string): string {
  return `${prefix} ${JSON.stringify({ code, message })}`;
}

/** §8: the reset page replaces the invalid-code text and then offers a new code. */
export function resetFailureMessage(msg: string | undefined | null): {
  text: string;
  offerNewCode: boolean;
} {
  const text = extractEmbeddedMessage(msg);
  if (text === RULE_TEXTS.invalidVerificationCode) {
    return { text: RULE_TEXTS.invalidCodeRequestAgain, offerNewCode: true };
  }
  return { text, offerNewCode: text === RULE_TEXTS.invalidCodeRequestAgain };
}

/** Refusals after which the mailed code can never work: only a new code goes on. */
const DEAD_CODE_REFUSALS: readonly MessageCode[] = ['invalidCodeRequestAgain', 'expiredCode', 'attemptLimit'];

/**
 * §8 by code, for an answer whose code names the embedded message: the invalid-code refusal is
 * replaced by 'invalidCodeRequestAgain' and, like an expired code or one whose tries are used up,
 * offers a new code.
 */
export function resetFailureCode(code: MessageCode): { code: MessageCode; offerNewCode: boolean } {
  if (code === 'invalidVerificationCode') return { code: 'invalidCodeRequestAgain', offerNewCode: true };
  return { code, offerNewCode: DEAD_CODE_REFUSALS.includes(code) };
}

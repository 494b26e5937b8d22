/**
 * Every message the spec quotes, word for word (double spaces included), plus the server's
 * error texts. Keyed by a stable code: errors travel as codes, the web translates them, and
 * the English catalog is these strings.
 */
export const messages = {
  // §5 sign-up
  firstNameRequired: 'First Name is a required field.',
  lastNameRequired: 'Last Name is a required field.',
  emailInvalidSignup: 'Please enter a valid email address above.',
  passwordRequired: 'Password is a required field.',
  confirmPasswordRequired: 'Confirmation password is required',
  passwordsDoNotMatch: 'Passwords do not match',
  formInvalid: 'Please correct the issues shown below to proceed.',
  descriptionRequired: 'Please choose what best describes you.',
  // §5 other forms
  emailFormatInvalid: 'Invalid email format.',
  workEmailInvalid: 'Please enter a valid email address',
  accessCodeLength: 'Access Code must be exactly 6 digits!',
  verifyEmailParamMissing: 'Email parameter was missing or invalid!',
  verifyCodeParamMissing: 'Verification Code parameter was missing or invalid!',
  codeRequired: 'Please enter the 6-digit code from your email.',
  // §4 and §8 flow messages
  passwordResetCodeSentPopup:
    'A password reset code has been sent to your email!  Please check your email inbox.',
  resetResendSuccess: 'A new password reset code has been sent to your email!  Please check your inbox.',
  unknownError: 'An unknown error occurred.',
  invalidVerificationCode: 'Invalid verification code provided, please try again.',
  invalidCodeRequestAgain: 'Invalid code provided, please request a code again.',
  requestNewVerificationCode: 'Request new verification code',
  accessCodeFailed: 'The code you entered did not work. Try again or contact your teacher.',
  accessCodeWrongProviderPrefix: 'The code you entered is not for',
  workEmailValidationFailed: 'Email validation failed. Please try again.',
  workEmailNotFound: 'Email not found in our system. Please check and try again.',
  workEmailAccessDenied: 'Access denied. Please contact your administrator.',
  workEmailOtherError: 'An error occurred. Please try again later.',
  verifyPageFailure: 'Your access code could not be confirmed at this time.',
  verifyPageSuccess: 'Your account has been verified, thank you!',
  loginParamsFailure: 'Unknown failure retrieving login params',
  authNotInitialized: 'Auth object has not been properly initialized, cannot perform role check!',
  networkError: 'We could not reach the server. Check your connection and try again.',
  // server error texts (mirroring the hosted identity service the SPA was written against)
  accountExists: 'An account with the given email already exists.',
  userNotFound: 'Username/client id combination not found.',
  userNotConfirmed: 'User is not confirmed.',
  userAlreadyConfirmed: 'User cannot be confirmed. Current status is CONFIRMED',
  incorrectCredentials: 'Incorrect username or password.',
  passwordResetRequired: 'Password reset required for the user',
  expiredCode: 'Invalid code provided, please request a code again.',
  attemptLimit: 'Attempt limit exceeded, please try after some time.',
  passwordPolicy:
    'Password does not conform to policy: the password must have at least 12 characters, an uppercase letter, a lowercase letter, a digit and a special character.',
  passwordCommon:
    'This password is too common, or is a common password with a few digits or symbols added. Please choose another.',
  passwordPersonal: 'The password must not contain your name or a part of your email address.',
  inviteNotFound: 'This invitation link is not valid or has expired.',
  loginRequestNotFound:
    'This sign-in link is not valid or has expired. Please start again from the application you came from.',
  accessCodeNotFound: 'The code you entered did not work. Try again or contact your teacher.',
  cookieHashInvalid: 'This sign-in link is not valid or has expired.',
  returnUrlNotAllowed: 'The return address is not allowed for this application.',
  notSignedIn: 'You are not signed in.',
  forbidden: 'You are not allowed to do this.',
  crossSiteRequest: 'This request came from another site. Please start again from this portal.',
  badRequest: 'The request is not valid.',
  notFound: 'Not found.',
  payloadTooLarge: 'The request is too large.',
  tooManyRequests: 'Too many requests. Please wait a moment and try again.',
  // abuse limits (docs/SECURITY.md): each names what the person can do next
  tooManyFailures: 'Too many failed attempts for this account. Please wait a little and try again.',
  accountLocked:
    'This account is locked after too many failed attempts. It unlocks within 24 hours, or your administrator can unlock it now.',
  addressFailureLimit: 'Too many failed attempts from your network. Please try again later.',
  codeSendLimit:
    'Too many codes were sent to this email address. Please use the newest code you received, or try again in an hour.',
  accessCodesPaused:
    'Sign-in with class codes is paused for this application after too many wrong codes. Please ask your teacher.',
  serverBusy: 'The server is busy. Please try again in a few seconds.',
  serviceProviderAuthFailed: 'Service provider credentials are not valid.',
  stateInvalid: 'This sign-in attempt is not valid any more. Please start again.',
  upstreamFailed: 'The sign-in provider could not complete the request. Please try again.',
  internalError: 'Something went wrong on our side. Please try again later.',
  // the server's own page when a sign-in step is refused (a bad state, a provider's failure)
  signInStopped: 'Sign-in could not continue',
  backToSignIn: 'Back to sign in',
} as const;

export type MessageCode = keyof typeof messages;

/** Whether a value is a contract message code: the one guard for codes read off the wire or a zod issue. */
export const isMessageCode = (value: unknown): value is MessageCode =>
  typeof value === 'string' && Object.hasOwn(messages, value);

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
  embeddedMessage(msg) ?? messages.unknownError;

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
  if (text === messages.invalidVerificationCode) {
    return { text: messages.invalidCodeRequestAgain, offerNewCode: true };
  }
  return { text, offerNewCode: text === messages.invalidCodeRequestAgain };
}

/**
 * §8 by code, for an answer whose code names the embedded message: the invalid-code refusal is
 * replaced by 'invalidCodeRequestAgain' and, like an expired code, offers a new code.
 */
export function resetFailureCode(code: MessageCode): { code: MessageCode; offerNewCode: boolean } {
  if (code === 'invalidVerificationCode') return { code: 'invalidCodeRequestAgain', offerNewCode: true };
  return { code, offerNewCode: code === 'invalidCodeRequestAgain' || code === 'expiredCode' };
}

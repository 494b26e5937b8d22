import { RULE_TEXTS, namingProvider, type MessageCode } from './messages.ts';

/**
 * Every message the spec quotes, word for word (double spaces included), plus the server's error
 * texts, by code (MESSAGE_CODES): the English catalog, as the other languages' are in
 * message-catalogs.ts. A module of its own so that the SPA's first script, which needs only the codes,
 * never carries them: the English catalog chunk does (apps/web/build/catalogs.ts).
 */
export const messages = {
  // §5 sign-up
  firstNameRequired: 'First Name is a required field.',
  lastNameRequired: 'Last Name is a required field.',
  firstNameTooLong: 'First Name must be at most 100 characters.',
  lastNameTooLong: 'Last Name must be at most 100 characters.',
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
  codeRequired: 'Please enter the 8-digit code from your email.',
  // §4 and §8 flow messages
  passwordResetCodeSentPopup:
    'A password reset code has been sent to your email!  Please check your email inbox.',
  resetResendSuccess: 'A new password reset code has been sent to your email!  Please check your inbox.',
  unknownError: RULE_TEXTS.unknownError,
  invalidVerificationCode: RULE_TEXTS.invalidVerificationCode,
  invalidCodeRequestAgain: RULE_TEXTS.invalidCodeRequestAgain,
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
  authNotInitialized: RULE_TEXTS.authNotInitialized,
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
  inviteAccepted:
    'This invitation has already been accepted. Sign in with its email address: if the address is not verified yet, you will be sent a code to verify it.',
  loginRequestNotFound:
    'This sign-in link is not valid or has expired. Please start again from the application you came from.',
  accessCodeNotFound: 'The code you entered did not work. Try again or contact your teacher.',
  cookieHashInvalid: 'This sign-in link is not valid or has expired.',
  returnUrlNotAllowed: 'The return address is not allowed for this application.',
  notSignedIn: 'You are not signed in.',
  forbidden: 'You are not allowed to do this.',
  crossSiteRequest: 'This request came from another site. Please start again from this portal.',
  // the browser kept none of the portal's cookies (a school's policy blocking them): no step can work
  cookiesBlocked:
    "This browser is blocking cookies for this site, so you cannot sign in. Allow cookies for this site (or ask your school's IT team), then try again.",
  badRequest: 'The request is not valid.',
  notFound: 'Not found.',
  payloadTooLarge: 'The request is too large.',
  tooManyRequests: 'Too many requests. Please wait a moment and try again.',
  // abuse limits (docs/SECURITY.md): each names what the person can do next
  tooManyFailures: 'Too many failed attempts for this account. Please wait a little and try again.',
  accountLocked:
    'This account is locked after too many failed attempts. It unlocks within 24 hours, or your administrator can unlock it now.',
  accountDisabled: "This account is turned off. Ask your school's administrator to turn it back on.",
  addressFailureLimit: 'Too many failed attempts from your network. Please try again later.',
  codeSendLimit:
    'Too many codes were sent to this email address. Please use the newest code you received, or try again in an hour.',
  resendCooldown:
    'A code was sent moments ago. Please check your email, or wait a few seconds before asking for another one.',
  mailRejected: 'Mail to this address was refused. Please check it for typing mistakes.',
  mailDelayed:
    'Your code is on its way, but mail is delayed. We are trying to send it again now: the code we sent still works when it arrives.',
  accessCodesPaused:
    'Sign-in with class codes is paused for this application after too many wrong codes. Please ask your teacher.',
  serverBusy: 'The server is busy. Please try again in a few seconds.',
  serviceProviderAuthFailed: 'Service provider credentials are not valid.',
  stateInvalid: 'This sign-in attempt is not valid any more. Please start again.',
  upstreamFailed: 'The sign-in provider could not complete the request. Please try again.',
  // the provider said no (the person cancelled, an account it refused): nothing broke, trying again won't help
  upstreamRefused:
    'The sign-in provider did not sign you in. Check that you chose the right account, or choose another way to sign in.',
  internalError: 'Something went wrong on our side. Please try again later.',
  // the server's own page when a sign-in step is refused (a bad state, a provider's failure)
  signInStopped: 'Sign-in could not continue',
  backToSignIn: 'Back to sign in',
  // under accountExists when a provider's sign-in found the address taken by a password account
  useEmailInstead:
    'Continue with your email and password instead. If you have forgotten your password, you can choose a new one there.',
} as const satisfies Record<MessageCode, string>;

/** §6/§8: the refusal of a code that belongs to another product, as the server writes it. */
export const wrongProviderMessage = (name: string): string =>
  namingProvider(messages.accessCodeWrongProviderPrefix, name);

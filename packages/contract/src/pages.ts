/**
 * The SPA's pages (spec §2) as react-router writes a route's path, `:name` standing for one segment;
 * each {csrf} page with and without the segment. The web app routes them (features/routes.tsx) and
 * the server answers them as pages to any client, curl and uptime checks included; the site root is
 * the login page too.
 */
export const pagePaths = {
  logIn: 'log-in',
  logInCsrf: 'log-in/:csrf',
  email: 'email',
  sendVerificationCode: 'send-verification-code',
  createAccount: 'create-account',
  createAccountCsrf: 'create-account/:csrf',
  invite: 'invite/:code',
  code: 'code',
  postLogin: 'post-login',
  postLoginCsrf: 'post-login/:csrf',
  passwordReset: 'password-reset',
  forgotPassword: 'forgot-password',
  accessCode: 'access-code',
  accessCodeCsrf: 'access-code/:csrf',
  validate: 'validate',
  errorGeneric: 'error-generic',
  errorGenericCsrf: 'error-generic/:csrf',
  errorTimeout: 'error-timeout',
  errorTimeoutCsrf: 'error-timeout/:csrf',
  signIn: 'sign-in/:uid',
} as const;

/** Paths of the calls of §7, relative to apiUrl. Both the SPA client and the server routes use them. */
export const apiPaths = {
  validateEmail: 'auth/validateEmail',
  sig: 'auth/sig',
  cognitoLogin: 'cognito/login',
  cognitoLogout: 'cognito/logout',
  getCsrf: 'social/get_csrf',
  inviteEmail: (code: string) => `devportal/getInviteEmail/${encodeURIComponent(code)}`,
  signup: 'cognito/signup',
  confirm: 'cognito/confirm',
  resendVerification: (email: string) => `cognito/resend_verification/${encodeURIComponent(email)}`,
  sendReset: 'cognito/sendreset',
  reset: 'cognito/reset',
  getCsrfLogin: (csrf: string) => `gateway/getCsrfLogin/${encodeURIComponent(csrf)}`,
  createCsrfLogin: 'gateway/createCsrfLogin',
  gatewaySession: (sid: string) => `gateway/session/${encodeURIComponent(sid)}`,
  setBasicUserRole: (isStudent: boolean) => `auth/setBasicUserRole/${isStudent ? 1 : 0}`,
  subscription: 'hs/subscription',
  accessCodeLogin: (code: string, spId: string) =>
    `accessCodes/login/${encodeURIComponent(code)}/${encodeURIComponent(spId)}`,
  accountType: (email: string) => `cognito/get_account_type/${encodeURIComponent(email)}`,
  microsoftUserRealm: 'v2/auth/microsoft-user-realm',
  cookie: 'auth/cookie',
} as const;

/** Where the server mounts the API; config.json's apiUrl points here by default. */
export const API_PREFIX = '/api/';
export const CONFIG_PATH = '/assets/cfg/config.json';

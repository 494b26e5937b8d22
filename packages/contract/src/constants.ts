/** Business constants and limits of the portal (spec §9). Written once; web and api import them. */

export const MIN_PASSWORD_LENGTH = 12;
/**
 * A name, email local part or domain label at least this long may not appear inside a password;
 * shorter ones (Al, Kim, Lee) sit inside too many ordinary words to refuse them.
 */
export const MIN_PERSONAL_WORD_LENGTH = 4;
export const ACCESS_CODE_LENGTH = 6;
/** The longest first or last name, after trimming (the sign-up form's inputs stop there too). */
export const NAME_MAX_LENGTH = 100;
/** The longest email address (RFC 5321's path limit). */
export const EMAIL_MAX_LENGTH = 254;
/** The longest opaque value of the portal's own a request may carry (a login csrf, a cookie hash, an interaction uid). */
export const TOKEN_MAX_LENGTH = 200;
/** The longest invite code a route takes. */
export const INVITE_CODE_MAX_LENGTH = 128;
/**
 * Verification and reset codes mailed to users: 8 digits (one of 10^8), so that guesses sprayed at
 * many accounts from many addresses, which no per-account or per-address limit bounds in sum, take
 * over next to none (docs/SECURITY.md). Access codes stay 6 (§9).
 */
export const EMAIL_CODE_LENGTH = 8;
/**
 * The length of the codes mailed before they became 8 digits, still taken until the last of them has
 * expired (VERIFICATION_CODE_TTL_MS after the upgrade), so a mail sent just before it still works: a
 * guess of this length can match only such a code. Drop it once every deployment has run 8-digit
 * codes for a day.
 */
export const LEGACY_EMAIL_CODE_LENGTH = 6;

export const SESSION_CACHE_MS = 30 * 60 * 1000;
export const SESSION_FETCH_RETRIES = 1;

/** Script check for mobile/tablet (inclusive) and the style breakpoint between the two menus. */
export const MOBILE_MAX_WIDTH = 1107;
export const MENU_STYLE_BREAKPOINT = 1296;

export const TOP_BAR_HIDE_OFFSET_PX = 60;
export const TOP_BAR_TRANSITION_MS = 300;

export const SCROLL_REVEAL_DEFAULTS = {
  offset: 120,
  delay: 0,
  duration: 400,
  easing: 'ease',
  throttleDelay: 99,
  debounceDelay: 50,
} as const;

export const DIALOG_ANIMATION_MS = 200;
export const SNACK_BAR_ANIMATION_MS = 300;
export const SNACK_BAR_DEFAULT_DURATION_MS = 5000;

export const SEARCH_PLACEHOLDER = 'Jump to...';
export const SEARCH_SHORTCUT_KEY = 'k';
export const PAGINATOR_LABEL = 'Items per page:';

/** The four fixed numeric email-preference subscription ids (spec §3, §9). */
export const SUBSCRIPTION_IDS = {
  k12: 11754216,
  careerTechnicalEducation: 11754217,
  collegeUniversity: 11754218,
  technicalUpdates: 11754219,
} as const;
export type EmailPreference = keyof typeof SUBSCRIPTION_IDS;
export const EMAIL_PREFERENCES = Object.keys(SUBSCRIPTION_IDS) as EmailPreference[];

/** Browser storage keys, exactly as the spec names them (§3). */
export const STORAGE_KEYS = {
  loginCsrf: 'login_csrf',
  loginParams: 'login_params',
  /** When login_params were saved, beside localStorage's copy (the web's own, not in the spec). */
  loginSavedAt: 'login_saved_at',
  /** Whose that copy is: a digest of the address typed in its flow (the web's own, not in the spec). */
  loginFor: 'login_for',
  email: 'frontdoor_email',
  /** The language the user chose in the menu (the web's own, not in the spec). */
  language: 'frontdoor_language',
  /**
   * The login page's 'Last used' marker (the web's own): the SIGN_IN_METHODS value of the device's
   * last successful sign-in in localStorage, and of the one under way in this tab in sessionStorage.
   * Only the method, never who signed in: classroom devices are shared.
   */
  lastSignInMethod: 'frontdoor_last_sign_in_method',
  /**
   * When this tab last had a code mailed, by purpose and address (the web's own, sessionStorage):
   * a code page's resend countdown is what is left of the server's cooldown, through back and reload.
   */
  codeSent: 'frontdoor_code_sent',
  pendingSignInMethod: 'frontdoor_pending_sign_in_method',
} as const;

/**
 * Error-reporting sampling (§7, §9): traces 100 %, session replay 10 % and 100 % on error. Replay
 * records only a teacher's sign-in, never a student's or an anonymous visitor's (docs/SECURITY.md).
 */
export const TELEMETRY_SAMPLING = {
  tracesSampleRate: 1.0,
  replaysSessionSampleRate: 0.1,
  replaysOnErrorSampleRate: 1.0,
} as const;

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** Lifetimes of the secrets the server hands out. */
export const VERIFICATION_CODE_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_CODE_TTL_MS = 60 * 60 * 1000;
/** An invitation's link (/invite/<code>), in days: its mail says how many. */
export const INVITE_TTL_DAYS = 14;
export const INVITE_TTL_MS = INVITE_TTL_DAYS * 24 * 60 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
/**
 * A mailed code's tries while its account is delayed or locked by failures: such a code passes the
 * delay (it is its owner's way back in), so one guess a code holds a guesser who has the codes mailed
 * to about the hourly sends, as the delay held them before.
 */
export const CODE_MAX_ATTEMPTS_UNDER_ATTACK = 1;
export const RESEND_COOLDOWN_SECONDS = 30;
export const LOGIN_REQUEST_TTL_MS = 60 * 60 * 1000;
export const COOKIE_HASH_TTL_MS = 60 * 1000;
export const SESSION_TTL_MS = 8 * 60 * 60 * 1000;
/**
 * A session unused for this long ends, beside its 8 h lifetime. Longer than SESSION_CACHE_MS, so an
 * SPA in use asks again before its session could end, and than a lesson spent in a product without
 * the portal; short enough that a device left signed in at a lesson's end does not stay so all day.
 */
export const SESSION_IDLE_MS = 60 * 60 * 1000;
/** A session's last use is written at most this often, so reading a session is not a write per request. */
export const SESSION_SEEN_REFRESH_MS = 60 * 1000;
/** An administrator's masquerade ends by itself after this long (docs/SECURITY.md). */
export const MASQUERADE_TTL_MS = 60 * 60 * 1000;
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The product token of auth/sig (docs/identity.md "How a product verifies the token"): an ES256 JWT
 * for this audience, living minutes (never past its session), verified with the keys published at
 * PRODUCT_JWKS_PATH. The signing key is replaced when it is older than the rotation period.
 */
export const PRODUCT_TOKEN_AUDIENCE = 'frontdoor-products';
export const PRODUCT_TOKEN_TTL_MS = 10 * 60 * 1000;
export const PRODUCT_KEY_ROTATION_MS = 30 * 24 * 60 * 60 * 1000;
export const PRODUCT_JWKS_PATH = '/.well-known/product-jwks.json';
/** How long products (and caches between) may keep the published keys (Cache-Control max-age). */
export const PRODUCT_JWKS_MAX_AGE_SECONDS = 5 * 60;
/**
 * Development only: the return page of the demo product `npm run seed` registers, served by the
 * portal itself; it shows what a product receives after a sign-in (auth/sig, the verified token).
 */
export const DEV_SP_PATH = '/dev/sp';

/**
 * Abuse limits (docs/SECURITY.md): failures are counted against what is guessed (an account, a
 * provider's codes), never plain traffic against an address. The server's defaults; most can be
 * changed by environment variables (docs/api.md).
 */
export const ABUSE_LIMITS = {
  /** Per account: consecutive failed passwords and mailed codes before a delay starts. */
  accountDelayAfterFailures: 5,
  accountDelayStartMs: 1000,
  accountDelayMaxMs: 15 * 60 * 1000,
  /** NIST SP 800-63B §5.2.2: at most 100 consecutive failures, then the account locks. */
  accountLockAfterFailures: 100,
  accountLockMs: 24 * 60 * 60 * 1000,
  /** Per (address, account): consecutive failures that block that pair, and for how long. */
  pairBlockAfterFailures: 10,
  pairBlockMs: 15 * 60 * 1000,
  /**
   * Per address: failed passwords and codes an hour. Successes never count, and each takes back up
   * to typosForgivenPerSuccess failures its own person made just before it, so a school's typos do
   * not add up to its ceiling while a guesser's failures do.
   */
  addressFailuresPerHour: 100,
  typosForgivenPerSuccess: 3,
  /** Per address: every API call a minute, sized for a school of 1,000 signing in at 8:00. */
  floodRequestsPerMinute: 6000,
  /**
   * Per address: the authorization server's steps that store a sign-in before anyone has signed in
   * (a new authorization request, a provider's answer) a minute. A sign-in takes one to three (a
   * Clever or ClassLink launch three: its answer, our own request, the answer to it), so a school of
   * 1,000 launching at 8:00 fits, as in the flood guard, with room for retries.
   */
  signInStepsPerMinute: 6000,
  /**
   * Per account not yet confirmed: password checks an hour that cannot sign in (a sign-up sent again,
   * a sign-in before the code). Anyone may sign up with any address and ask again and again, each ask
   * an argon2 hash no failure counts; a network that lost an answer retries a few times.
   */
  unconfirmedPasswordChecksPerHour: 10,
  /** Mailed codes: sends an hour per account and per address (beside the 30 s resend cooldown). */
  mailSendsPerAccountPerHour: 5,
  mailSendsPerAddressPerHour: 100,
  /** Server-to-server calls (gateway/createCsrfLogin) a minute per service provider client id. */
  serviceProviderCallsPerMinute: 3000,
  /** Access codes: the accepted chance per provider per day that a guess hits a live code. */
  accessCodeDailyRisk: 0.01,
  /**
   * Access codes: a new code's life in days, and the longest any code may live (a school year and
   * more): a code is six digits anyone can guess at, so it must expire (notes/abuse-limits.md).
   */
  accessCodeTtlDays: 30,
  accessCodeMaxTtlDays: 365,
  /**
   * Per browser (its fd_csrf) behind an address: wrong class codes an hour before one warn line names
   * it (services/access-codes.ts): a browser guessing codes stands out long before the address's
   * failures lock its school out, while a pupil's few typos (forgiven by their right code) never reach it.
   */
  browserCodeFailuresWarnPerHour: 10,
  /** Concurrent argon2 hashes per core, and waiting hashes per core before 503. */
  passwordHashQueuePerCore: 32,
} as const;

export const SESSION_COOKIE = 'fd_session';
export const CSRF_COOKIE = 'fd_csrf';
/**
 * Given at a self sign-up to the browser that chose the password: a confirmation by code that does
 * not bring it back keeps the account but not that password (the owner sets their own).
 */
export const SIGNUP_COOKIE = 'fd_signup';
/** How long a browser keeps SIGNUP_COOKIE: longer than a code lives, as new codes can be asked for on later days. */
export const SIGNUP_COOKIE_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const CSRF_HEADER = 'x-csrf-token';
/** Every API answer names its request here (the server's log lines carry it as reqId); a client may send its own. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Written by the web build (Vite's html.cspNonce) into index.html's <meta property="csp-nonce"> and
 * the nonce attributes; the server replaces it with each response's style nonce.
 */
export const CSP_NONCE_PLACEHOLDER = '__FRONTDOOR_CSP_NONCE__';

/**
 * The language menu's choice as a cookie, beside localStorage's STORAGE_KEYS.language: the server
 * answers a page prerendered in it (the web's own, not in the spec).
 */
export const LANGUAGE_COOKIE = 'fd_lang';

/** §2: ?locale=xx on any page switches the page language to xx. */
export const LOCALE_PARAM = 'locale';

/** Where the web build writes its content-hashed files (Vite's assetsDir), served as immutable. */
export const HASHED_DIR = 'static';

/**
 * The <script type="application/json"> the server puts config.json in, in every page it answers, so
 * the SPA starts without fetching it (it fetches CONFIG_PATH when the element is absent).
 */
export const CONFIG_ELEMENT_ID = 'fd-config';

/**
 * Pages the web build prerenders, one HTML file per bundled language under
 * `<dist>/PRERENDER_DIR/<language>/`, listed in PRERENDER_MANIFEST (shape: PrerenderManifest).
 * They are rendered with configPlaceholder(path) for each config.json string, which the server
 * replaces with the configured values.
 */
export const PRERENDER_DIR = 'prerendered';
export const PRERENDER_MANIFEST = 'manifest.json';
export interface PrerenderManifest {
  /** The language answered when none of the request's is bundled. */
  defaultLanguage: string;
  languages: string[];
  /** Page path (as the router matches it, no trailing slash) → its file in each language's folder. */
  pages: Record<string, string>;
  /** Every other page: index.html with the language's <html lang dir>, for the SPA to render. */
  shell: string;
}
/**
 * The global a prerendered page's inline script keeps the buttons pressed (forms submitted, links
 * followed) before the app has hydrated: it holds them, so that a form never submits natively (its fields
 * would go into the URL) and a press is not lost; the app presses the last one again once hydrated.
 */
export const HELD_PRESSES_GLOBAL = '__frontdoorHeld';
export interface HeldPresses {
  /** What was pressed, in order: a button, a radio, a link within the portal, or a form submitted without one. */
  targets: Element[];
  /** Stops holding (the app handles presses from now on). */
  stop: () => void;
}

export const configPlaceholder = (path: string): string => `__FD_CONFIG_${path}__`;
export const CONFIG_PLACEHOLDER_PATTERN = /__FD_CONFIG_([A-Za-z.]+)__/g;

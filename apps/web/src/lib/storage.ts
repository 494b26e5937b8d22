import { SIGN_IN_METHODS, STORAGE_KEYS, loginParamsSchema } from '@frontdoor/contract';
import type { LoginParams, SignInMethod } from '@frontdoor/contract';

/**
 * Browser storage of §3: login_csrf and login_params under exactly those names, in the tab's
 * sessionStorage (they survive the round trip through an identity provider), with a dated copy in
 * localStorage that only the mail's link of the person who started the request, opening a tab of its
 * own, takes over (login-handover.ts); the remembered email in sessionStorage too. On a shared
 * classroom device another tab, the next person's, never runs with this one's sign-in request (a
 * teacher's return address, the questions a teacher skips). Storage may be disabled (private mode,
 * blocked cookies) or full: what it does not take is kept in memory instead (`unstored`, one Map per
 * storage area) and read from there first, so every step of a flow within the page load still works
 * (the sign-up's email on /code, the sign-in request of a provider's button); a full navigation starts
 * without it, and the pages it reaches have the csrf in their address.
 */
export const unstored = new Map<() => Storage, Map<string, string | null>>();

export function read(store: () => Storage, key: string): string | null {
  const kept = unstored.get(store);
  if (kept?.has(key)) return kept.get(key) ?? null;
  try {
    return store().getItem(key);
  } catch {
    return null;
  }
}

export function write(store: () => Storage, key: string, value: string | null): void {
  try {
    if (value === null) store().removeItem(key);
    else store().setItem(key, value);
    unstored.get(store)?.delete(key);
  } catch {
    // storage unavailable (blocked, full): this page load keeps it
    unstored.set(store, (unstored.get(store) ?? new Map()).set(key, value));
  }
}

export const local = () => window.localStorage;
export const session = () => window.sessionStorage;

export const getLoginCsrf = (): string | null => read(session, STORAGE_KEYS.loginCsrf) || null;

/** The saved login params, or null when absent or not valid (a tampered value is never trusted). */
export function getLoginParams(): LoginParams | null {
  const raw = read(session, STORAGE_KEYS.loginParams);
  if (!raw) return null;
  try {
    const parsed = loginParamsSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function saveLoginData(csrf: string, params: LoginParams): void {
  const json = JSON.stringify(loginParamsSchema.parse(params));
  for (const store of [session, local]) {
    write(store, STORAGE_KEYS.loginCsrf, csrf);
    write(store, STORAGE_KEYS.loginParams, json);
  }
  write(local, STORAGE_KEYS.loginSavedAt, String(Date.now()));
  // a new request is nobody's yet: the last one's owner must not take it over (login-handover.ts)
  write(local, STORAGE_KEYS.loginFor, null);
}

/**
 * §4: access-code success clears the saved login data; so does the end of post-login and a sign-out.
 * A shared classroom device must not hand the next person this one's sign-in request.
 */
export function clearLoginData(): void {
  for (const store of [session, local])
    for (const key of [
      STORAGE_KEYS.loginCsrf,
      STORAGE_KEYS.loginParams,
      STORAGE_KEYS.loginSavedAt,
      STORAGE_KEYS.loginFor,
    ])
      write(store, key, null);
}

export const getRememberedEmail = (): string | null => read(session, STORAGE_KEYS.email) || null;
export const rememberEmail = (email: string): void => write(session, STORAGE_KEYS.email, email);
/**
 * Forgets the address a flow left in this tab and the resend cooldowns noted for it (code-sent.ts:
 * each key names an address by a digest, which a class list could match): on a shared device the
 * next person reads this tab's storage.
 */
export function forgetEmail(): void {
  write(session, STORAGE_KEYS.email, null);
  const isCodeSent = (key: string) => key.startsWith(`${STORAGE_KEYS.codeSent}:`);
  // noted in this page load's memory where storage refused them
  const kept = unstored.get(session);
  for (const key of kept?.keys() ?? []) if (isCodeSent(key)) kept?.delete(key);
  try {
    const store = session();
    const noted = Array.from({ length: store.length }, (_, i) => store.key(i) ?? '');
    for (const key of noted) if (isCodeSent(key)) store.removeItem(key);
  } catch {
    // storage unavailable: nothing was noted there
  }
}

/**
 * The login page's 'Last used' method (never who): a sign-in's method waits in sessionStorage (this
 * tab's, kept across the round trip through a provider) until it succeeds, then becomes the device's
 * in localStorage. Anything but a SIGN_IN_METHODS value reads as none.
 */
const asMethod = (value: string | null): SignInMethod | null =>
  SIGN_IN_METHODS.find((method) => method === value) ?? null;

export const getLastSignInMethod = (): SignInMethod | null =>
  asMethod(read(local, STORAGE_KEYS.lastSignInMethod));

export const startSignIn = (method: SignInMethod): void =>
  write(session, STORAGE_KEYS.pendingSignInMethod, method);

/**
 * A sign-in succeeded: with the given method, else with the one this tab started (if any). The
 * email typed on the way is forgotten: the flow is over, and the device may be the next person's.
 */
export function confirmSignIn(method?: SignInMethod): void {
  const confirmed = method ?? asMethod(read(session, STORAGE_KEYS.pendingSignInMethod));
  write(session, STORAGE_KEYS.pendingSignInMethod, null);
  forgetEmail();
  if (confirmed) write(local, STORAGE_KEYS.lastSignInMethod, confirmed);
}

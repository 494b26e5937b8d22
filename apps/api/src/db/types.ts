import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table shapes. Portable across SQLite and PostgreSQL: timestamps are epoch milliseconds
 * (bigint on PostgreSQL, parsed to number), booleans are 0/1 integers, JSON is text.
 */
export interface UsersTable {
  id: string;
  email: string; // lowercased; unique
  first: string;
  last: string;
  description: string | null;
  password_hash: string | null; // argon2id; null for accounts that only sign in through a provider
  confirmed: number;
  must_reset: number;
  is_student: number | null; // null until the post-login question is answered
  roles: string; // JSON: { [role]: number[] }
  language: string;
  created_at: number;
  updated_at: number;
  /** Consecutive failed passwords and mailed codes; a success resets it (docs/SECURITY.md). */
  failed_attempts: number;
  last_failed_at: number | null;
  /** Set at ABUSE_LIMITS.accountLockAfterFailures; cleared by `user unlock` or after accountLockMs. */
  locked_at: number | null;
  /**
   * sha256 of the SIGNUP_COOKIE of the browser that chose the password at a self sign-up, until the
   * account is confirmed; null when an administrator chose it; UNKNOWN_SIGNUP_BROWSER on sign-ups
   * waiting at migration 010.
   */
  signup_browser: string | null;
  /**
   * 0 when a self sign-up was confirmed by someone other than its browser: its names may be a
   * stranger's, and mails do not greet by them (migration 011).
   */
  names_proven: Generated<number>;
  /**
   * When the account's preferences were last queued for the CRM; null when never, or since an
   * erasure was queued (migration 015). A deletion asks the CRM to erase the contact from it.
   */
  crm_contact_at: Generated<number | null>;
  /**
   * When a session last started for the account (services/sessions.ts replaceSession); null when
   * never since migration 018, which took the latest `session.started` of the audit log.
   */
  last_sign_in_at: Generated<number | null>;
  /** When an operator turned the account off (`user disable`, migration 025); null while it is on. */
  disabled_at: Generated<number | null>;
}

/** An account's link to an upstream identity: (provider, subject) is the stable key. */
export interface UserIdentitiesTable {
  id: Generated<number>;
  user_id: string;
  provider: string;
  subject: string; // issuer/tenant-qualified stable id
  email: string | null;
  created_at: number;
  /** JSON: what the provider asserted at the latest sign-in (identity/linked-identities.ts); null before migration 007. */
  claims: string | null;
}

/** Verification and reset codes, stored hashed, single use, expiring, attempt limited. */
export interface EmailCodesTable {
  id: Generated<number>;
  user_id: string;
  purpose: 'verify' | 'reset';
  code_hash: string;
  attempts: number;
  expires_at: number;
  consumed_at: number | null;
  created_at: number;
  /** The inbox it was mailed to (contract mailboxKey); null for codes issued before migration 021. */
  mailbox: string | null;
}

export interface InvitesTable {
  code: string;
  email: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface ServiceProvidersTable {
  sp_id: string;
  name: string;
  origins: string; // JSON string[] of allowed return-URL origins
  client_id: string;
  client_secret_hash: string;
  created_at: number;
}

/** A login request a service provider opened; its csrf travels in /log-in/{csrf}. */
export interface LoginRequestsTable {
  csrf: string;
  sp_id: string;
  url: string;
  is_teacher: number;
  created_at: number;
  expires_at: number;
}

/** Classroom access codes, stored as accessCodeDigest (never the code), expiring and revocable. */
export interface AccessCodesTable {
  id: string;
  code_hash: string;
  sp_id: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** Failed access-code guesses per provider per UTC day, against the provider's budget. */
export interface AccessCodeFailuresTable {
  sp_id: string;
  day: number;
  failures: number;
  /** Guesses being looked up now, on every instance (migration 014, services/access-codes.ts). */
  in_flight: Generated<number>;
  /** When the last of them was held: past their lease they count as none (migration 022). */
  held_at: number | null;
  /** When the budget ran out (the operator was told then). */
  exhausted_at: number | null;
}

/** What operators must be able to read later: sign-ins, failures, locks, masquerades, admin commands. */
export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  event: string;
  user_id: string | null;
  sp_id: string | null;
  /** The client's address, when a request caused the entry. */
  address: string | null;
  detail: string; // JSON, without secrets
}

/** Short-lived, single-use hashes that auth/cookie trades for a session cookie. */
export interface CookieHashesTable {
  hash_digest: string;
  user_id: string;
  sp_id: string | null;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface SessionsTable {
  id: string; // sha256 of the cookie token
  user_id: string;
  masq_user_id: string | null;
  /** The masquerade's start and end (MASQUERADE_TTL_MS later); a masquerade past its end is ignored. */
  masq_started_at: number | null;
  masq_ends_at: number | null;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** Last use, written at most every SESSION_SEEN_REFRESH_MS; idle past SESSION_IDLE_MS, the session ends. */
  last_seen_at: number;
  /**
   * How it started (migration 027), the product token's `amr`: `pwd`, `access_code` or the
   * provider's name; null for sessions started before.
   */
  sign_in_method: Generated<string | null>;
  /** The product whose access code started it (the token's `sign_in_sp`), else null. */
  sign_in_sp: Generated<string | null>;
}

export interface SubscriptionsTable {
  user_id: string;
  subscription_id: number;
  subscribed: number;
  updated_at: number;
}

export interface MailboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text: string;
  html: string;
  sent_at: number;
}

export interface RealmOverridesTable {
  domain: string;
  account_type: string;
}

/** oidc-provider's adapter storage, one table for every model. */
export interface OidcPayloadsTable {
  id: string;
  type: string;
  payload: string;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: number | null;
  consumed_at: number | null;
}

/** Upstream-federation state issued by social/get_csrf, bound to the browser. */
export interface FederationStatesTable {
  state: string;
  provider: string;
  browser_binding: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  /** The portal's login request csrf, so the callback continues to /post-login/<csrf>. */
  login_csrf: string | null;
  /**
   * The session (sessions.id) its callback started: the same browser asking that callback again
   * shortly after, its answer lost, gets one in its place while it is live (LOST_CALLBACK_WINDOW_MS).
   */
  session_id: string | null;
}

/** Key material of the authorization server (JSON), created once and shared by every instance. */
export interface IdentityKeysTable {
  name: string;
  material: string;
  created_at: number;
}

/** A running instance's SECRET fingerprint and when it last said it is up (migration 026). */
export interface InstanceSecretsTable {
  instance_id: string;
  fingerprint: string;
  seen_at: number;
}

/**
 * What is sent off the machine (services/outbox.ts): a mail or a CRM webhook call. Pending while
 * next_attempt_at is set; claimed while claimed_until is in the future.
 */
export interface OutboxTable {
  id: Generated<number>;
  kind: string; // OutboxKind
  user_id: string | null;
  payload: string | null; // JSON; cleared once delivered
  attempts: number;
  next_attempt_at: number | null; // null once delivered, failed, rejected or cancelled
  claimed_by: string | null;
  claimed_until: number | null;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
  failed_at: number | null;
  /** The mail server refused it for good (migration 013). */
  rejected_at: number | null;
  /** Not sent: the code it carries (code_id) was no longer live (migration 013). */
  cancelled_at: number | null;
  code_id: number | null;
  /** The reqId of the request that queued it, null from the admin CLI (migration 017). */
  request_id: string | null;
  /** Which mail it is (MailKind's kind: verify, reset, invite, locked); null for CRM rows and mails before migration 023. */
  template: string | null;
}

export interface Database {
  users: UsersTable;
  user_identities: UserIdentitiesTable;
  email_codes: EmailCodesTable;
  invites: InvitesTable;
  service_providers: ServiceProvidersTable;
  login_requests: LoginRequestsTable;
  access_codes: AccessCodesTable;
  cookie_hashes: CookieHashesTable;
  sessions: SessionsTable;
  subscriptions: SubscriptionsTable;
  mailbox: MailboxTable;
  realm_overrides: RealmOverridesTable;
  oidc_payloads: OidcPayloadsTable;
  federation_states: FederationStatesTable;
  identity_keys: IdentityKeysTable;
  instance_secrets: InstanceSecretsTable;
  outbox: OutboxTable;
  access_code_failures: AccessCodeFailuresTable;
  audit_log: AuditLogTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

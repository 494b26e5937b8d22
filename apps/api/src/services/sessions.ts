import {
  SESSION_COOKIE,
  SESSION_IDLE_MS,
  SESSION_SEEN_REFRESH_MS,
  SESSION_TTL_MS,
} from '@frontdoor/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExpressionBuilder } from 'kysely';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { Database } from '../db/types.ts';
import { isForeignKeyViolation } from '../db/dialect.ts';
import { audit } from './audit.ts';
import { ApiError } from './http.ts';
import { randomToken, sha256 } from './crypto.ts';
import { hostCookie } from './host-cookie.ts';

/**
 * Server-side sessions. The cookie carries a random token; the table keeps only its sha256, so a
 * leaked table cannot be replayed as cookies. Revoking sets revoked_at (kept for audit).
 */
export interface SessionRecord {
  id: string;
  userId: string;
  /** The masqueraded user while the masquerade lasts, else null. */
  masqUserId: string | null;
  masqEndsAt: number | null;
  createdAt: number;
  expiresAt: number;
  /** When it idles out unless used again (its last use, as recorded, + the idle time). */
  idleEndsAt: number;
  /** How it started (SignInMethod), null for a session started before migration 027. */
  signInMethod: string | null;
  /** The product whose access code started it, else null. */
  signInSp: string | null;
}

export interface CreateSessionOptions {
  now: number;
  ttlMs?: number;
  /** How it starts (replaceSession: signInOf), kept for the product token's `amr` and `sign_in_sp`. */
  signIn?: { method: string | null; spId: string | null };
}

/**
 * Creates a session for userId and returns the cookie token (shown only once). Every sign-in comes
 * here (replaceSession): an account an operator turned off (`user disable`) gets none, written in
 * the one statement that checks it, so a disable cannot slip between a check and the insert.
 */
export async function createSession(db: Db, userId: string, opts: CreateSessionOptions): Promise<string> {
  const token = randomToken();
  let inserted: bigint | undefined;
  try {
    const res = await db
      .insertInto('sessions')
      .columns(['id', 'user_id', 'created_at', 'expires_at', 'last_seen_at', 'sign_in_method', 'sign_in_sp'])
      .expression((eb) =>
        eb
          .selectFrom('users')
          .select([
            eb.val(sha256(token)).as('id'),
            'users.id as user_id',
            eb.val(opts.now).as('created_at'),
            eb.val(opts.now + (opts.ttlMs ?? SESSION_TTL_MS)).as('expires_at'),
            eb.val(opts.now).as('last_seen_at'),
            eb.val(opts.signIn?.method ?? null).as('sign_in_method'),
            eb.val(opts.signIn?.spId ?? null).as('sign_in_sp'),
          ])
          .where('users.id', '=', userId)
          .where('users.disabled_at', 'is', null),
      )
      .executeTakeFirst();
    inserted = res.numInsertedOrUpdatedRows;
  } catch (error) {
    // the account was deleted while it signed in (`user delete` at that moment): as for no account
    if (isForeignKeyViolation(error)) throw new ApiError(401, 'incorrectCredentials');
    throw error;
  }
  if (Number(inserted) !== 1) {
    const user = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    // deleted before the insert read it: as for no account
    throw user ? new ApiError(403, 'accountDisabled') : new ApiError(401, 'incorrectCredentials');
  }
  return token;
}

/**
 * A live session: not revoked, within its absolute lifetime, used within `idleMs` (the
 * deployment's SESSION_IDLE_MINUTES, config.sessionIdleMs; SESSION_IDLE_MS by default), and of an
 * account that is not turned off: `user disable` ends its sessions, and one a sign-in wrote as it
 * ran is not live either. A look-up of the account's row by its key, in the session's own query.
 */
export const liveSession =
  (now: number, idleMs = SESSION_IDLE_MS) =>
  (eb: ExpressionBuilder<Database, 'sessions'>) =>
    eb.and([
      eb('revoked_at', 'is', null),
      eb('expires_at', '>', now),
      eb('last_seen_at', '>=', now - idleMs),
      eb.not(
        eb.exists(
          eb
            .selectFrom('users')
            .select('users.id')
            .whereRef('users.id', '=', 'sessions.user_id')
            .where('users.disabled_at', 'is not', null),
        ),
      ),
    ]);

/**
 * The live session of a cookie token, or null (unknown, expired, idle or revoked). Reading it
 * counts as use, written at most every SESSION_SEEN_REFRESH_MS; a masquerade past its end is left out.
 */
export async function readSession(
  db: Db,
  token: string | undefined,
  now: number,
  idleMs?: number,
): Promise<SessionRecord | null> {
  if (!token) return null;
  const row = await db
    .selectFrom('sessions')
    .selectAll()
    .where('id', '=', sha256(token))
    .where(liveSession(now, idleMs))
    .executeTakeFirst();
  if (!row) return null;
  const seen = now - row.last_seen_at >= SESSION_SEEN_REFRESH_MS;
  if (seen) await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', row.id).execute();
  const masquerading = row.masq_user_id !== null && row.masq_ends_at !== null && now < row.masq_ends_at;
  return {
    id: row.id,
    userId: row.user_id,
    masqUserId: masquerading ? row.masq_user_id : null,
    masqEndsAt: masquerading ? row.masq_ends_at : null,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    idleEndsAt: (seen ? now : row.last_seen_at) + (idleMs ?? SESSION_IDLE_MS),
    signInMethod: row.sign_in_method,
    signInSp: row.sign_in_sp,
  };
}

/** Whether the session with this id (a product token's `sid`) exists and is live (liveSession). */
export async function isSessionActive(db: Db, id: string, now: number, idleMs?: number): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .select('id')
    .where('id', '=', id)
    .where(liveSession(now, idleMs))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * How a browser came by its session, for the audit log and the product token (`amr`, `sign_in_sp`):
 * a password, a provider's callback (which provider), an access code's cookie (whose product's code).
 */
export type SessionStart = { address: string } & (
  | { via: 'password' }
  /** method: the ID token's `amr` (`pwd` or the provider's name); null for a session of before 027 */
  | { via: 'callback'; method: string | null }
  | { via: 'cookie'; spId: string }
);

/**
 * The session's sign-in method, the token's `amr` (docs/identity.md): RFC 8176's `pwd` for a password;
 * RFC 8176 has no value for a class code nor for a federated sign-in, so `access_code` and the
 * provider's name (`Google`, `Clever`, …).
 */
const signInOf = (start: SessionStart): { method: string | null; spId: string | null } => {
  if (start.via === 'password') return { method: 'pwd', spId: null };
  if (start.via === 'callback') return { method: start.method, spId: null };
  return { method: 'access_code', spId: start.spId };
};

/**
 * Signs a browser in as userId: the session it held before ends (on a shared classroom device,
 * the previous person's), the start is written to the audit log and dates the account's last
 * sign-in (how an operator finds dormant accounts: `user list --inactive-since`), and the new
 * session's token is returned for its cookie. Every sign-in of a browser comes here: a password,
 * a provider's callback (api/auth/callback), an access code's cookie (auth/cookie).
 */
export async function replaceSession(
  db: Db,
  previousTokens: string[],
  userId: string,
  now: number,
  start: SessionStart,
): Promise<string> {
  await revokeSessions(db, previousTokens, now);
  const token = await createSession(db, userId, { now, signIn: signInOf(start) });
  await db.updateTable('users').set({ last_sign_in_at: now }).where('id', '=', userId).execute();
  await audit(
    { db, now: () => now },
    {
      event: 'session.started',
      userId,
      spId: start.via === 'cookie' ? start.spId : null,
      address: start.address,
      detail: { via: start.via },
    },
  );
  return token;
}

/**
 * Signs a browser in again with the session `sessionId` whose cookie never reached it (the answer
 * that set it was lost): if that session is still live (liveSession: not signed out, not expired,
 * not idle), it ends and a new one of its account starts in its place (replaceSession), started as
 * it was (a callback, its sign-in method), whose token is returned; else null. Of two racing calls
 * only the one that ends it goes on.
 */
export async function restartSession(
  db: Db,
  sessionId: string,
  previousTokens: string[],
  now: number,
  idleMs: number,
  address: string,
): Promise<string | null> {
  const lost = await db
    .selectFrom('sessions')
    .select(['user_id', 'sign_in_method'])
    .where('id', '=', sessionId)
    .where(liveSession(now, idleMs))
    .executeTakeFirst();
  if (!lost) return null;
  const ended = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(ended.numUpdatedRows) !== 1) return null;
  return replaceSession(db, previousTokens, lost.user_id, now, {
    via: 'callback',
    method: lost.sign_in_method,
    address,
  });
}

/** Ends the sessions of these cookie tokens (sessionsToEnd), those still live. */
export async function revokeSessions(db: Db, tokens: string[], now: number): Promise<void> {
  if (!tokens.length) return;
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', 'in', tokens.map(sha256))
    .where('revoked_at', 'is', null)
    .execute();
}

/** Ends every live session of a user (after a password reset). */
export async function revokeUserSessions(db: Db, userId: string, now: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

type CookieConfig = Pick<AppConfig, 'cookieSecure'>;

/**
 * The session's cookie lasts as long as the browser's session, not the session's 8 hours (which the
 * server keeps): a student who closes the browser of a shared device leaves no session to the next.
 */
export const setSessionCookie = (reply: FastifyReply, token: string, config: CookieConfig): void =>
  hostCookie(SESSION_COOKIE, config).set(reply, token);

export const clearSessionCookie = (reply: FastifyReply, config: CookieConfig): void => {
  hostCookie(SESSION_COOKIE, config).clear(reply);
  if (config.cookieSecure) reply.clearCookie(SESSION_COOKIE, { path: '/' });
};

export const sessionTokenOf = (request: FastifyRequest, config: CookieConfig): string | undefined =>
  hostCookie(SESSION_COOKIE, config).read(request);

/**
 * The sessions a browser's cookies name, to end them (a sign-out, the next person signing in on a
 * shared device): its session cookie and, where cookies are Secure, the plain `fd_session` a release
 * before the `__Host-` name set. That one is never read as a session, only ended: after an upgrade
 * its session would otherwise stay live for the products, with no way for the person to end it.
 */
export const sessionsToEnd = (request: FastifyRequest, config: CookieConfig): string[] =>
  [sessionTokenOf(request, config), config.cookieSecure ? request.cookies[SESSION_COOKIE] : undefined].filter(
    (token): token is string => token !== undefined && token !== '',
  );

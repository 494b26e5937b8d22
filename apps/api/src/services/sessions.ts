import { SESSION_COOKIE, SESSION_TTL_MS } from '@frontdoor/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db/index.ts';
import { randomToken, sha256 } from './crypto.ts';

/**
 * Server-side sessions. The cookie carries a random token; the table keeps only its sha256, so a
 * leaked table cannot be replayed as cookies. Revoking sets revoked_at (kept for audit).
 */
export interface SessionRecord {
  id: string;
  userId: string;
  masqUserId: string | null;
  createdAt: number;
  expiresAt: number;
}

export interface CreateSessionOptions {
  now: number;
  ttlMs?: number;
}

/** Creates a session for userId and returns the cookie token (shown only once). */
export async function createSession(db: Db, userId: string, opts: CreateSessionOptions): Promise<string> {
  const token = randomToken();
  await db
    .insertInto('sessions')
    .values({
      id: sha256(token),
      user_id: userId,
      masq_user_id: null,
      created_at: opts.now,
      expires_at: opts.now + (opts.ttlMs ?? SESSION_TTL_MS),
      revoked_at: null,
    })
    .execute();
  return token;
}

/** The live session of a cookie token, or null (unknown, expired or revoked). */
export async function readSession(
  db: Db,
  token: string | undefined,
  now: number,
): Promise<SessionRecord | null> {
  if (!token) return null;
  const row = await db
    .selectFrom('sessions')
    .selectAll()
    .where('id', '=', sha256(token))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    userId: row.user_id,
    masqUserId: row.masq_user_id,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

/**
 * Signs a browser in as userId: the session it held before ends (on a shared classroom device,
 * the previous person's), and the new session's token is returned for its cookie.
 */
export async function replaceSession(
  db: Db,
  previousToken: string | undefined,
  userId: string,
  now: number,
): Promise<string> {
  await revokeSession(db, previousToken, now);
  return createSession(db, userId, { now });
}

export async function revokeSession(db: Db, token: string | undefined, now: number): Promise<void> {
  if (!token) return;
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', sha256(token))
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

export function setSessionCookie(
  reply: FastifyReply,
  token: string,
  config: CookieConfig,
  ttlMs = SESSION_TTL_MS,
): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.cookieSecure,
    maxAge: Math.floor(ttlMs / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: CookieConfig): void {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.cookieSecure,
  });
}

export const sessionTokenOf = (request: FastifyRequest): string | undefined =>
  request.cookies[SESSION_COOKIE];

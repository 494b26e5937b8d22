import { LOGIN_REQUEST_TTL_MS, type LoginParams } from '@frontdoor/contract';
import type { Db } from '../db/index.ts';
import { randomToken } from './crypto.ts';
import { RETENTION_MS } from './pruning.ts';

/** A service provider's sign-in request; its csrf travels in /log-in/{csrf}. */
export async function createLoginRequest(
  db: Db,
  input: { spId: string; url: string; isTeacher: boolean },
  now: number,
): Promise<string> {
  const csrf = randomToken(24);
  await db
    .insertInto('login_requests')
    .values({
      csrf,
      sp_id: input.spId,
      url: input.url,
      is_teacher: input.isTeacher ? 1 : 0,
      created_at: now,
      expires_at: now + LOGIN_REQUEST_TTL_MS,
    })
    .execute();
  return csrf;
}

/** The login params of a live request, or undefined when unknown or expired. */
export async function findLoginParams(db: Db, csrf: string, now: number): Promise<LoginParams | undefined> {
  const row = await db
    .selectFrom('login_requests')
    .selectAll()
    .where('csrf', '=', csrf)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ? { url: row.url, isTeacher: row.is_teacher === 1, sp_id: row.sp_id } : undefined;
}

/**
 * The login params of a request a sign-in was started from: live, or ended less than
 * RETENTION_MS.spent ago (until pruning takes it). The request serves every sign-in started within
 * its hour (docs/identity.md), and a class code is typed on a page opened within it, often long before:
 * a teacher opens the devices on the link before the lesson.
 */
export const findStartedLoginParams = (db: Db, csrf: string, now: number): Promise<LoginParams | undefined> =>
  findLoginParams(db, csrf, now - RETENTION_MS.spent);

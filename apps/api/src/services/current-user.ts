import type { FastifyRequest } from 'fastify';
import { SignJWT } from 'jose';
import type { Session } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import type { User } from '../db/types.ts';
import { ApiError } from './http.ts';
import { readSession, sessionTokenOf, type SessionRecord } from './sessions.ts';
import { findUserById, signatureUser } from './users.ts';

export interface SignedIn {
  session: SessionRecord;
  user: User;
  masq: User | undefined;
}

/** The signed-in user of a request (and the masqueraded one), or null. */
export async function currentUser(ctx: AppContext, request: FastifyRequest): Promise<SignedIn | null> {
  const session = await readSession(ctx.db, sessionTokenOf(request), ctx.now());
  if (!session) return null;
  const user = await findUserById(ctx.db, session.userId);
  if (!user) return null;
  const masq = session.masqUserId ? await findUserById(ctx.db, session.masqUserId) : undefined;
  return { session, user, masq };
}

export async function requireUser(ctx: AppContext, request: FastifyRequest): Promise<SignedIn> {
  const signedIn = await currentUser(ctx, request);
  if (!signedIn) throw new ApiError(401, 'notSignedIn');
  return signedIn;
}

const encoder = new TextEncoder();

/**
 * The product token of auth/sig: an HS256 JWT keyed by SECRET (audience `frontdoor-products`),
 * with sub = user id, sid = the session's id hash, masq = the masqueraded user id, and the
 * session's expiry. Products sharing the secret can verify it offline; it is no session credential.
 */
export async function productToken(ctx: AppContext, signedIn: SignedIn): Promise<string> {
  const jwt = new SignJWT({ sid: signedIn.session.id, ...(signedIn.masq ? { masq: signedIn.masq.id } : {}) })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(signedIn.user.id)
    .setIssuer(ctx.config.publicUrl)
    .setAudience('frontdoor-products')
    .setIssuedAt(Math.floor(ctx.now() / 1000))
    .setExpirationTime(Math.floor(signedIn.session.expiresAt / 1000));
  return jwt.sign(encoder.encode(ctx.config.secret));
}

export async function sessionView(ctx: AppContext, signedIn: SignedIn | null): Promise<Session> {
  if (!signedIn) return { loggedin: false, payload: null };
  return {
    loggedin: true,
    payload: {
      token: await productToken(ctx, signedIn),
      signature: {
        user: signatureUser(signedIn.user),
        ...(signedIn.masq ? { masq: signatureUser(signedIn.masq) } : {}),
      },
    },
  };
}

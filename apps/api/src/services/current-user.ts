import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { SignJWT, importJWK } from 'jose';
import { PRODUCT_TOKEN_AUDIENCE, PRODUCT_TOKEN_TTL_MS, type Session } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import type { User } from '../db/types.ts';
import { ApiError } from './http.ts';
import { mayMasquerade } from './masquerade.ts';
import { productKeys } from './product-keys.ts';
import { readSession, sessionTokenOf, type SessionRecord } from './sessions.ts';
import { findUserById, signatureUser } from './users.ts';

export interface SignedIn {
  session: SessionRecord;
  user: User;
  masq: User | undefined;
}

/** The signed-in user of a request (and the masqueraded one, while the rules still allow it), or null. */
export async function currentUser(ctx: AppContext, request: FastifyRequest): Promise<SignedIn | null> {
  const session = await readSession(ctx.db, sessionTokenOf(request), ctx.now());
  if (!session) return null;
  const user = await findUserById(ctx.db, session.userId);
  if (!user) return null;
  const target = session.masqUserId ? await findUserById(ctx.db, session.masqUserId) : undefined;
  const masq = target && mayMasquerade(user, target) ? target : undefined;
  return { session, user, masq };
}

export async function requireUser(ctx: AppContext, request: FastifyRequest): Promise<SignedIn> {
  const signedIn = await currentUser(ctx, request);
  if (!signedIn) throw new ApiError(401, 'notSignedIn');
  return signedIn;
}

/**
 * The product token of auth/sig: an ES256 JWT signed with the current product key (kid in the
 * header, keys published at PRODUCT_JWKS_PATH), so products verify it without holding any secret
 * of the portal. sub = user id, sid = the session's id (gateway/session/:sid says whether it is
 * still signed in), masq = the masqueraded user id. It lives PRODUCT_TOKEN_TTL_MS, never past the
 * session; it is no session credential.
 */
export async function productToken(ctx: AppContext, signedIn: SignedIn): Promise<string> {
  const [key] = await productKeys(ctx);
  const now = ctx.now();
  // a token that carries a masquerade ends with it
  const masqEndsAt = signedIn.masq ? (signedIn.session.masqEndsAt ?? now) : Number.POSITIVE_INFINITY;
  const expiresAt = Math.min(now + PRODUCT_TOKEN_TTL_MS, signedIn.session.expiresAt, masqEndsAt);
  return new SignJWT({ sid: signedIn.session.id, ...(signedIn.masq ? { masq: signedIn.masq.id } : {}) })
    .setProtectedHeader({ alg: 'ES256', kid: key.jwk.kid, typ: 'JWT' })
    .setSubject(signedIn.user.id)
    .setIssuer(ctx.config.publicUrl)
    .setAudience(PRODUCT_TOKEN_AUDIENCE)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .setJti(randomUUID())
    .sign(await importJWK(key.jwk, 'ES256'));
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

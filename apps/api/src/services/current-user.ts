import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import {
  PRODUCT_TOKEN_AUDIENCE,
  PRODUCT_TOKEN_TTL_MS,
  type Session,
  type Signature,
  type SignatureUser,
} from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import type { User } from '../db/types.ts';
import { ApiError } from './http.ts';
import { mayMasquerade } from './masquerade.ts';
import { tokenSigner } from './product-keys.ts';
import { readSession, sessionTokenOf, type SessionRecord } from './sessions.ts';
import { findUserById, signatureOf } from './users.ts';

export interface SignedIn {
  session: SessionRecord;
  user: User;
  masq: User | undefined;
}

/** The signed-in user of a request (and the masqueraded one, while the rules still allow it), or null. */
export async function currentUser(ctx: AppContext, request: FastifyRequest): Promise<SignedIn | null> {
  const session = await readSession(
    ctx.db,
    sessionTokenOf(request, ctx.config),
    ctx.now(),
    ctx.config.sessionIdleMs,
  );
  if (!session) return null;
  const user = await findUserById(ctx.db, session.userId);
  if (!user) return null;
  const target = session.masqUserId ? await findUserById(ctx.db, session.masqUserId) : undefined;
  const masq = target && mayMasquerade(user, target) ? target : undefined;
  return { session, user, masq };
}

/**
 * The signed-in user, for an answer only the account holder may give (the student question, their
 * mail preferences): an administrator acting as someone else gives neither for them nor, by
 * mistake, for their own account.
 */
export async function requireOwnUser(ctx: AppContext, request: FastifyRequest): Promise<User> {
  const signedIn = await currentUser(ctx, request);
  if (!signedIn) throw new ApiError(401, 'notSignedIn');
  if (signedIn.masq) throw new ApiError(403, 'forbidden');
  return signedIn.user;
}

/**
 * Who the user is, signed: what a product's server may trust, where auth/sig's `signature` is only
 * what the browser passes on (anyone may edit it there).
 */
const personClaims = (user: SignatureUser) => ({
  email: user.email,
  given_name: user.first,
  family_name: user.last,
  roles: user.roles,
});

const prefixed = (prefix: string, claims: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(claims).map(([name, value]) => [`${prefix}${name}`, value]));

/**
 * The product token of auth/sig: an ES256 JWT signed with the current product key (kid in the
 * header, keys published at PRODUCT_JWKS_PATH), so products verify it without holding any secret
 * of the portal. sub = user id, sid = the session's id (gateway/session/:sid says whether it is
 * still signed in), email, given_name, family_name and roles (personClaims), masq = the masqueraded
 * user id with its own (masq_email, …), identities (masq_identities) = the upstream identities linked
 * to each, as the signature lists them. It lives PRODUCT_TOKEN_TTL_MS, never past
 * the session's end or its idle end (a lab's short SESSION_IDLE_MINUTES); it is no session credential.
 * Asked from a product's origin (productOfOrigin), its aud names that product too and azp names it, so
 * a product that verifies its own sp_id as audience refuses a token handed to another; the shared
 * PRODUCT_TOKEN_AUDIENCE stays in aud for products that still verify it (docs/identity.md). amr says how
 * the session started (sessions.ts signInOf) and sign_in_sp whose access code started it.
 */
async function productToken(
  ctx: AppContext,
  signedIn: SignedIn,
  signature: Signature,
  product: string | null,
): Promise<string> {
  const sign = await tokenSigner(ctx);
  const now = ctx.now();
  // a token that carries a masquerade ends with it
  const masqEndsAt = signedIn.masq ? (signedIn.session.masqEndsAt ?? now) : Number.POSITIVE_INFINITY;
  const { expiresAt: sessionEndsAt, idleEndsAt } = signedIn.session;
  const expiresAt = Math.min(now + PRODUCT_TOKEN_TTL_MS, sessionEndsAt, idleEndsAt, masqEndsAt);
  return sign({
    iss: ctx.config.publicUrl,
    aud: product ? [product, PRODUCT_TOKEN_AUDIENCE] : PRODUCT_TOKEN_AUDIENCE,
    ...(product ? { azp: product } : {}),
    sub: signedIn.user.id,
    iat: Math.floor(now / 1000),
    exp: Math.floor(expiresAt / 1000),
    jti: randomUUID(),
    sid: signedIn.session.id,
    ...(signedIn.session.signInMethod ? { amr: [signedIn.session.signInMethod] } : {}),
    ...(signedIn.session.signInSp ? { sign_in_sp: signedIn.session.signInSp } : {}),
    ...personClaims(signature.user),
    identities: signature.user.identities ?? [],
    ...(signedIn.masq && signature.masq
      ? {
          masq: signedIn.masq.id,
          ...prefixed('masq_', personClaims(signature.masq)),
          masq_identities: signature.masq.identities ?? [],
        }
      : {}),
  });
}

/** auth/sig's answer; product: the sp_id of the product asking (productOfOrigin), null for the portal's pages. */
export async function sessionView(
  ctx: AppContext,
  signedIn: SignedIn | null,
  product: string | null = null,
): Promise<Session> {
  if (!signedIn) return { loggedin: false, payload: null };
  const signature: Signature = {
    user: await signatureOf(ctx.db, signedIn.user),
    ...(signedIn.masq ? { masq: await signatureOf(ctx.db, signedIn.masq) } : {}),
  };
  return {
    loggedin: true,
    payload: { token: await productToken(ctx, signedIn, signature, product), signature },
  };
}

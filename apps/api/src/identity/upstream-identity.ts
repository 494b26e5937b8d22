import type { UpstreamProvider } from '@frontdoor/contract';
import { MICROSOFT_PERSONAL_TENANT } from './config.ts';

/** What the portal keeps of an upstream sign-in, whatever the provider's shape. */
export interface UpstreamIdentity {
  provider: UpstreamProvider;
  /** Stable, issuer/tenant-qualified key of the person at that provider. */
  subject: string;
  email: string | null;
  /**
   * True only when the provider verified the email AND is trusted for account linking
   * (Google, Apple). Entra, Clever and ClassLink emails are never trusted for linking.
   */
  linkableEmail: boolean;
  first: string;
  last: string;
}

export class UpstreamIdentityError extends Error {}

type Claims = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const id = (v: unknown): string | undefined => str(v) ?? (typeof v === 'number' ? String(v) : undefined);
/** Apple sends booleans as the strings "true"/"false". */
const truthy = (v: unknown): boolean => v === true || v === 'true';

function required(value: string | undefined, what: string): string {
  if (!value) throw new UpstreamIdentityError(`the provider did not return ${what}`);
  return value;
}

function splitName(name: string | undefined): { first: string; last: string } {
  const parts = (name ?? '').split(/\s+/).filter(Boolean);
  return { first: parts[0] ?? '', last: parts.slice(1).join(' ') };
}

function names(given: unknown, family: unknown, full: unknown): { first: string; last: string } {
  const first = str(given);
  const last = str(family);
  return first || last ? { first: first ?? '', last: last ?? '' } : splitName(str(full));
}

const lowerEmail = (v: unknown): string | null => str(v)?.toLowerCase() ?? null;

/** Google: `sub` is the key; a verified email may link. */
export function fromGoogle(claims: Claims): UpstreamIdentity {
  const email = lowerEmail(claims.email);
  return {
    provider: 'Google',
    subject: required(str(claims.sub), 'a subject'),
    email,
    linkableEmail: Boolean(email) && truthy(claims.email_verified),
    ...names(claims.given_name, claims.family_name, claims.name),
  };
}

/**
 * Microsoft: the key is tenant + object id (`tid`:`oid`); email is mutable and unverified,
 * display only. Work/school sign-ins from the personal-account tenant are refused and the
 * other way round; `allowedTenants` optionally restricts organisations.
 */
export function fromMicrosoft(
  provider: 'Microsoft' | 'MicrosoftPersonal',
  claims: Claims,
  allowedTenants: string[] = [],
): UpstreamIdentity {
  const tid = required(str(claims.tid), 'a tenant id');
  const oid = required(str(claims.oid) ?? str(claims.sub), 'an object id');
  const personal = tid === MICROSOFT_PERSONAL_TENANT;
  if (provider === 'Microsoft' && personal)
    throw new UpstreamIdentityError(
      'a personal Microsoft account cannot sign in as a work or school account',
    );
  if (provider === 'MicrosoftPersonal' && !personal)
    throw new UpstreamIdentityError(
      'a work or school account cannot sign in as a personal Microsoft account',
    );
  if (provider === 'Microsoft' && allowedTenants.length && !allowedTenants.includes(tid)) {
    throw new UpstreamIdentityError('this organisation is not allowed to sign in');
  }
  return {
    provider,
    subject: `${tid}:${oid}`,
    email:
      lowerEmail(claims.email) ??
      (str(claims.preferred_username)?.includes('@') ? lowerEmail(claims.preferred_username) : null),
    linkableEmail: false,
    ...names(claims.given_name, claims.family_name, claims.name),
  };
}

/** Apple: `sub` (team scoped); the name only arrives once, in the form-posted `user` JSON. */
export function fromApple(claims: Claims, userJson: string | undefined): UpstreamIdentity {
  let first = '';
  let last = '';
  if (userJson) {
    try {
      const user = JSON.parse(userJson) as { name?: { firstName?: unknown; lastName?: unknown } };
      first = str(user.name?.firstName) ?? '';
      last = str(user.name?.lastName) ?? '';
    } catch {
      // a malformed user field only costs the name
    }
  }
  const email = lowerEmail(claims.email);
  return {
    provider: 'SignInWithApple',
    subject: required(str(claims.sub), 'a subject'),
    email,
    linkableEmail: Boolean(email) && truthy(claims.email_verified),
    first,
    last,
  };
}

/** Clever ID token / userinfo (OIDC mode): the v3 multi-role id is the key; email never links. */
export function fromCleverOidc(claims: Claims): UpstreamIdentity {
  return {
    provider: 'Clever',
    subject: required(id(claims.multi_role_user_id) ?? id(claims.sub) ?? id(claims.user_id), 'a user id'),
    email: lowerEmail(claims.email),
    linkableEmail: false,
    ...names(claims.given_name, claims.family_name, claims.name),
  };
}

/** Clever plain OAuth 2.0: GET /v3.0/me gives the id, GET /v3.0/users/{id} the person. */
export function fromCleverApi(me: Claims, user: Claims | undefined): UpstreamIdentity {
  const data = (me.data ?? {}) as Claims;
  const person = (user?.data ?? {}) as Claims;
  const name = (person.name ?? {}) as Claims;
  return {
    provider: 'Clever',
    subject: required(id(data.id), 'a user id'),
    email: lowerEmail(person.email),
    linkableEmail: false,
    first: str(name.first) ?? '',
    last: str(name.last) ?? '',
  };
}

/** ClassLink OIDC: tenant + sub. */
export function fromClassLinkOidc(claims: Claims): UpstreamIdentity {
  const sub = required(id(claims.sub), 'a subject');
  const tenant = id(claims.classLink_tenant_id);
  return {
    provider: 'ClassLink',
    subject: tenant ? `${tenant}:${sub}` : sub,
    email: lowerEmail(claims.email),
    linkableEmail: false,
    ...names(claims.given_name, claims.family_name, claims.name),
  };
}

/** ClassLink plain OAuth 2.0: GET /v2/my/info; the key is TenantId + UserId. */
export function fromClassLinkInfo(info: Claims): UpstreamIdentity {
  const tenant = required(id(info.TenantId), 'a tenant id');
  const user = required(id(info.UserId), 'a user id');
  return {
    provider: 'ClassLink',
    subject: `${tenant}:${user}`,
    email: lowerEmail(info.Email),
    linkableEmail: false,
    ...names(info.FirstName, info.LastName, info.DisplayName),
  };
}

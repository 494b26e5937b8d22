import {
  NAME_MAX_LENGTH,
  cleanName,
  normalizeEmail,
  type IdentityDirectory,
  type UpstreamProvider,
} from '@frontdoor/contract';
import { MICROSOFT_PERSONAL_TENANT } from './settings.ts';

/** What the portal keeps of an upstream sign-in, whatever the provider's shape. */
export interface UpstreamIdentity {
  provider: UpstreamProvider;
  /** Stable, issuer/tenant-qualified key of the person at that provider. */
  subject: string;
  email: string | null;
  /** The provider says it verified the email (false when it says nothing). */
  emailVerified: boolean;
  /**
   * The provider verified the email and the portal trusts it to (Google, Apple): it may be a new
   * account's own address, and products read it as trusted. Entra, Clever and ClassLink emails never are.
   */
  emailTrusted: boolean;
  /**
   * Trusted, and the provider owns the address (Gmail, a Google Workspace domain, iCloud, Apple's
   * relay): only then does the sign-in open an existing account that has the address. Google or
   * Apple verified any other address once, maybe years ago, so whoever held it then may not hold
   * it now (a school hands a departed pupil's address to a new one).
   */
  linkableEmail: boolean;
  first: string;
  last: string;
  /** The organisation, school and roles the provider named; what products match their rosters with. */
  directory: IdentityDirectory;
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

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * A provider's name as kept: cleaned, and no longer than a typed one (NAME_MAX_LENGTH, the same
 * UTF-16 length the contract's schema checks), cut between whole characters (never inside a
 * surrogate pair or an accent's sequence). Whatever length the provider sends, a row and the
 * product token carrying the name stay small.
 */
export function providerName(value: string): string {
  const clean = cleanName(value);
  if (clean.length <= NAME_MAX_LENGTH) return clean;
  let cut = '';
  for (const { segment } of graphemes.segment(clean)) {
    if (cut.length + segment.length > NAME_MAX_LENGTH) break;
    cut += segment;
  }
  return cut.trim();
}

function names(given: unknown, family: unknown, full: unknown): { first: string; last: string } {
  const first = str(given);
  const last = str(family);
  const asserted = first || last ? { first: first ?? '', last: last ?? '' } : splitName(str(full));
  return { first: providerName(asserted.first), last: providerName(asserted.last) };
}

/** A provider's email as every address is kept: the contract's one normalisation. */
const providerEmail = (v: unknown): string | null => {
  const value = str(v);
  return value ? normalizeEmail(value) : null;
};
const idList = (v: unknown): string[] =>
  Array.isArray(v) ? v.map(id).filter((x): x is string => x !== undefined) : [];
const roleName = (v: unknown): string | undefined => str(v)?.toLowerCase();

/** The directory without its empty parts: a product reads only what the provider gave. */
function directory(parts: {
  tenant?: string | undefined;
  district?: string | undefined;
  schools?: string[];
  roles?: (string | undefined)[];
  rosterId?: string | undefined;
}): IdentityDirectory {
  const schools = [...new Set(parts.schools ?? [])];
  const roles = [...new Set((parts.roles ?? []).filter((r): r is string => r !== undefined))];
  return {
    ...(parts.tenant ? { tenant: parts.tenant } : {}),
    ...(parts.district ? { district: parts.district } : {}),
    ...(schools.length ? { schools } : {}),
    ...(roles.length ? { roles } : {}),
    ...(parts.rosterId ? { rosterId: parts.rosterId } : {}),
  };
}

const domainOf = (email: string | null): string => email?.slice(email.lastIndexOf('@') + 1) ?? '';

/** The domains whose addresses Google itself hands out (a Workspace domain shows as the `hd` claim). */
const GOOGLE_MAIL_DOMAINS = ['gmail.com', 'googlemail.com'];
/** The domains whose addresses Apple itself hands out, its private relay's included. */
const APPLE_MAIL_DOMAINS = ['icloud.com', 'me.com', 'mac.com', 'privaterelay.appleid.com'];

/** An address Google or Apple hands out itself: no school ever gives it to someone else. */
export const providerHandsOut = (email: string): boolean =>
  [...GOOGLE_MAIL_DOMAINS, ...APPLE_MAIL_DOMAINS].includes(domainOf(email));

/**
 * Google: `sub` is the key; a verified email is trusted, and links to an existing account only where
 * Google owns the address (Gmail, or a Workspace account: `hd` set), as Google's guidance says.
 */
export function fromGoogle(claims: Claims): UpstreamIdentity {
  const email = providerEmail(claims.email);
  const emailVerified = Boolean(email) && truthy(claims.email_verified);
  return {
    provider: 'Google',
    subject: required(str(claims.sub), 'a subject'),
    email,
    emailVerified,
    emailTrusted: emailVerified,
    linkableEmail:
      emailVerified && (GOOGLE_MAIL_DOMAINS.includes(domainOf(email)) || str(claims.hd) !== undefined),
    ...names(claims.given_name, claims.family_name, claims.name),
    directory: {},
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
      providerEmail(claims.email) ??
      (str(claims.preferred_username)?.includes('@') ? providerEmail(claims.preferred_username) : null),
    // Entra asserts no verification of `email`: an administrator can set any address
    emailVerified: false,
    emailTrusted: false,
    linkableEmail: false,
    ...names(claims.given_name, claims.family_name, claims.name),
    directory: directory({ tenant: tid }),
  };
}

/**
 * Apple: `sub` (team scoped); the name only arrives once, in the form-posted `user` JSON. A verified
 * email is trusted, and links to an existing account only where Apple owns the address.
 */
export function fromApple(claims: Claims, userJson: string | undefined): UpstreamIdentity {
  let first = '';
  let last = '';
  if (userJson) {
    try {
      const user = JSON.parse(userJson) as { name?: { firstName?: unknown; lastName?: unknown } };
      first = providerName(str(user.name?.firstName) ?? '');
      last = providerName(str(user.name?.lastName) ?? '');
    } catch {
      // a malformed user field only costs the name
    }
  }
  const email = providerEmail(claims.email);
  const emailVerified = Boolean(email) && truthy(claims.email_verified);
  return {
    provider: 'SignInWithApple',
    subject: required(str(claims.sub), 'a subject'),
    email,
    emailVerified,
    emailTrusted: emailVerified,
    linkableEmail: emailVerified && APPLE_MAIL_DOMAINS.includes(domainOf(email)),
    first,
    last,
    directory: {},
  };
}

/**
 * Clever ID token / userinfo (OIDC mode): the v3 multi-role id is the key; email never links.
 * `user_type` is the role of this sign-in, `district` (or `district_id`) the district.
 */
export function fromCleverOidc(claims: Claims): UpstreamIdentity {
  const email = providerEmail(claims.email);
  return {
    provider: 'Clever',
    subject: required(id(claims.multi_role_user_id) ?? id(claims.sub) ?? id(claims.user_id), 'a user id'),
    email,
    emailVerified: Boolean(email) && truthy(claims.email_verified),
    emailTrusted: false,
    linkableEmail: false,
    ...names(claims.given_name, claims.family_name, claims.name),
    directory: directory({
      district: id(claims.district) ?? id(claims.district_id),
      schools: idList(claims.schools),
      roles: [roleName(claims.user_type)],
    }),
  };
}

/**
 * Clever plain OAuth 2.0: GET /v3.0/me gives the id and district, GET /v3.0/users/{id} the person,
 * whose `roles` object names each role (student, teacher, staff, district_admin) with its schools.
 */
export function fromCleverApi(me: Claims, user: Claims | undefined): UpstreamIdentity {
  const data = (me.data ?? {}) as Claims;
  const person = (user?.data ?? {}) as Claims;
  const name = (person.name ?? {}) as Claims;
  const roles =
    person.roles && typeof person.roles === 'object' ? Object.entries(person.roles as Claims) : [];
  return {
    provider: 'Clever',
    subject: required(id(data.id), 'a user id'),
    email: providerEmail(person.email),
    emailVerified: false,
    emailTrusted: false,
    linkableEmail: false,
    ...names(name.first, name.last, undefined),
    directory: directory({
      district: id(person.district) ?? id(data.district),
      schools: roles.flatMap(([, role]) => {
        const r = (role ?? {}) as Claims;
        return [...idList([r.school]), ...idList(r.schools)];
      }),
      roles: roles.map(([role]) => roleName(role)),
    }),
  };
}

/**
 * ClassLink OIDC: tenant + sub. ClassLink's ID token names the person's profile (Student, Teacher)
 * in `profile`, where OIDC would put a URL: a URL is no role.
 */
export function fromClassLinkOidc(claims: Claims): UpstreamIdentity {
  const sub = required(id(claims.sub), 'a subject');
  const tenant = id(claims.classLink_tenant_id);
  const email = providerEmail(claims.email);
  return {
    provider: 'ClassLink',
    subject: tenant ? `${tenant}:${sub}` : sub,
    email,
    emailVerified: Boolean(email) && truthy(claims.email_verified),
    emailTrusted: false,
    linkableEmail: false,
    ...names(claims.given_name, claims.family_name, claims.name),
    directory: directory({
      tenant,
      roles: [str(claims.profile)?.includes('/') ? undefined : roleName(claims.profile)],
    }),
  };
}

/**
 * ClassLink plain OAuth 2.0: GET /v2/my/info; the key is TenantId + UserId. Role (Student, Teacher),
 * BuildingId (the school) and SourcedId (the person in the OneRoster roster) go to the directory.
 */
export function fromClassLinkInfo(info: Claims): UpstreamIdentity {
  const tenant = required(id(info.TenantId), 'a tenant id');
  const user = required(id(info.UserId), 'a user id');
  return {
    provider: 'ClassLink',
    subject: `${tenant}:${user}`,
    email: providerEmail(info.Email),
    emailVerified: false,
    emailTrusted: false,
    linkableEmail: false,
    ...names(info.FirstName, info.LastName, info.DisplayName),
    directory: directory({
      tenant,
      schools: idList([info.BuildingId]),
      roles: [roleName(info.Role)],
      rosterId: id(info.SourcedId),
    }),
  };
}

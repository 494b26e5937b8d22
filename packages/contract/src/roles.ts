import { RULE_TEXTS } from './messages.ts';
import type { Signature, SignatureUser } from './schemas.ts';

export interface RoleRequirement {
  role: string;
  level?: number;
}

/** The role of the portal's administrators: only they may masquerade, and nobody as one of them. */
export const ADMIN_ROLE = 'admin';

/** §4/§6: when a masquerade user is present, role checks use it instead of the real user. */
export const effectiveUser = (signature: Signature): SignatureUser => signature.masq ?? signature.user;

/** §6: the user has the role as a key; a level > 0 must also be in that role's list. */
export function userHasRole(user: SignatureUser, role: string, level = 0): boolean {
  if (!Object.hasOwn(user.roles, role)) return false;
  return level > 0 ? (user.roles[role] ?? []).includes(level) : true;
}

function requireSignature(signature: Signature | null | undefined): Signature {
  if (!signature) throw new Error(RULE_TEXTS.authNotInitialized);
  return signature;
}

export function hasRole(signature: Signature | null | undefined, role: string, level = 0): boolean {
  return userHasRole(effectiveUser(requireSignature(signature)), role, level);
}

/** Multi-role check: passes if any listed role matches, with an optional level per role. */
export function hasAnyRole(
  signature: Signature | null | undefined,
  requirements: readonly RoleRequirement[],
): boolean {
  const user = effectiveUser(requireSignature(signature));
  return requirements.some((r) => userHasRole(user, r.role, r.level));
}

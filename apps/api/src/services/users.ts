import { randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { EmailStatus, Roles, SignatureUser } from '@frontdoor/contract';
import { ACCOUNT_METHODS, ADMIN_ROLE, cleanName, rolesSchema, userHasRole } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { isPostgres } from '../db/dialect.ts';
import type { Db } from '../db/index.ts';
import type { User } from '../db/types.ts';
import { linkedIdentities } from '../identity/linked-identities.ts';
import { withdrawFromCrm } from './crm.ts';

/**
 * The one set of password-hash parameters, the OWASP password storage cheat sheet's argon2id
 * minimum: m=19 MiB, t=2, p=1. A hash made with others is replaced at its owner's next sign-in.
 */
// algorithm 2 = Algorithm.Argon2id (a const enum, not importable under verbatimModuleSyntax)
export const ARGON2 = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
/** How every hash made with ARGON2 begins (PHC string format; v=19 is argon2 version 1.3). */
const CURRENT_HASH_PREFIX = `$argon2id$v=19$m=${ARGON2.memoryCost},t=${ARGON2.timeCost},p=${ARGON2.parallelism}$`;

/**
 * A password is hashed composed (NFC, NIST SP 800-63B §5.1.1.2): `é` typed as e and a combining accent
 * (one keyboard, one operating system) is the password set with `é` on another.
 */
export const hashPassword = (password: string): Promise<string> => hash(password.normalize('NFC'), ARGON2);

export const isCurrentHash = (passwordHash: string): boolean => passwordHash.startsWith(CURRENT_HASH_PREFIX);

const verifies = (passwordHash: string, password: string): Promise<boolean> =>
  verify(passwordHash, password).catch(() => false);

/**
 * Which form of the typed password the hash holds: 'composed' (its NFC form, as hashPassword hashes),
 * 'typed' (as typed, not composed: a hash made before passwords were composed, to be replaced: see
 * upgradePasswordHash), or null (neither). Only a password that NFC changes is checked twice: every
 * other wrong guess costs one hash, as before.
 */
export async function passwordMatch(
  passwordHash: string | null,
  password: string,
): Promise<'composed' | 'typed' | null> {
  if (!passwordHash) return null;
  const composed = password.normalize('NFC');
  if (await verifies(passwordHash, composed)) return 'composed';
  if (composed !== password && (await verifies(passwordHash, password))) return 'typed';
  return null;
}

export const verifyPassword = async (passwordHash: string | null, password: string): Promise<boolean> =>
  (await passwordMatch(passwordHash, password)) !== null;

/**
 * After a successful sign-in: a hash made with other parameters (or another argon2 variant), or of
 * the password as typed rather than composed (`matched` 'typed'), is replaced by one made with ARGON2
 * from the password just verified, unless a reset replaced it meanwhile. Best effort: when it fails
 * (a full hashing queue) the next sign-in tries again.
 */
export async function upgradePasswordHash(
  ctx: Pick<AppContext, 'db' | 'limits' | 'logger' | 'now'>,
  user: User,
  password: string,
  matched: 'composed' | 'typed',
): Promise<void> {
  const stored = user.password_hash;
  if (!stored || (isCurrentHash(stored) && matched === 'composed')) return;
  try {
    const upgraded = await ctx.limits.hashing.run(() => hashPassword(password));
    await ctx.db
      .updateTable('users')
      .set({ password_hash: upgraded, updated_at: ctx.now() })
      .where('id', '=', user.id)
      .where('password_hash', '=', stored)
      .execute();
  } catch (err) {
    ctx.logger.warn({ err, userId: user.id }, 'password hash upgrade failed; the next sign-in tries again');
  }
}

/** By an address as the contract's email schemas give it (normalizeEmail): the API normalises nowhere else. */
export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function findUserById(db: Db, id: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface NewAccount {
  /** As the contract's email schemas give it (normalised). */
  email: string;
  first: string;
  last: string;
  description?: string | null;
  passwordHash: string | null;
  confirmed: boolean;
  mustReset?: boolean;
  /** sha256 of the SIGNUP_COOKIE of a self sign-up's browser. */
  signupBrowser?: string;
  roles?: Roles;
  language?: string;
}

/** Builds the row of a new account; the caller inserts it (inside its own transaction when it writes more). */
export function newUserRow(account: NewAccount, now: number): User {
  return {
    id: randomUUID(),
    email: account.email,
    // cleaned where every account is made (the forms, the admin CLI, a provider), not in the SPA's bundle
    first: cleanName(account.first),
    last: cleanName(account.last),
    description: account.description ?? null,
    password_hash: account.passwordHash,
    confirmed: account.confirmed ? 1 : 0,
    must_reset: account.mustReset ? 1 : 0,
    is_student: null,
    roles: JSON.stringify(account.roles ?? {}),
    language: account.language ?? 'en',
    created_at: now,
    updated_at: now,
    failed_attempts: 0,
    last_failed_at: null,
    locked_at: null,
    signup_browser: account.signupBrowser ?? null,
    names_proven: 1,
    crm_contact_at: null,
    last_sign_in_at: null,
    disabled_at: null,
  };
}

/**
 * The email status (§3/§4) that decides the SPA's next screen. An account made for the user
 * (admin, invite, roster) has no password yet: verify. A must-reset flag wins over unconfirmed
 * because completing a reset also proves the address.
 */
export function emailStatusOf(user: User | undefined): EmailStatus {
  if (!user) return 'create-account';
  if (!user.password_hash) return 'verify';
  if (user.must_reset) return 'reset-password';
  if (!user.confirmed) return 'unconfirmed';
  return 'login';
}

export function rolesOf(user: User): Roles {
  try {
    const parsed = rolesSchema.safeParse(JSON.parse(user.roles));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

const signatureUser = (user: User): SignatureUser => ({
  id: user.id,
  email: user.email,
  first: user.first,
  last: user.last,
  roles: rolesOf(user),
});

export const isAdministrator = (user: User): boolean => userHasRole(signatureUser(user), ADMIN_ROLE);

/** The user as auth/sig shows it to the SPA and the products: with the identities linked to the account. */
export const signatureOf = async (db: Db, user: User): Promise<SignatureUser> => ({
  ...signatureUser(user),
  identities: await linkedIdentities(db, user.id),
});

/** auth/setBasicUserRole: the post-login answer, student or not; returns what was stored. */
export async function setIsStudent(
  ctx: Pick<AppContext, 'db' | 'now' | 'config'>,
  userId: string,
  isStudent: boolean,
): Promise<boolean> {
  await ctx.db.transaction().execute(async (trx) => {
    // as it was, locked on PostgreSQL: a saveSubscriptions holding it commits first
    let current = trx.selectFrom('users').selectAll().where('id', '=', userId);
    if (isPostgres(ctx.db)) current = current.forUpdate();
    const before = await current.executeTakeFirst();
    await trx
      .updateTable('users')
      .set({ is_student: isStudent ? 1 : 0, updated_at: ctx.now() })
      .where('id', '=', userId)
      .execute();
    if (before && isStudent && before.is_student !== 1) await withdrawFromCrm(ctx, trx, before);
  });
  return isStudent;
}

type AccountMethod = (typeof ACCOUNT_METHODS)[number];
const isAccountMethod = (value: string): value is AccountMethod =>
  (ACCOUNT_METHODS as readonly string[]).includes(value);

/**
 * How an account signs in, as cognito/get_account_type tells anyone who types its address: its
 * password when it has one (which validateEmail's 'login' already says), else its linked providers in
 * ACCOUNT_METHODS order, the sign-in the SPA can send it to. The providers linked beside a password
 * are nobody else's business.
 */
export async function accountMethods(db: Db, user: User): Promise<AccountMethod[]> {
  if (user.password_hash) return ['password'];
  const identities = await db
    .selectFrom('user_identities')
    .select('provider')
    .where('user_id', '=', user.id)
    .execute();
  const methods = new Set<AccountMethod>();
  for (const { provider } of identities) if (isAccountMethod(provider)) methods.add(provider);
  return ACCOUNT_METHODS.filter((m) => methods.has(m));
}

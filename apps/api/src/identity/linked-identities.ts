import { createHash } from 'node:crypto';
import { linkedIdentitySchema, type LinkedIdentity } from '@frontdoor/contract';
import * as z from 'zod/mini';
import type { Db } from '../db/index.ts';
import type { User } from '../db/types.ts';
import { newUserRow } from '../services/users.ts';
import { lockAccount } from '../services/accounts.ts';
import { providerHandsOut, type UpstreamIdentity } from './upstream-identity.ts';

export type AccountResolution = 'existing' | 'linked' | 'created';

/**
 * A trusted email that an account already has, from a provider that does not own the address: the
 * sign-in opens neither that account nor a second one for the same person. They sign in as they
 * did before (their password, or the provider already linked).
 */
export class EmailHasAccountError extends Error {}

/**
 * Address of an account whose provider gave no email the portal may use as its own (reserved
 * `.invalid` domain: never deliverable, never equal to a real person's address).
 */
const PLACEHOLDER_DOMAIN = '@federated.invalid';
const federatedPlaceholderEmail = (identity: Pick<UpstreamIdentity, 'provider' | 'subject'>): string =>
  `${identity.provider.toLowerCase()}-${createHash('sha256').update(identity.subject).digest('hex').slice(0, 20)}${PLACEHOLDER_DOMAIN}`;

/** Whether an account's address is such a placeholder: it takes no mail. */
export const isPlaceholderEmail = (email: string): boolean => email.endsWith(PLACEHOLDER_DOMAIN);

/** user_identities.claims: what the provider asserted at this sign-in, as the products read it. */
const claimsJson = (identity: UpstreamIdentity): string =>
  JSON.stringify({
    emailVerified: identity.emailVerified,
    emailTrusted: identity.emailTrusted,
    ...identity.directory,
  });

const storedClaimsSchema = z.omit(linkedIdentitySchema, { provider: true, subject: true, email: true });

/** An identity linked before migration 007 asserted nothing the portal kept: nothing verified, nothing trusted. */
function parseClaims(json: string | null) {
  try {
    const parsed = storedClaimsSchema.safeParse(JSON.parse(json ?? 'null'));
    if (parsed.success) return parsed.data;
  } catch {
    // not JSON: as if nothing was kept
  }
  return { emailVerified: false, emailTrusted: false };
}

/** The upstream identities linked to an account, oldest first, with what each asserted last. */
export async function linkedIdentities(db: Db, userId: string): Promise<LinkedIdentity[]> {
  const rows = await db
    .selectFrom('user_identities')
    .select(['id', 'provider', 'subject', 'email', 'claims'])
    .where('user_id', '=', userId)
    .execute();
  // sorted here, not by ORDER BY: on SQLite that clause made this read of every auth/sig about five
  // times dearer inside a request (26 against 5 µs), and the sort keeps the order on either database
  return rows
    .sort((a, b) => a.id - b.id)
    .flatMap((row) => {
      const provider = linkedIdentitySchema.shape.provider.safeParse(row.provider);
      return provider.success
        ? [{ provider: provider.data, subject: row.subject, email: row.email, ...parseClaims(row.claims) }]
        : [];
    });
}

const findByIdentity = (db: Db, identity: UpstreamIdentity) =>
  db
    .selectFrom('user_identities')
    .innerJoin('users', 'users.id', 'user_identities.user_id')
    .selectAll('users')
    .select('user_identities.email as identity_email')
    .where('user_identities.provider', '=', identity.provider)
    .where('user_identities.subject', '=', identity.subject)
    .executeTakeFirst();

/**
 * The account's address when another account has the one its provider now vouches for: the old
 * one when no school can hand it on (Gmail, iCloud, Apple's relay: the person moved between Hide My
 * Email and their own), else a placeholder: the old address may go to someone else, whose reset
 * would otherwise open this account.
 */
const addressWhenTaken = (identity: UpstreamIdentity, old: string): string =>
  providerHandsOut(old) ? old : federatedPlaceholderEmail(identity);

/**
 * The local account of an upstream sign-in:
 * 1. the account already linked to (provider, subject), its address following the identity's when
 *    it was that identity's and the provider now reports another (addressWhenTaken);
 * 2. else the account with the same email, only when the provider verified it and owns the
 *    address (linkableEmail: Gmail, a Google Workspace domain, iCloud, Apple's relay), and the
 *    account has no identity of this provider yet. Linking an unconfirmed self-sign-up confirms it
 *    and drops its password, so whoever pre-registered the address cannot keep a way in. A trusted
 *    email the provider does not own refuses the sign-in (EmailHasAccountError);
 * 3. else a new confirmed account without a password. Its email is the provider's only when
 *    trusted and free; otherwise a placeholder, so an unverified address never becomes an
 *    account's (and never receives its reset codes).
 * Each path writes in one transaction.
 */
export async function resolveUpstreamAccount(
  db: Db,
  identity: UpstreamIdentity,
  now: number,
): Promise<{ user: User; resolution: AccountResolution }> {
  const found = await findByIdentity(db, identity);
  if (found) {
    const { identity_email: reportedBefore, ...known } = found;
    // a roster changes (a new school, a new role): the products learn the latest, the last address
    // kept when a sign-in carries none (Apple sends it once). The account's own email stays as it is,
    // unless it is the address this identity reported and the provider now vouches for another
    const reported = identity.email ?? reportedBefore;
    const renamedTo =
      identity.emailTrusted &&
      reportedBefore !== null &&
      known.email === reportedBefore &&
      identity.email !== reportedBefore
        ? identity.email
        : null;
    const save = (email: string) =>
      db.transaction().execute(async (trx) => {
        // taken first, as a code request, a confirmation and a reset take it: they lock the account's
        // code, row and identities in another order (a deadlock on PostgreSQL), and a resend in
        // progress mails the old address before the rename, not after
        await lockAccount(trx, known.id);
        await trx
          .updateTable('user_identities')
          .set({ email: reported, claims: claimsJson(identity) })
          .where('provider', '=', identity.provider)
          .where('subject', '=', identity.subject)
          .execute();
        if (email === known.email) return;
        await trx.updateTable('users').set({ email, updated_at: now }).where('id', '=', known.id).execute();
        // a code mailed to the old address opens the account no more
        await trx
          .deleteFrom('email_codes')
          .where('user_id', '=', known.id)
          .where('consumed_at', 'is', null)
          .execute();
      });
    const taken =
      renamedTo !== null &&
      (await db.selectFrom('users').select('id').where('email', '=', renamedTo).executeTakeFirst()) !==
        undefined;
    let email =
      renamedTo === null ? known.email : taken ? addressWhenTaken(identity, known.email) : renamedTo;
    try {
      await save(email);
    } catch (error) {
      // another account took the new address in between (two sign-ins at once)
      if (email !== renamedTo) throw error;
      email = addressWhenTaken(identity, known.email);
      await save(email);
    }
    return { user: { ...known, email }, resolution: 'existing' };
  }
  try {
    return await db.transaction().execute(async (trx) => {
      const sameEmail =
        identity.email !== null
          ? await trx.selectFrom('users').selectAll().where('email', '=', identity.email).executeTakeFirst()
          : undefined;
      // an account that already has another identity of this provider belongs to someone else: a
      // school hands a departed pupil's address to a new one, whose account has a new `sub`
      const takenByProvider =
        sameEmail !== undefined &&
        (await trx
          .selectFrom('user_identities')
          .select('id')
          .where('user_id', '=', sameEmail.id)
          .where('provider', '=', identity.provider)
          .executeTakeFirst()) !== undefined;
      if (sameEmail && identity.emailTrusted && !identity.linkableEmail && !takenByProvider)
        throw new EmailHasAccountError(
          `${identity.provider} does not own the address of an existing account`,
        );
      let user: User;
      let resolution: AccountResolution;
      if (sameEmail && identity.linkableEmail && !takenByProvider) {
        // a sign-up nobody confirmed may be a stranger's: its password goes, and its names (or names
        // already marked unproven) give way to those the provider asserts; without any, they are kept
        // but never greet in a mail
        const providerNames =
          identity.first || identity.last
            ? { first: identity.first, last: identity.last, names_proven: 1 }
            : {};
        const changes = {
          ...(sameEmail.confirmed === 1
            ? {}
            : { confirmed: 1, password_hash: null, signup_browser: null, names_proven: 0 }),
          ...(sameEmail.confirmed !== 1 || sameEmail.names_proven === 0 ? providerNames : {}),
        };
        if (Object.keys(changes).length)
          await trx
            .updateTable('users')
            .set({ ...changes, updated_at: now })
            .where('id', '=', sameEmail.id)
            .execute();
        user = { ...sameEmail, ...changes };
        resolution = 'linked';
      } else {
        // the provider vouched for the person: confirmed, with no password of ours
        user = newUserRow(
          {
            email:
              identity.emailTrusted && identity.email && !sameEmail
                ? identity.email
                : federatedPlaceholderEmail(identity),
            first: identity.first,
            last: identity.last,
            passwordHash: null,
            confirmed: true,
          },
          now,
        );
        await trx.insertInto('users').values(user).execute();
        resolution = 'created';
      }
      await trx
        .insertInto('user_identities')
        .values({
          user_id: user.id,
          provider: identity.provider,
          subject: identity.subject,
          email: identity.email,
          created_at: now,
          claims: claimsJson(identity),
        })
        .execute();
      return { user, resolution };
    });
  } catch (error) {
    if (error instanceof EmailHasAccountError) throw error;
    // the same person finishing two sign-ins at once: the other transaction created the link
    const raced = await findByIdentity(db, identity);
    if (raced) {
      const { identity_email: _reported, ...user } = raced;
      return { user, resolution: 'existing' };
    }
    throw error;
  }
}

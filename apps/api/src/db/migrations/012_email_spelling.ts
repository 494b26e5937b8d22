import type { Kysely } from 'kysely';

/**
 * The spelling of contract normalizeEmail as this migration shipped: trimmed, lower case, composed.
 * Kept here, as it was: what 019 added (the domain's ASCII form) is 019's to do, with its own rule
 * for two accounts of one inbox.
 */
const normalizeEmail = (value: string): string => value.trim().toLowerCase().normalize('NFC');
const normalizeDomain = normalizeEmail;

/**
 * One spelling per address (contract normalizeEmail): stored addresses with decomposed letters take
 * the composed spelling every lookup now uses (`zoe\u0308@` becomes `zoë@`), so their accounts still
 * sign in; so do invites, identities and realm overrides' domains. An account whose new spelling another
 * account holds already keeps its old one: the two are one mailbox, and an operator merges them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const spelled = db as Kysely<{
    users: { id: string; email: string };
    invites: { code: string; email: string };
    user_identities: { id: number; email: string | null };
    realm_overrides: { domain: string };
  }>;
  const respelled = <T extends { email: string | null }>(rows: T[]) =>
    rows.flatMap((row) => {
      const email = row.email === null ? null : normalizeEmail(row.email);
      return email === null || email === row.email ? [] : [{ ...row, email }];
    });

  const users = await spelled.selectFrom('users').select(['id', 'email']).execute();
  const taken = new Set(users.map((user) => user.email));
  for (const user of respelled(users)) {
    if (taken.has(user.email)) continue;
    taken.add(user.email);
    await spelled.updateTable('users').set({ email: user.email }).where('id', '=', user.id).execute();
  }
  for (const invite of respelled(await spelled.selectFrom('invites').select(['code', 'email']).execute()))
    await spelled
      .updateTable('invites')
      .set({ email: invite.email })
      .where('code', '=', invite.code)
      .execute();
  // realm discovery looks a domain up as the address now spells it
  const realms = await spelled.selectFrom('realm_overrides').select(['domain']).execute();
  const realmsTaken = new Set(realms.map((realm) => realm.domain));
  for (const { domain } of realms) {
    const respelled = normalizeDomain(domain);
    if (respelled === domain || realmsTaken.has(respelled)) continue;
    realmsTaken.add(respelled);
    await spelled
      .updateTable('realm_overrides')
      .set({ domain: respelled })
      .where('domain', '=', domain)
      .execute();
  }
  // what a provider asserted, read by `user find`
  const identities = await spelled.selectFrom('user_identities').select(['id', 'email']).execute();
  for (const identity of respelled(identities))
    await spelled
      .updateTable('user_identities')
      .set({ email: identity.email })
      .where('id', '=', identity.id)
      .execute();
}

/** The new spellings name the same mailboxes; nothing to undo. */
export async function down(): Promise<void> {}

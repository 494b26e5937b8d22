import { domainToUnicode } from 'node:url';
import type { Kysely } from 'kysely';

/** The audit event of an address or domain this migration left in its old spelling (`audit list --event`). */
export const SPELLING_KEPT = 'spelling.kept';

interface Spelled {
  users: { id: string; email: string; confirmed: number; created_at: number };
  invites: { code: string; email: string };
  user_identities: { id: number; email: string | null };
  mailbox: { id: number; to_address: string };
  realm_overrides: { domain: string };
  audit_log: {
    at: number;
    event: string;
    user_id: string | null;
    sp_id: string | null;
    address: string | null;
    detail: string;
  };
}

/**
 * The spelling this migration writes: the contract's normalizeEmail as it was when the migration was
 * written, kept here so that a later rule never changes what it does to a database that upgrades late
 * (as 012 keeps its own). The local part trimmed, lower case and NFC; the domain as the WHATWG URL host
 * parser gives it, when the address and its spelling have the email pattern's shape, fit 254
 * characters and every xn-- label decodes; any other address keeps the old spelling.
 */
const EMAIL_PATTERN = /^[^\s\p{C}()<>[\]:;@\\,"]+@(?:[\p{L}\p{N}\p{M}-]+\.)+\p{L}[\p{L}\p{N}\p{M}-]*$/u;
const composed = (value: string): string => value.toLowerCase().normalize('NFC');
/** This spelling, with `local` applied to a local part before it is composed (020 maps full-width forms). */
export function spelling(local: (part: string) => string = (part) => part) {
  return (value: string): string => {
    const email = value.trim();
    const domainAt = email.lastIndexOf('@') + 1;
    try {
      const domain = new URL(`http://${email.slice(domainAt)}`).hostname;
      const spelled = composed(local(email.slice(0, domainAt))) + domain;
      const shaped = EMAIL_PATTERN.test(email) && EMAIL_PATTERN.test(spelled) && spelled.length <= 254;
      if (shaped && !/(?:^|\.)xn--/.test(domainToUnicode(domain))) return spelled;
    } catch {
      // a domain the parser refuses
    }
    return composed(email);
  };
}

/**
 * One spelling per inbox (contract normalizeEmail): a stored address's domain takes its IDNA ASCII
 * form, the one its mail is sent to (`ana@ｓchool.org` and `ana@school\uFE00.org` become
 * ana@school.org, `a@bücher.de` a@xn--bcher-kva.de), so its account is found by the address as every
 * form and the admin CLI now spell it; so do invites, identities' asserted addresses, the development
 * mailbox and realm overrides' domains. Where the new spelling is another account's already, both
 * stay as they are (one inbox, two accounts: an operator merges them) and the audit log says so, an
 * entry `spelling.kept` for the account left with its old spelling, naming the one holding the new
 * (`heldBy`); likewise for a realm override whose domain another override holds. Among accounts
 * whose new spelling nobody holds yet, a confirmed one takes it before an unconfirmed one, then the
 * oldest.
 */
export const up = (db: Kysely<unknown>): Promise<void> => respell(db, spelling(), '019_email_domains');

/**
 * Rows read at a time: a district's 300,000 accounts read at once took the upgrading start to 410 MB.
 * Each table is read in the order of its key, after the last row of the batch before (keyset).
 */
export const RESPELL_BATCH_ROWS = 1_000;

/** Every row `read` gives, batch after batch: `read` is given the last row of the batch before. */
async function* inBatches<Row>(read: (last: Row | undefined) => Promise<Row[]>): AsyncGenerator<Row> {
  for (let rows = await read(undefined); rows.length; rows = await read(rows.at(-1))) yield* rows;
}

/** Every stored address and realm override's domain in `normalizeEmail`'s spelling, as `up` above says. */
export async function respell(
  untyped: Kysely<unknown>,
  normalizeEmail: (email: string) => string,
  migration: string,
  batchRows = RESPELL_BATCH_ROWS,
): Promise<void> {
  const db = untyped as Kysely<Spelled>;
  const normalizeDomain = (domain: string): string => normalizeEmail(`_@${domain.trim()}`).slice(2);
  const kept = (detail: Record<string, unknown>, userId: string | null = null) =>
    db
      .insertInto('audit_log')
      .values({
        at: Date.now(),
        event: SPELLING_KEPT,
        user_id: userId,
        sp_id: null,
        address: null,
        detail: JSON.stringify({ migration, ...detail }),
      })
      .execute();

  // only the accounts whose spelling changes are kept in memory: a district's few, not its every one
  const respelled: (Spelled['users'] & { respelled: string })[] = [];
  const users = inBatches<Spelled['users']>((last) =>
    db
      .selectFrom('users')
      .select(['id', 'email', 'confirmed', 'created_at'])
      .$if(last !== undefined, (query) => query.where('id', '>', last?.id ?? ''))
      .orderBy('id')
      .limit(batchRows)
      .execute(),
  );
  for await (const user of users) {
    const email = normalizeEmail(user.email);
    if (email !== user.email) respelled.push({ ...user, respelled: email });
  }
  // a confirmed account first, then the oldest (ids are UUIDs: compared alike here and in SQL)
  respelled.sort(
    (a, b) =>
      b.confirmed - a.confirmed || a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  // who holds an address: one this run gave, else its owner before the run (a respelled account's
  // old address stays its own for this run, as the table has it until its update)
  const given = new Map<string, string>();
  const heldBefore = new Map(respelled.map((user) => [user.email, user.id]));
  const holderOf = async (email: string): Promise<string | undefined> =>
    given.get(email) ??
    heldBefore.get(email) ??
    (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst())?.id;
  for (const user of respelled) {
    const email = user.respelled;
    const heldBy = await holderOf(email);
    if (heldBy !== undefined) {
      await kept({ table: 'users', heldBy }, user.id);
      continue;
    }
    given.set(email, user.id);
    await db.updateTable('users').set({ email }).where('id', '=', user.id).execute();
  }

  // no unique address: each row simply takes the new spelling
  const invites = inBatches<Spelled['invites']>((last) =>
    db
      .selectFrom('invites')
      .select(['code', 'email'])
      .$if(last !== undefined, (query) => query.where('code', '>', last?.code ?? ''))
      .orderBy('code')
      .limit(batchRows)
      .execute(),
  );
  for await (const invite of invites) {
    const email = normalizeEmail(invite.email);
    if (email !== invite.email)
      await db.updateTable('invites').set({ email }).where('code', '=', invite.code).execute();
  }
  // what a provider asserted, read by `user find`
  const identities = inBatches<Spelled['user_identities']>((last) =>
    db
      .selectFrom('user_identities')
      .select(['id', 'email'])
      .$if(last !== undefined, (query) => query.where('id', '>', last?.id ?? 0))
      .orderBy('id')
      .limit(batchRows)
      .execute(),
  );
  for await (const identity of identities) {
    const email = identity.email === null ? null : normalizeEmail(identity.email);
    if (email !== identity.email)
      await db.updateTable('user_identities').set({ email }).where('id', '=', identity.id).execute();
  }
  // `mailbox list --to` and /dev/mailbox look an address up in the new spelling
  const mails = inBatches<Spelled['mailbox']>((last) =>
    db
      .selectFrom('mailbox')
      .select(['id', 'to_address'])
      .$if(last !== undefined, (query) => query.where('id', '>', last?.id ?? 0))
      .orderBy('id')
      .limit(batchRows)
      .execute(),
  );
  for await (const mail of mails) {
    const to = normalizeEmail(mail.to_address);
    if (to !== mail.to_address)
      await db.updateTable('mailbox').set({ to_address: to }).where('id', '=', mail.id).execute();
  }

  // realm discovery looks a domain up as the address now spells it
  const realms = await db.selectFrom('realm_overrides').select('domain').orderBy('domain').execute();
  const realmsTaken = new Set(realms.map((realm) => realm.domain));
  for (const { domain } of realms) {
    const respelled = normalizeDomain(domain);
    if (respelled === domain) continue;
    if (realmsTaken.has(respelled)) {
      await kept({ table: 'realm_overrides', domain, heldBy: respelled });
      continue;
    }
    realmsTaken.add(respelled);
    await db.updateTable('realm_overrides').set({ domain: respelled }).where('domain', '=', domain).execute();
  }
}

/** The new spellings name the same inboxes; nothing to undo. */
export async function down(): Promise<void> {}

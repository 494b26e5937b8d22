import type { Kysely } from 'kysely';
import { respell, spelling } from './019_email_domains.ts';

/**
 * Full-width ASCII (U+FF01–U+FF5E) as ASCII, the contract's halfWidth as it was when this migration
 * was written, kept here so that a later rule never changes what it does to a database that upgrades late.
 */
const halfWidth = (part: string): string =>
  part.replace(/[\uFF01-\uFF5E]/g, (char) => String.fromCharCode(char.charCodeAt(0) - 0xfee0));

/**
 * One spelling per inbox (contract normalizeEmail): a stored local part typed in an IME's full-width
 * mode takes its ASCII form, as 019 gave domains theirs (`ｔａｒｏ@school.org` becomes taro@school.org),
 * in accounts, invites, identities' asserted addresses and the development mailbox; where the new
 * spelling is another account's already, both stay as they are and the audit log says so
 * (`spelling.kept`, `heldBy`), as 019 does. A local part folded to what the email pattern refuses
 * (`ａ（ｂ）`) keeps its spelling, as the contract keeps it.
 */
export const up = (db: Kysely<unknown>): Promise<void> => {
  const spelled = spelling(halfWidth);
  // only the addresses this rule respells: one 019 kept in its old spelling stays out of this audit
  const normalizeEmail = (email: string): string => {
    const local = email.slice(0, email.lastIndexOf('@') + 1);
    return halfWidth(local) === local ? email : spelled(email);
  };
  return respell(db, normalizeEmail, '020_full_width_local_parts');
};

/** The new spellings name the same inboxes; nothing to undo. */
export async function down(): Promise<void> {}

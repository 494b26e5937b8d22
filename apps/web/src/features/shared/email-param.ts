import { isValidEmail } from '@frontdoor/contract';

/**
 * Characters an address may hold that draw as nothing or as a space (Hangul fillers, U+115F, U+3164,
 * U+FFA0 and the other default-ignorables, the blank Braille pattern): in a link's `email` they would
 * make `your<U+3164>account<U+3164>is<U+3164>locked@…` read as a sentence.
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\u2800]/u;

/**
 * The `email` of a page's address, when it is an address by the contract's rule and shows as what it
 * is; else null, as if there were none (the page goes to /email). Anyone may send a link to the portal
 * with any text there, and a page that shows it in its own sentence would carry a stranger's words on
 * the portal's domain.
 */
export function emailParam(params: URLSearchParams): string | null {
  const email = params.get('email');
  return email !== null && isValidEmail(email) && !INVISIBLE.test(email) ? email : null;
}

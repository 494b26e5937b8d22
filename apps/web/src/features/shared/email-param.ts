import { isValidEmail } from '@frontdoor/contract';

/**
 * The `email` of a page's address, when it is an address by the contract's rule; else null, as if
 * there were none (the page goes to /email). Anyone may send a link to the portal with any text there,
 * and a page that shows it in its own sentence would carry a stranger's words on the portal's domain.
 */
export function emailParam(params: URLSearchParams): string | null {
  const email = params.get('email');
  return email !== null && isValidEmail(email) ? email : null;
}

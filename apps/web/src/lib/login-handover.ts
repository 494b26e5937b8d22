import { LOGIN_REQUEST_TTL_MS, STORAGE_KEYS } from '@frontdoor/contract';
import { getLoginCsrf, local, read, session, write } from './storage.ts';

/**
 * A sign-in request handed from the tab that started it to the tab its mail's link opens (the
 * verification or reset link), and to no one else's: the pages a person waits on for a mail say
 * whose the device's copy is (claim), the pages a mail's link opens take it over when it is theirs
 * (adopt). Only the pages of those mails load this (not the first script).
 */

/**
 * Who the device's copy of a request is for, not in clear (the device is shared): a 32-bit FNV-1a of
 * the address, lower case.
 */
const ownerOf = (email: string): string => {
  let hash = 0x811c9dc5;
  for (const char of email.trim().toLowerCase())
    hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193);
  return (hash >>> 0).toString(36);
};

/**
 * On a page whose address names `email` (the code page, the reset page, the verification link): a
 * tab holding a request marks the device's copy of it as this person's; a tab without one (the mail's
 * link, opened apart) takes over the device's copy when it is this person's and still live
 * (LOGIN_REQUEST_TTL_MS). Anyone else's tab starts without it.
 */
export function handOverLoginData(email: string | null, now = Date.now()): void {
  if (!email) return;
  const csrf = getLoginCsrf();
  if (csrf) {
    if (csrf === read(local, STORAGE_KEYS.loginCsrf)) write(local, STORAGE_KEYS.loginFor, ownerOf(email));
    return;
  }
  if (
    read(local, STORAGE_KEYS.loginFor) !== ownerOf(email) ||
    !(now - Number(read(local, STORAGE_KEYS.loginSavedAt)) < LOGIN_REQUEST_TTL_MS)
  )
    return;
  write(session, STORAGE_KEYS.loginCsrf, read(local, STORAGE_KEYS.loginCsrf));
  write(session, STORAGE_KEYS.loginParams, read(local, STORAGE_KEYS.loginParams));
}

import { punycodeDecodes } from '#punycode';
import { EMAIL_MAX_LENGTH, MIN_PASSWORD_LENGTH, MIN_PERSONAL_WORD_LENGTH } from './constants.ts';

/** §5 password rule: each failure is flagged separately; valid means no flags. */
export type PasswordFlag =
  'minLength' | 'uppercaseMissing' | 'lowercaseMissing' | 'digitMissing' | 'specialCharacterMissing';
export const PASSWORD_FLAGS: readonly PasswordFlag[] = [
  'minLength',
  'uppercaseMissing',
  'lowercaseMissing',
  'digitMissing',
  'specialCharacterMissing',
];
export type PasswordFlags = Partial<Record<PasswordFlag, true>>;

export function passwordRule(
  typed: string | null | undefined,
): PasswordFlags | { InvalidPassword: true } | null {
  if (typed === null || typed === undefined) return { InvalidPassword: true };
  // judged as it is hashed (composed, the API's hashPassword): `é` typed as e and an accent is one character
  const value = typed.normalize('NFC');
  const flags: PasswordFlags = {};
  // characters are code points (NIST SP 800-63B): an emoji is one, not its two UTF-16 units
  if ([...value].length < MIN_PASSWORD_LENGTH) flags.minLength = true;
  if (!/[A-Z]/.test(value)) flags.uppercaseMissing = true;
  if (!/[a-z]/.test(value)) flags.lowercaseMissing = true;
  if (!/\d/.test(value)) flags.digitMissing = true;
  // "special" = a non-word character or the underscore
  if (!/[\W_]/.test(value)) flags.specialCharacterMissing = true;
  return Object.keys(flags).length ? flags : null;
}

export function passwordFlags(value: string): PasswordFlag[] {
  const result = passwordRule(value);
  return result ? (Object.keys(result) as PasswordFlag[]).filter((k) => PASSWORD_FLAGS.includes(k)) : [];
}

export const isStrongPassword = (value: string): boolean => passwordRule(value) === null;

/** Who a new password is for: their words are the first an attacker tries (NIST SP 800-63B §5.1.1.2). */
export interface PasswordOwner {
  email: string;
  first?: string | undefined;
  last?: string | undefined;
}

/**
 * The owner's words a password may not contain, lower-cased: the email's local part, its domain
 * labels (not the top-level one) as stored and as typed, the first and last name, each whole and split at every
 * non-letter ('jo.smith42' gives 'jo.smith42' and 'smith'), keeping those of MIN_PERSONAL_WORD_LENGTH.
 */
export function personalWords({ email, first = '', last = '' }: PasswordOwner): string[] {
  const [local = '', domain = ''] = normalizeEmail(email).split('@');
  // the domain as stored (an international one in its xn-- form) and as typed (münchen)
  const typedDomain = email.slice(email.lastIndexOf('@') + 1);
  const labels = (name: string) => name.split('.').slice(0, -1);
  const sources = [local, ...labels(domain), ...labels(typedDomain), first, last];
  const words = sources.flatMap((source) => {
    // composed, as the password it is looked for in (containsPersonalWord)
    const lower = source.trim().toLowerCase().normalize('NFC');
    return [lower, ...lower.split(/[^\p{L}]+/u)];
  });
  return [...new Set(words.filter((word) => word.length >= MIN_PERSONAL_WORD_LENGTH))];
}

/** Whether the password contains one of its owner's words, ignoring case. */
export function containsPersonalWord(password: string, owner: PasswordOwner): boolean {
  const lower = password.normalize('NFC').toLowerCase();
  return personalWords(owner).some((word) => lower.includes(word));
}

/** §5 greater-than-zero rule. */
export function greaterThanZeroRule(
  value: number | string | null | undefined,
): { ValueIsNull: true } | { NotGTZero: true } | null {
  if (value === null || value === undefined) return { ValueIsNull: true };
  const n = Math.trunc(Number(value));
  if (!(n >= 1)) return { NotGTZero: true };
  return null;
}

/**
 * The simple email pattern of the email form, run after trimming (§5): a local part without spaces,
 * nor any of \p{C} (controls, invisible characters, lone surrogates, which are stored as U+FFFD and
 * would name another address, private-use and unassigned characters, as each engine's Unicode
 * knows them), nor the characters that make a mail library read an address list (`a<b@x>`, `a,b@x`,
 * `a(c)b@x`), so the address a form accepts is the one a mail goes to and one inbox cannot hold a
 * thousand accounts; then a dotted domain whose last label starts with a letter (never an IP
 * address). Dots may stand anywhere in the local part, as some carriers' addresses have them.
 * The pattern is made at the first check, not as the first script loads: its Unicode classes are
 * built from tables a school Chromebook would pay for before the login page answers a tap.
 */
let emailPattern: RegExp | undefined;

const composed = (value: string): string => value.toLowerCase().normalize('NFC');

/**
 * Full-width ASCII (U+FF01–U+FF5E, what a Japanese or Chinese IME types in its full-width mode) as
 * ASCII, as UTS46 maps the domain: `ｔａｒｏ@school.org` is taro's account, its mail sent to taro.
 * Only these: NFKC would fold more of a local part than is the same mailbox (`ﬁ`, `①`, `ｶ`).
 */
const halfWidth = (value: string): string =>
  value.replace(/[\uFF01-\uFF5E]/g, (char) => String.fromCharCode(char.charCodeAt(0) - 0xfee0));

/**
 * An address in its one spelling (normalizeEmail), or undefined where it has none. The local part
 * with full-width ASCII as ASCII (halfWidth), lower case and composed (NFC: `zoë` typed as e and a
 * combining diaeresis is one account); one that folds to a character the pattern refuses (`ａ（ｂ）`)
 * keeps its full-width spelling, as before this rule, so an account made with it (which migration 020
 * leaves as it was) is still found. The
 * domain as the mailer sends to it: its IDNA ASCII form by the WHATWG URL host parser (UTS46, as
 * nodemailer's url.domainToASCII and a browser's email field map it), so full-width letters are
 * ASCII, ignorable characters (variation selectors, U+034F, a soft hyphen) gone, `ſ` an s, upper
 * case lower and an international domain its xn-- form: `victim@ｓchool.org` and
 * `victim@school\uFE00.org` are the one account of victim@school.org, `a@bücher.de` that of
 * `a@xn--bcher-kva.de`. The domain goes to the parser as typed, as nodemailer hands it over: UTS46's
 * case mapping is not toLowerCase's (`ẞ`, a word-final `Σ`). None where the parser refuses the domain
 * or gives back what is no domain (`x⑴.org` as `x(1).org`), an xn-- label does not decode, or the
 * spelling is longer than an address may be (a form would refuse the address it stored).
 */
function spelled(value: string): string | undefined {
  const email = value.trim();
  const domainAt = email.lastIndexOf('@') + 1;
  const pattern = (emailPattern ??= new RegExp(
    String.raw`^[^\s\p{C}()<>[\]:;@\\,"]+@(?:[\p{L}\p{N}\p{M}-]+\.)+\p{L}[\p{L}\p{N}\p{M}-]*$`,
    'u',
  ));
  try {
    const domain = new URL(`http://${email.slice(domainAt)}`).hostname;
    const local = email.slice(0, domainAt);
    const folded = composed(halfWidth(local)) + domain;
    const spelling = pattern.test(folded) ? folded : composed(local) + domain;
    // what the parser gives back counts only for a typed domain of the pattern's shape: it cuts `x.org/y` to x.org
    const shaped = pattern.test(email) && pattern.test(spelling) && spelling.length <= EMAIL_MAX_LENGTH;
    if (shaped && punycodeDecodes(domain)) return spelling;
  } catch {
    // a domain the parser refuses
  }
}

export const isValidEmail = (value: string): boolean => !!spelled(value);

/**
 * One spelling per inbox (spelled above). An address isValidEmail refuses keeps the spelling of old,
 * trimmed, lower case and composed: an account made before a stricter rule is still found by it.
 */
export const normalizeEmail = (value: string): string => spelled(value) ?? composed(value.trim());

/** Gmail's domains, whose mail ignores the dots of a local part; googlemail.com holds the same inboxes. */
const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The inbox an address's mail lands in, as the limits on mail to one person count it: the address in
 * its one spelling (normalizeEmail) less any `+tag` of its local part, which mail services deliver to
 * the address without it, and for Gmail less its dots too (as gmail.com). Each address stays its own
 * account; the codes mailed to all of them count together, so that signing up v+1@…, v+2@…, v.v@gmail.com
 * and so on cannot mail one person more than an account's hourly codes.
 */
export function mailboxKey(email: string): string {
  const spelling = normalizeEmail(email);
  const at = spelling.lastIndexOf('@');
  const domain = spelling.slice(at + 1);
  const local = spelling.slice(0, Math.max(at, 0)).split('+', 1)[0] ?? '';
  return GMAIL_DOMAINS.has(domain) ? `${local.replaceAll('.', '')}@gmail.com` : `${local}@${domain}`;
}

/** A domain in normalizeEmail's spelling (realm discovery and its overrides are keyed by it). */
export const normalizeDomain = (domain: string): string => normalizeEmail(`_@${domain.trim()}`).slice(2);

/**
 * A name as it is kept, typed or asserted by a provider: each run of controls, line breaks and bidi
 * controls one space. A line break in a name starts a line of its own in a mail; a bidi control
 * reverses the rest of its line. Joiners stay: Persian and Indic names need them.
 */
export const cleanName = (value: string): string =>
  value.replace(/[\p{Cc}\p{Zl}\p{Zp}\p{Bidi_C}]+/gu, ' ').trim();

/**
 * Whether a string can name anything stored: none holds a NUL (U+0000), which PostgreSQL's text
 * cannot hold (a query carrying one fails, where SQLite would just find nothing). A token, id or code
 * with one is the sender's mistake, answered the same on either database.
 */
export const isStorableText = (value: string): boolean => !value.includes('\u0000');

const DECIMAL_DIGIT = /\p{Nd}/u;

/**
 * Every Unicode decimal digit (\p{Nd}: Arabic-Indic ١, Persian ۱, Devanagari १, full-width １, …) as
 * its ASCII digit; anything else unchanged. Codes are ASCII, but a phone types them in its own script.
 */
export const normalizeDigits = (value: string): string =>
  value.replace(/\p{Nd}/gu, (digit) => String(decimalDigitValue(digit.codePointAt(0) ?? 0)));

/**
 * Unicode encodes each script's digits 0–9 as consecutive code points, and where runs adjoin (the
 * mathematical digits) each is still ten long: a digit's value is its distance from its run's start, mod 10.
 */
function decimalDigitValue(codePoint: number): number {
  let start = codePoint;
  while (DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start -= 1;
  return (codePoint - start) % 10;
}

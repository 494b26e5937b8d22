/**
 * What of a URL may reach the server's log or the SPA's error reports (docs/SECURITY.md, "Secrets in
 * logs and error reports"). Written once here: the API's request log and the SPA's Sentry hooks both
 * call it.
 *
 * The query string keeps only the parameters below, and only when their value has a plain shape; all
 * others are dropped, names too. An allowlist fails closed: every query the spec names either carries a
 * secret (code, email, em, vc, hash, token, state, login_hint) or a URL that can carry one (r,
 * return_url), and a parameter's name can itself be the secret (`?<token>`).
 */
export const KEPT_QUERY_PARAMS: readonly string[] = [
  'locale', // §2: any page's language
  'p', // social/get_csrf's provider name
  'error', // an identity provider's refusal (access_denied …)
];

const KEPT_VALUE = /^[\w.-]{1,64}$/;

/**
 * The path segment right after these segments is a secret (§7 calls, §2 pages with {code} or {csrf},
 * the sign-in interaction's id), matched anywhere in the path and in any letter case.
 */
const SECRET_AFTER: readonly [prefix: string, placeholder: string][] = [
  ['accesscodes/login', ':code'],
  ['devportal/getinviteemail', ':code'],
  ['invite', ':code'],
  ['cognito/resend_verification', ':email'],
  ['cognito/get_account_type', ':email'],
  ['gateway/getcsrflogin', ':csrf'],
  ['log-in', ':csrf'],
  ['create-account', ':csrf'],
  ['post-login', ':csrf'],
  ['access-code', ':csrf'],
  ['error-generic', ':csrf'],
  ['error-timeout', ':csrf'],
  ['sign-in', ':uid'],
  ['interaction', ':uid'],
  // the authorization server's resume path: an interaction id without a digit is no less a secret
  ['oauth2/authorize', ':uid'],
];
const SECRET_PREFIXES = SECRET_AFTER.map(([prefix, placeholder]) => ({
  prefix: prefix.split('/'),
  placeholder,
}));

/** Elsewhere, a segment shaped like a generated code or token (a digit among 6+ token characters)… */
const TOKEN_LIKE = /^(?=.*\d)[\w-]{6,}$/;
/**
 * …unless it reads as lower-case words, each with at most a short number at its end (oauth2, sha256,
 * utf8-v2): a generated token mixes cases or puts digits among its letters, a code is all digits.
 */
const WORDS = /^[a-z]+\d{0,3}(?:[-_][a-z]+\d{0,3})*$/;
const isTokenLike = (segment: string): boolean => TOKEN_LIKE.test(segment) && !WORDS.test(segment);

const safeDecode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

const AUTHORITY = /^(?:[a-z][a-z\d+.-]*:)?(?:\/\/[^/\\]*)?/i;

function scrubSegments(path: string): string {
  // '\' separates segments too: browsers read it as '/' in http URLs
  const parts = path.split(/([/\\])/);
  const segments = parts.filter((_part, i) => i % 2 === 0).map((s) => safeDecode(s).toLowerCase());
  const secretAt = new Map<number, string>();
  for (const { prefix, placeholder } of SECRET_PREFIXES) {
    for (let i = 0; i + prefix.length < segments.length; i++) {
      if (prefix.every((word, k) => segments[i + k] === word)) secretAt.set(i + prefix.length, placeholder);
    }
  }
  return parts
    .map((part, i) => {
      if (i % 2 === 1 || part === '') return part;
      const placeholder = secretAt.get(i / 2);
      if (placeholder) return placeholder;
      if (safeDecode(part).includes('@')) return ':email';
      return isTokenLike(safeDecode(part)) ? ':token' : part;
    })
    .join('');
}

function scrubQuery(query: string): string {
  const kept = query.split('&').filter((pair) => {
    const eq = pair.indexOf('=');
    if (eq === -1) return false;
    const name = safeDecode(pair.slice(0, eq).replaceAll('+', ' '));
    const value = safeDecode(pair.slice(eq + 1).replaceAll('+', ' '));
    return KEPT_QUERY_PARAMS.includes(name) && KEPT_VALUE.test(value);
  });
  return kept.length ? `?${kept.join('&')}` : '';
}

/**
 * The URL (absolute, or a path with its query) without its secrets: user info and fragment dropped,
 * the query cut to KEPT_QUERY_PARAMS, secret path segments replaced by a placeholder (`:code`, `:email`,
 * `:csrf`, `:uid`, `:token`). Pure, total (never throws) and idempotent.
 */
export function scrubUrl(url: string): string {
  const withoutFragment = url.split('#', 1)[0] ?? '';
  const q = withoutFragment.indexOf('?');
  const beforeQuery = q === -1 ? withoutFragment : withoutFragment.slice(0, q);
  const authority = AUTHORITY.exec(beforeQuery)?.[0] ?? '';
  const origin = authority.replace(/\/\/.*@/, '//');
  const query = q === -1 ? '' : scrubQuery(withoutFragment.slice(q + 1));
  return `${origin}${scrubSegments(beforeQuery.slice(authority.length))}${query}`;
}

/**
 * The local part takes every character RFC 5322 allows unquoted but '/', so that a scoped package's path
 * in a stack trace (node_modules/@fastify/…) stays readable.
 */
const EMAIL = "[\\w.!#$%&'*+=?^`{|}~-]+(?:@|%40)[\\w-]+(?:\\.[\\w-]+)*";
const EMAILS = new RegExp(EMAIL, 'gi');
const JSON_ESCAPE_OR_EMAIL = new RegExp(String.raw`\\(?:u[\da-f]{4}|.)|${EMAIL}`, 'gi');

/** Free text (an error message) with every email address, plain or percent-encoded, replaced by `:email`. */
export const maskEmails = (text: string): string => text.replace(EMAILS, ':email');

/** An address needs its @, plain or encoded: text without one is left as is after a quick scan. */
const AT_SIGN = /@|%40/i;

/** A JSON text (a log line) with every email address masked; its escapes are read whole, so it stays valid JSON. */
export const maskEmailsInJson = (json: string): string =>
  AT_SIGN.test(json)
    ? json.replace(JSON_ESCAPE_OR_EMAIL, (match) => (match.startsWith('\\') ? match : ':email'))
    : json;

const URL_IN_TEXT = /[a-z][a-z\d+.-]*:\/\/[^\s"'<>()]+|(?<![\w.])\/[^\s"'<>()]*/gi;

/** Free text with every URL or path in it scrubbed (scrubUrl) and every email address masked. */
export const scrubText = (text: string): string => maskEmails(text.replace(URL_IN_TEXT, scrubUrl));

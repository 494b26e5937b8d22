import {
  CSRF_COOKIE,
  CSRF_HEADER,
  DEFAULT_REQUEST_TIMEOUT_MS,
  REQUEST_ID_HEADER,
  errorEnvelopeSchema,
} from '@frontdoor/contract';
import type { ErrorExtras, PortalConfig } from '@frontdoor/contract';
import type * as z from 'zod/mini';

/**
 * The one HTTP client of the SPA (§7). Every call goes to cfg.apiUrl + a contract apiPaths entry,
 * sends cookies, the CSRF header on POSTs (double submit of the fd_csrf cookie) and Accept-Language.
 * Trace headers are added by the error-reporting SDK's fetch instrumentation, which lib/telemetry
 * limits to apiUrl (tracePropagationTargets), so none are sent while telemetry is off. A failed
 * answer's x-request-id goes to the error and to the failed-call listener (lib/telemetry's breadcrumb),
 * so a reported error leads to the server's log lines of that request.
 */

/** The server answered with an error (envelope {status:'error', code, msg} or a bare HTTP failure). */
export class ApiError extends Error {
  readonly httpStatus: number;
  /** A key of contract `messages` when the server sent one. */
  readonly code: string | undefined;
  /** The server's English msg, when it sent one. */
  readonly msg: string | undefined;
  /** The answer's x-request-id: the server's log lines of this request carry it as reqId. */
  readonly requestId: string | undefined;
  /** What the answer carried beside code and msg: the product a refusal names, a code on its way. */
  readonly extras: ErrorExtras;
  constructor(
    httpStatus: number,
    code: string | undefined,
    msg: string | undefined,
    requestId?: string,
    extras: ErrorExtras = {},
  ) {
    super(msg ?? `HTTP ${httpStatus}`);
    this.name = 'ApiError';
    this.httpStatus = httpStatus;
    this.code = code;
    this.msg = msg;
    this.requestId = requestId;
    this.extras = extras;
  }
}

/** A call the server answered with a failure, as the failed-call listener hears of it. */
export interface FailedCall {
  method: HttpMethod;
  /** The path under apiUrl, unscrubbed: it may hold a code or an address. */
  path: string;
  httpStatus: number;
  code: string | undefined;
  requestId: string | undefined;
}

let failedCallListener: ((call: FailedCall) => void) | null = null;
/** lib/telemetry listens here once error reporting has started; null stops listening. */
export function onFailedCall(listener: ((call: FailedCall) => void) | null): void {
  failedCallListener = listener;
}

/** No answer within the timeout (cfg.requestTimeoutMs unless the call overrides it). */
export class TimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`No answer within ${timeoutMs} ms`);
    this.name = 'TimeoutError';
  }
}

/** The request never reached the server or its answer never arrived (offline, DNS, CORS, reset). */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('Network failure', { cause });
    this.name = 'NetworkError';
  }
}

export type HttpMethod = 'GET' | 'POST';
export type HttpConfig = Pick<PortalConfig, 'apiUrl'> & Partial<Pick<PortalConfig, 'requestTimeoutMs'>>;
export type Query = Record<string, string | undefined>;

export interface RequestOptions {
  /** Overrides cfg.requestTimeoutMs for this call. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** A schema's output without the error envelope: what a successful call resolves to. */
export type Success<S extends z.ZodMiniType> = Exclude<z.output<S>, { status: 'error' }>;

let requestLanguage = 'en';
/** lib/i18n keeps this in step with the page language so the server can answer in it. */
export function setRequestLanguage(language: string): void {
  requestLanguage = language;
}

function readCookie(name: string): string | undefined {
  const prefix = `${name}=`;
  const found = document.cookie.split('; ').find((c) => c.startsWith(prefix));
  return found === undefined ? undefined : decodeURIComponent(found.slice(prefix.length));
}

/**
 * The CSRF token the API's last answer named: the cookie's value as the server reads it (where a plain
 * `fd_csrf` may be a sibling site's).
 */
let lastCsrfHeader: string | undefined;

/**
 * The token to echo on a POST: the last answer's, else (before any answer) the cookie, named
 * `__Host-fd_csrf` where cookies are Secure (the server's choice).
 */
const csrfToken = (): string | undefined =>
  lastCsrfHeader ?? readCookie(`__Host-${CSRF_COOKIE}`) ?? readCookie(CSRF_COOKIE);

function apiUrl(cfg: HttpConfig, path: string, query?: Query): URL {
  const url = new URL(`${cfg.apiUrl}${path}`, window.location.origin);
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  return url;
}

/** An answer read whole: its status and headers, and its body as text. */
interface Answer {
  response: Response;
  body: string;
}

/**
 * Sends the request and reads the whole answer within `timeoutMs`: headers that arrive do not end the
 * timeout, so a body that stalls after them (a phone on a failing network) is a timeout too.
 */
async function send(url: URL, init: RequestInit, timeoutMs: number, outer?: AbortSignal): Promise<Answer> {
  const controller = new AbortController();
  // the fetch and the body read each race the abort: an abort that does not reach a body already
  // being read (a stream of a service worker or a test's mock) still ends the call
  const aborted = new Promise<never>((_resolve, reject) =>
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), {
      once: true,
    }),
  );
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onOuterAbort = () => controller.abort();
  outer?.addEventListener('abort', onOuterAbort);
  try {
    const response = await Promise.race([fetch(url, { ...init, signal: controller.signal }), aborted]);
    return { response, body: await Promise.race([response.text(), aborted]) };
  } catch (error) {
    if (timedOut) throw new TimeoutError(timeoutMs);
    if (outer?.aborted) throw error;
    throw new NetworkError(error);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}

/**
 * Calls `path` (relative to apiUrl) and validates the answer with `schema` (a contract schema, usually
 * an `envelope(...)`). Resolves to the success value; throws ApiError, TimeoutError or NetworkError.
 */
export async function apiRequest<S extends z.ZodMiniType>(
  cfg: HttpConfig,
  method: HttpMethod,
  path: string,
  schema: S,
  body?: unknown,
  query?: Query,
  options: RequestOptions = {},
): Promise<Success<S>> {
  const url = apiUrl(cfg, path, query);
  const headers: Record<string, string> = { accept: 'application/json', 'accept-language': requestLanguage };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method === 'POST') {
    const csrf = csrfToken();
    if (csrf) headers[CSRF_HEADER] = csrf;
  }
  const timeoutMs = options.timeoutMs ?? cfg.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const { response, body: text } = await send(
    url,
    { method, headers, credentials: 'include', body: body === undefined ? undefined : JSON.stringify(body) },
    timeoutMs,
    options.signal,
  );
  lastCsrfHeader = response.headers.get(CSRF_HEADER) ?? lastCsrfHeader;
  const requestId = response.headers.get(REQUEST_ID_HEADER) ?? undefined;
  const failed = (
    httpStatus: number,
    code: string | undefined,
    msg: string | undefined,
    extras?: ErrorExtras,
  ): ApiError => {
    try {
      failedCallListener?.({ method, path, httpStatus, code, requestId });
    } catch {
      // error reporting never turns into a failure of its own
    }
    return new ApiError(httpStatus, code, msg, requestId, extras);
  };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // no JSON (a proxy's page, or a 2xx that breaks the contract): a failure with no text, so the
    // page says its own message (§8's fallbacks), never a parser's English words
    throw failed(response.status, undefined, undefined);
  }
  const failure = errorEnvelopeSchema.safeParse(json);
  if (!response.ok || failure.success) {
    if (!failure.success) throw failed(response.status, undefined, undefined);
    const { code, msg, sp_name, pending } = failure.data;
    throw failed(response.ok ? 400 : response.status, code, msg, { sp_name, pending });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw failed(response.status, undefined, undefined);
  return parsed.data as Success<S>;
}

/**
 * Where a failure of a call the page cannot do without sends the user: a timeout → /error-timeout,
 * a network failure or a 5xx → /error-generic, with the login csrf segment when one is held.
 * Other failures (4xx, and the server's "busy, try again in a few seconds" 503) are the page's
 * to show: null.
 */
export function fatalErrorPath(error: unknown, loginCsrf: string | null): string | null {
  let page: string | null = null;
  if (error instanceof TimeoutError) page = 'error-timeout';
  else if (
    error instanceof NetworkError ||
    (error instanceof ApiError && error.httpStatus >= 500 && error.code !== 'serverBusy')
  )
    page = 'error-generic';
  if (!page) return null;
  return loginCsrf ? `/${page}/${encodeURIComponent(loginCsrf)}` : `/${page}`;
}

import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';
import { HASHED_DIR, isMessageCode } from '@frontdoor/contract';
import { maskEmailsInJson, scrubUrl } from '@frontdoor/contract/scrub';
import { answeredCode } from './http.ts';

/** Fields holding a secret or an address wherever a logged object has them (with §7's names: pw, un). */
const SECRET_FIELDS = ['password', 'pw', 'confirmPw', 'code', 'hash', 'cookie_hash', 'token', 'email', 'un'];
const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie'];

/** Every key above, in any case, at any depth of a line (bodies, inputs, errors, headers). */
const SECRET_KEYS = new Set([...SECRET_FIELDS, ...SECRET_HEADERS].map((key) => key.toLowerCase()));
/** Whether a JSON line may have one of them as a key: a quoted name followed by a colon. */
const SECRET_KEY = new RegExp(`"(?:${[...SECRET_KEYS].join('|')})":`, 'i');
const REDACTED = '[Redacted]';

/**
 * An error's own code in capitals (FST_ERR_CTP_INVALID_MEDIA_TYPE, ECONNREFUSED, SQLITE_BUSY): letters
 * first, digits only after an underscore, so no generated code (digits, or mixed letters and digits) passes.
 */
const ERROR_IDENTIFIER = /^[A-Z]+(?:_[A-Z\d]+)*$/;

/**
 * Whether a `code` is an error code, shown as it is: a contract message code (an answer's code, an
 * ApiError's) anywhere, or an error identifier directly on an error (`err.code`, `err.cause.code`).
 * Any other code (a verification, access or OAuth code) is redacted.
 */
const isErrorCode = (value: unknown, onError: boolean): boolean =>
  isMessageCode(value) || (onError && typeof value === 'string' && ERROR_IDENTIFIER.test(value));

/** Keys whose value is an error (pino's `err`, an error's `cause`, an AggregateError's `errors`). */
const ERROR_KEYS = new Set(['err', 'error', 'cause', 'errors']);

function redactValue(value: unknown, onError = false): unknown {
  if (Array.isArray(value)) return value.map((item) => redactValue(item, onError));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      const lower = key.toLowerCase();
      if (lower === 'code' && isErrorCode(v, onError)) return [key, v];
      return [key, SECRET_KEYS.has(lower) ? REDACTED : redactValue(v, ERROR_KEYS.has(lower))];
    }),
  );
}

/**
 * A log line with the value of every secret key replaced. Lines without one (nearly all: the line of
 * a request answered without an error has none) pass after one scan; pino's own path redaction cost
 * more than the rest of a request.
 */
function redactLine(line: string): string {
  return SECRET_KEY.test(line) ? `${JSON.stringify(redactValue(JSON.parse(line)))}\n` : line;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  /** The URL as sent, before a mounted app (the authorization server under /oidc) cut its prefix. */
  originalUrl?: string;
  headers?: Record<string, string | string[] | undefined>;
  host?: string;
  ip?: string;
  socket?: { remoteAddress?: string; remotePort?: number };
}

/** How much of a URL or Host a request line keeps: a client's 16 kB URL must not cost 16 kB of log. */
export const LOGGED_URL_CHARS = 512;
const clip = (text: string | undefined, chars: number) =>
  text !== undefined && text.length > chars ? `${text.slice(0, chars)}…` : text;

/** Fastify's own request serializer, with the URL scrubbed (its path and query carry codes, hashes, emails). */
function requestSerializer(req: LoggedRequest) {
  const url = req.originalUrl ?? req.url;
  return {
    method: req.method,
    url: url === undefined ? undefined : clip(scrubUrl(url), LOGGED_URL_CHARS),
    host: clip(req.host, 255),
    remoteAddress: req.ip ?? req.socket?.remoteAddress,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * What an error may carry that is a connection, not a fact about the failure: pg-pool's `client`
 * (its connection parameters and the key that cancels its queries), a socket. Never logged.
 */
const CONNECTION_FIELDS = ['client', 'connection', 'socket'];

/** pino's error serializer (type, message, stack, code, cause…) without CONNECTION_FIELDS. */
function errorSerializer(err: Error): Record<string, unknown> {
  const serialized: Record<string, unknown> = { ...pino.stdSerializers.err(err) };
  for (const field of CONNECTION_FIELDS) delete serialized[field];
  return serialized;
}

/**
 * The one way the server, the admin CLI and the tests make a logger: no request URL, header or field
 * above carries a secret into a line, and an address in any text (an SMTP or database error) is masked.
 */
export function createLogger(options: { level: string; destination?: DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      serializers: { req: requestSerializer, err: errorSerializer },
      hooks: { streamWrite: (line) => maskEmailsInJson(redactLine(line)) },
    },
    options.destination,
  );
}

/** The OAuth error each refused authorization-server request answered, by its raw request. */
const oidcRefusals = new WeakMap<IncomingMessage, { error: string; description: string | undefined }>();

/** The account each request signed in, failed to sign in or otherwise acted on, by its raw request. */
const accounts = new WeakMap<IncomingMessage, string>();

/** The abuse limit that refused each refused request, by its raw request. */
const refusingLimits = new WeakMap<IncomingMessage, string>();

/** The requests that guessed a password or code wrong. */
const wrongGuesses = new WeakSet<IncomingMessage>();

const requestLogs = new AsyncLocalStorage<{ log: FastifyBaseLogger; raw: IncomingMessage; reqId: string }>();

/** Runs the rest of a request (`next`: its hooks, its handler) with the request's logger at hand. */
export const withRequestLog = (request: Pick<FastifyRequest, 'log' | 'raw' | 'id'>, next: () => void): void =>
  requestLogs.run({ log: request.log, raw: request.raw, reqId: request.id }, next);

/** The reqId of the request being answered, if any: what a row it queues keeps for its later lines. */
export const currentRequestId = (): string | undefined => requestLogs.getStore()?.reqId;

/**
 * The logger of the request being answered, whose lines carry its reqId, else `logger`: a service
 * that logs through the app's logger names the request an operator finds beside it.
 */
export const requestLogOr = (logger: FastifyBaseLogger): FastifyBaseLogger =>
  requestLogs.getStore()?.log ?? logger;

/**
 * Notes the account the request being answered acted on (by id, never its email), for that request's
 * line: behind a school's one address, a helpdesk finds a child's sign-ins by the id `user show` gives.
 */
export function noteAccount(userId: string): void {
  const store = requestLogs.getStore();
  if (store) accounts.set(store.raw, userId);
}

/** Notes the abuse limit refusing the request being answered, for its line (beside the answer's code). */
export function noteRefusingLimit(limit: string): void {
  const store = requestLogs.getStore();
  if (store) refusingLimits.set(store.raw, limit);
}

/**
 * Notes that the request being answered guessed a password or code wrong: its line names the browser
 * (RequestLog's tagBrowser), so one browser's guesses behind a school's one address are told apart
 * from its pupils' typos.
 */
export function noteWrongGuess(): void {
  const store = requestLogs.getStore();
  if (store) wrongGuesses.add(store.raw);
}

/**
 * Notes the OAuth error (`invalid_client`, `invalid_grant`…) and its description that the authorization
 * server answered a request with, for that request's log line: what a product's failing integration
 * shows its operator.
 */
export function noteOidcRefusal(
  raw: IncomingMessage,
  out: { error?: unknown; error_description?: unknown },
): void {
  if (typeof out.error !== 'string') return;
  const description = typeof out.error_description === 'string' ? out.error_description : undefined;
  oidcRefusals.set(raw, { error: out.error, description });
}

/**
 * Routes answered many times a minute without anyone asking for a line: a load balancer's probes, a
 * scraper, a page's static files (@fastify/static's `/*` and the hashed files' `/static/*`). Their
 * answers are logged at debug, what goes wrong with them (a status of 400 or more) as any other's.
 */
const ROUTINE_ROUTES = new Set(['/healthz', '/readyz', '/metrics', '/*', `/${HASHED_DIR}/*`]);

/** The requests whose line is written: one each, when its answer finished or when its client left first. */
const loggedRequests = new WeakSet<IncomingMessage>();

/** Whether a request's line is written, and with it its timing taken (routes/metrics.ts). */
export const requestLogged = (raw: IncomingMessage): boolean => loggedRequests.has(raw);

/**
 * Fastify's request log in one line per request, written when it completes (method, scrubbed URL,
 * address, status, time, and the contract code of an error answer, so refusals can be found by
 * code) instead of an "incoming" and a "completed" line: half the logging cost of every call for
 * the same facts. A request whose client left before its answer finished is written by app.ts, as 499.
 */
export class RequestLog extends LogController {
  /** A wrong guess's browser in its line, from its fd_csrf token (crypto.ts browserTag). */
  private readonly tagBrowser: (csrfToken: string) => string;

  constructor(tagBrowser: (csrfToken: string) => string) {
    super();
    this.tagBrowser = tagBrowser;
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (loggedRequests.has(request.raw)) return;
    loggedRequests.add(request.raw);
    const code = answeredCode(reply);
    const oidc = oidcRefusals.get(request.raw);
    const userId = accounts.get(request.raw);
    const limit = refusingLimits.get(request.raw);
    const browser =
      wrongGuesses.has(request.raw) && request.csrfToken ? this.tagBrowser(request.csrfToken) : undefined;
    const line = {
      req: request,
      res: reply,
      responseTime: reply.elapsedTime,
      ...(code && { code }),
      ...(userId && { userId }),
      ...(limit && { limit }),
      ...(browser && { browser }),
      ...(oidc && { oidcError: oidc.error, oidcErrorDescription: oidc.description }),
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (reply.statusCode < 400 && ROUTINE_ROUTES.has(request.routeOptions.url ?? ''))
      reply.log.debug(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * Where a development server at a terminal logs: pino-pretty's readable lines. A synchronous stream
 * in this thread, not a pino transport, so no worker thread is started. Undefined (pino's JSON on
 * stdout) in production, when stdout is a pipe or a file (tests, collectors), and when the dev
 * dependencies are not installed (`npm ci --omit=dev`).
 */
export async function terminalDestination(
  appEnv: string | undefined,
): Promise<DestinationStream | undefined> {
  if (!process.stdout.isTTY || appEnv?.trim().toLowerCase() === 'production') return undefined;
  try {
    const { default: pretty } = await import('pino-pretty');
    return pretty({ sync: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' });
  } catch {
    return undefined;
  }
}

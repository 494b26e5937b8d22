import pino, { type DestinationStream, type Logger } from 'pino';
import { maskEmailsInJson, scrubUrl } from '@frontdoor/contract';

/** Fields holding a secret or an address wherever a logged object has them (with §7's names: pw, un). */
const SECRET_FIELDS = ['password', 'pw', 'confirmPw', 'code', 'hash', 'cookie_hash', 'token', 'email', 'un'];
const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie'];

/**
 * pino redact paths: the fields at the top and two levels down (bodies, inputs, errors), and the headers.
 * An error's own `code` (ECONNREFUSED …) prints redacted too, as pino's paths cannot tell it apart; its
 * message usually says as much.
 */
const REDACTED_PATHS = [
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]),
  ...SECRET_HEADERS.flatMap((header) => [`headers["${header}"]`, `*.headers["${header}"]`]),
];

interface LoggedRequest {
  method?: string;
  url?: string;
  headers?: Record<string, string | string[] | undefined>;
  host?: string;
  ip?: string;
  socket?: { remoteAddress?: string; remotePort?: number };
}

/** Fastify's own request serializer, with the URL scrubbed (its path and query carry codes, hashes, emails). */
function requestSerializer(req: LoggedRequest) {
  return {
    method: req.method,
    url: req.url === undefined ? undefined : scrubUrl(req.url),
    version: req.headers?.['accept-version'],
    host: req.host,
    remoteAddress: req.ip ?? req.socket?.remoteAddress,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * The one way the server, the admin CLI and the tests make a logger: no request URL, header or field
 * above carries a secret into a line, and an address in any text (an SMTP or database error) is masked.
 */
export function createLogger(options: { level: string; destination?: DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      redact: { paths: REDACTED_PATHS },
      serializers: { req: requestSerializer },
      hooks: { streamWrite: maskEmailsInJson },
    },
    options.destination,
  );
}

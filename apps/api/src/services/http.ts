import { issueCode, messages, type ErrorExtras, type MessageCode } from '@frontdoor/contract';
import type { FastifyReply } from 'fastify';
import type * as z from 'zod/mini';

/** A limit's refusal: it always says when trying again can succeed (Retry-After, docs/SECURITY.md). */
export type RefusalStatus = 429 | 503;
/** Every other status an ApiError answers. */
export type FailureStatus = 400 | 401 | 403 | 404 | 409;

/**
 * A client-facing failure: HTTP status + contract message code. The global error handler turns it
 * into `{status:'error', msg, code}`. `msg` defaults to the code's English text; a few calls
 * (reset, signup, access code) carry a longer text the SPA reads. A 429 or 503 without its
 * Retry-After does not compile.
 */
export class ApiError extends Error {
  readonly statusCode: FailureStatus | RefusalStatus;
  readonly code: MessageCode;
  /** Sent as Retry-After (whole seconds) with a 429 or 503: when trying again can succeed. */
  readonly retryAfterMs: number | undefined;
  /** What the answer carries beside code and msg: the product a refusal names, the code on its way (errorEnvelopeSchema). */
  extras: ErrorExtras = {};
  constructor(statusCode: FailureStatus, code: MessageCode, msg?: string);
  constructor(statusCode: RefusalStatus, code: MessageCode, msg: string | undefined, retryAfterMs: number);
  constructor(
    statusCode: FailureStatus | RefusalStatus,
    code: MessageCode,
    msg?: string,
    retryAfterMs?: number,
  ) {
    super(msg ?? messages[code]);
    this.statusCode = statusCode;
    this.code = code;
    this.retryAfterMs = retryAfterMs;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

export interface SuccessEnvelope<T> {
  status: 'success';
  payload: T;
  msg?: string;
}

export const ok = <T>(payload: T, msg?: string): SuccessEnvelope<T> =>
  msg === undefined ? { status: 'success', payload } : { status: 'success', payload, msg };

export const errorBody = (code: MessageCode, msg: string = messages[code], extras: ErrorExtras = {}) => ({
  status: 'error' as const,
  msg,
  code,
  ...extras,
});

/** The code of each error answer, for its request's log line (services/logger.ts RequestLog). */
const answeredCodes = new WeakMap<FastifyReply, MessageCode>();

/** The contract code this reply answered with, if it answered an error. */
export const answeredCode = (reply: FastifyReply): MessageCode | undefined => answeredCodes.get(reply);

/** Notes the code of an error answer that is not an envelope (a refusal page) for the request's log line. */
export const noteAnsweredCode = (reply: FastifyReply, code: MessageCode): void =>
  void answeredCodes.set(reply, code);

/**
 * Validates with a contract schema. A failure answers its first issue's code (the schemas carry
 * contract codes), so the client sees the same words the SPA shows for the same rule; zod's own
 * texts ("Invalid input: expected string") are not codes and answer badRequest.
 */
export function parseWith<S extends z.ZodMiniType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ApiError(400, issueCode(result.error));
}

/** Answers the error envelope `{status:'error', msg, code}`, the one way every error answer is sent. */
export function sendError(
  reply: FastifyReply,
  status: number,
  code: MessageCode,
  msg?: string,
  extras?: ErrorExtras,
) {
  noteAnsweredCode(reply, code);
  return reply.code(status).send(errorBody(code, msg, extras));
}

import { issueCode, messages, type MessageCode } from '@frontdoor/contract';
import type { FastifyReply } from 'fastify';
import type * as z from 'zod/mini';

/**
 * A client-facing failure: HTTP status + contract message code. The global error handler turns it
 * into `{status:'error', msg, code}`. `msg` defaults to the code's English text; a few calls
 * (reset, signup, access code) carry a longer text the SPA reads.
 */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: MessageCode;
  /** Sent as Retry-After (whole seconds) with a 429 or 503: when trying again can succeed. */
  readonly retryAfterMs: number | undefined;
  constructor(statusCode: number, code: MessageCode, msg?: string, retryAfterMs?: number) {
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

export const errorBody = (code: MessageCode, msg: string = messages[code]) => ({
  status: 'error' as const,
  msg,
  code,
});

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

/** Answers an error envelope directly (for the few handlers that render instead of throwing). */
export const sendError = (reply: FastifyReply, status: number, code: MessageCode, msg?: string) =>
  reply.code(status).send(errorBody(code, msg));

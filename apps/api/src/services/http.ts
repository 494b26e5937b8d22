import { messages, type MessageCode } from '@frontdoor/contract';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';

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

const codeByText = new Map<string, MessageCode>(
  (Object.entries(messages) as [MessageCode, string][]).reverse().map(([code, text]) => [text, code]),
);

/** The contract code whose English text is `text`, or badRequest. */
export const codeOfMessage = (text: string): MessageCode => codeByText.get(text) ?? 'badRequest';

/**
 * Validates with a contract schema. The first issue's message is a contract message (the schemas
 * carry them), so the client sees the same words the SPA shows for the same rule.
 */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  const text = first?.message ?? messages.badRequest;
  const code = codeOfMessage(text);
  // zod's own texts ("Invalid input: expected string") are not contract messages: answer the generic one
  throw new ApiError(400, code, code === 'badRequest' ? messages.badRequest : text);
}

/** Answers an error envelope directly (for the few handlers that render instead of throwing). */
export const sendError = (reply: FastifyReply, status: number, code: MessageCode, msg?: string) =>
  reply.code(status).send(errorBody(code, msg));

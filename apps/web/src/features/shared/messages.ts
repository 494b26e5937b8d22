import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { PASSWORD_REFUSALS, messages } from '@frontdoor/contract';
import type { MessageCode, PasswordRefusal } from '@frontdoor/contract';
import { ApiError } from '../../lib/http.ts';
import type { ShownMessage } from './shown-message.ts';

const codeByText = new Map<string, MessageCode>(
  (Object.entries(messages) as Array<[MessageCode, string]>).reverse().map(([code, text]) => [text, code]),
);

/** The contract code whose English text a zod issue carries (schemas use the contract's messages). */
export const messageCodeOf = (text: string): MessageCode | undefined => codeByText.get(text);

const isMessageCode = (code: string | undefined): code is MessageCode =>
  code !== undefined && code in messages;

/** A server error: translated by its contract code when it has one, else its msg as it came. */
export function serverMessage(
  code: string | undefined,
  msg: string | undefined,
  fallback: MessageCode,
): ShownMessage {
  if (isMessageCode(code)) return { code };
  if (msg) return { text: msg };
  return { code: fallback };
}

/** What a failed call shows: the server's message (by code, else its msg), or `fallback` for any other failure. */
export const callErrorMessage = (error: unknown, fallback: MessageCode = 'unknownError'): ShownMessage =>
  error instanceof ApiError ? serverMessage(error.code, error.msg, fallback) : { code: fallback };

const isPasswordRefusal = (code: string | undefined): code is PasswordRefusal =>
  (PASSWORD_REFUSALS as readonly (string | undefined)[]).includes(code);

/**
 * The text of the server's refusal of a new password (too common, or holding the person's name or
 * email), which the sign-up and reset pages show under their password field; undefined for any other failure.
 */
export const passwordRefusalText = (error: unknown): string | undefined =>
  error instanceof ApiError && isPasswordRefusal(error.code) ? messages[error.code] : undefined;

/** Renders a ShownMessage (or a contract English text from a zod issue) in the current language. */
export function useMessageText(): (message: ShownMessage | string | undefined) => string {
  const { t } = useTranslation('errors');
  return useCallback(
    (message) => {
      if (message === undefined) return '';
      // a text equal to a contract message (zod issue, server msg) is translated by its code too
      const code =
        typeof message === 'string'
          ? messageCodeOf(message)
          : 'code' in message
            ? message.code
            : messageCodeOf(message.text);
      if (code) return t(code, { defaultValue: messages[code] });
      return typeof message === 'string' ? message : 'text' in message ? message.text : '';
    },
    [t],
  );
}

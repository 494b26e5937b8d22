import { useCallback } from 'react';
import { useTranslation } from '../../lib/i18n/use-translation.tsx';
import { PASSWORD_REFUSALS, isMessageCode, namingProvider } from '@frontdoor/contract';
import type { MessageCode, PasswordRefusal } from '@frontdoor/contract';
import { ApiError } from '../../lib/http.ts';
import type { ShownMessage } from './shown-message.ts';

/** What a failed call shows: the server's code, else its msg as it came, else `fallback` (any other failure too). */
export function callErrorMessage(error: unknown, fallback: MessageCode = 'unknownError'): ShownMessage {
  if (!(error instanceof ApiError)) return { code: fallback };
  if (isMessageCode(error.code)) return { code: error.code };
  return error.msg ? { text: error.msg } : { code: fallback };
}

const isPasswordRefusal = (code: string | undefined): code is PasswordRefusal =>
  (PASSWORD_REFUSALS as readonly (string | undefined)[]).includes(code);

/**
 * The server's refusal of a new password (too common, or holding the person's name or email), which
 * the sign-up and reset pages show under their password field; undefined for any other failure.
 */
export const passwordRefusalOf = (error: unknown): PasswordRefusal | undefined =>
  error instanceof ApiError && isPasswordRefusal(error.code) ? error.code : undefined;

/**
 * Renders a ShownMessage, or a zod issue's message, in the current language. The contract's schemas
 * set each issue's message to its code; zod's own texts are not codes and show as they came.
 */
export function useMessageText(): (message: ShownMessage | string | undefined) => string {
  const { t, i18n } = useTranslation('errors');
  return useCallback(
    (message) => {
      if (message === undefined) return '';
      const shown: ShownMessage =
        typeof message !== 'string'
          ? message
          : isMessageCode(message)
            ? { code: message }
            : { text: message };
      if (!('code' in shown)) return shown.text;
      return shown.name === undefined
        ? t(shown.code)
        : namingProvider(t(shown.code), i18n.isolated(shown.name));
    },
    [t, i18n],
  );
}

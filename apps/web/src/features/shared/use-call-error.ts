import { useCallback, useMemo } from 'react';
import type { MessageCode } from '@frontdoor/contract';
import { NetworkError } from '../../lib/http.ts';
import { useFatalError } from '../../lib/use-fatal-error.ts';
import { callErrorMessage, useMessageText } from './messages.ts';
import type { ShownMessage } from './shown-message.ts';

/**
 * How a page shows the failure of a call, by contract code (never by text):
 * - `failure(error, fallback)`, for what a person sent (a form, a button): a network failure is
 *   'networkError' on the page, what was typed kept (a school's Wi-Fi drops for a moment, and the
 *   press again goes on); a timeout goes to /error-timeout, a 5xx to /error-generic (null: the page
 *   shows nothing); else the message the page shows;
 * - `message(error, fallback)`: the message alone, for a call the page can do without;
 * - `onFatal(error)`: only the navigation (a query's error, from an effect); true when it navigated;
 * - `messageText(message)`: a message in the current language.
 * Each message is the server's code, else its msg as it came, else `fallback` ('unknownError').
 */
export function useCallError() {
  const onFatal = useFatalError();
  const messageText = useMessageText();
  const failure = useCallback(
    (error: unknown, fallback?: MessageCode): ShownMessage | null =>
      error instanceof NetworkError
        ? { code: 'networkError' }
        : onFatal(error)
          ? null
          : callErrorMessage(error, fallback),
    [onFatal],
  );
  return useMemo(
    () => ({ failure, message: callErrorMessage, onFatal, messageText }),
    [failure, onFatal, messageText],
  );
}

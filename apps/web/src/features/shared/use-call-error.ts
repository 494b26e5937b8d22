import { useCallback, useMemo } from 'react';
import type { MessageCode } from '@frontdoor/contract';
import { useFatalError } from '../../lib/use-fatal-error.ts';
import { callErrorMessage, useMessageText } from './messages.ts';
import type { ShownMessage } from './shown-message.ts';

/**
 * How a page shows the failure of a call, by contract code (never by text):
 * - `failure(error, fallback)`: a timeout goes to /error-timeout, a network failure or 5xx to
 *   /error-generic (null: the page shows nothing); else the message the page shows;
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
      onFatal(error) ? null : callErrorMessage(error, fallback),
    [onFatal],
  );
  return useMemo(
    () => ({ failure, message: callErrorMessage, onFatal, messageText }),
    [failure, onFatal, messageText],
  );
}

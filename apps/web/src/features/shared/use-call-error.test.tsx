import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import { messages } from '@frontdoor/contract';
import { ApiError, NetworkError, TimeoutError } from '../../lib/http.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { useCallError } from './use-call-error.ts';

function renderHook(language = 'en') {
  const captured: { current?: ReturnType<typeof useCallError> } = {};
  function Capture() {
    captured.current = useCallError();
    return null;
  }
  renderWithProviders(<Capture />, { language, path: '/email' });
  const calls = captured.current;
  if (!calls) throw new Error('the hook did not render');
  return calls;
}

describe('useCallError', () => {
  it('translates a server error by its contract code, else shows its msg, else the fallback', () => {
    const { message, messageText } = renderHook('fr');
    expect(messageText(message(new ApiError(400, 'accessCodeFailed', 'x')))).toBe(
      'Le code saisi n’a pas fonctionné. Réessayez ou adressez-vous à votre enseignant.',
    );
    expect(messageText(message(new ApiError(400, 'nope', 'Server says no')))).toBe('Server says no');
    expect(messageText(message(new ApiError(400, undefined, undefined)))).toBe(
      'Une erreur inconnue s’est produite.',
    );
    expect(messageText(message(new Error('boom'), 'loginParamsFailure'))).toBe(
      'Échec inconnu lors de la récupération des paramètres de connexion',
    );
  });

  it("translates a zod issue's code; zod's own text shows as it came", () => {
    const { messageText } = renderHook('fr');
    expect(messageText('passwordsDoNotMatch')).toBe('Les mots de passe ne correspondent pas');
    expect(messageText('Invalid input: expected string')).toBe('Invalid input: expected string');
    // a text equal to a contract message is not a code: nothing maps texts back to codes
    expect(messageText(messages.passwordsDoNotMatch)).toBe(messages.passwordsDoNotMatch);
  });

  it('sends a timeout to /error-timeout and a 5xx to /error-generic', () => {
    for (const [error, path] of [
      [new TimeoutError(1000), '/error-timeout'],
      [new ApiError(500, 'internalError', messages.internalError), '/error-generic'],
    ] as const) {
      const { failure } = renderHook();
      let shown: ReturnType<typeof failure> | undefined;
      act(() => {
        shown = failure(error);
      });
      expect(shown).toBeNull();
      expect(screen.getByTestId('location')).toHaveTextContent(new RegExp(`^${path}$`));
      document.body.innerHTML = '';
    }
  });

  it('a network failure of what a person sent stays on the page, what was typed kept; a call the page cannot do without goes to /error-generic', () => {
    const { failure, onFatal } = renderHook();
    let shown: ReturnType<typeof failure> | undefined;
    act(() => {
      shown = failure(new NetworkError(new Error('offline')));
    });
    expect(shown).toEqual({ code: 'networkError' });
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/email$/);
    act(() => void onFatal(new NetworkError(new Error('offline'))));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/error-generic$/);
  });

  it('any other failure stays on the page with its message (a busy server included)', () => {
    const { failure } = renderHook();
    let shown: ReturnType<typeof failure> | undefined;
    act(() => {
      shown = failure(new ApiError(503, 'serverBusy', messages.serverBusy));
    });
    expect(shown).toEqual({ code: 'serverBusy' });
    act(() => {
      shown = failure(new ApiError(429, 'tooManyRequests', messages.tooManyRequests), 'unknownError');
    });
    expect(shown).toEqual({ code: 'tooManyRequests' });
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/email$/);
  });
});

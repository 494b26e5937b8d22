import { setupServer } from 'msw/node';
import { HttpResponse, http } from 'msw';
import { apiPaths, messages } from '@frontdoor/contract';
import type { ErrorExtras, MessageCode } from '@frontdoor/contract';
import { testConfig } from './config.ts';

/** Absolute URL of an API path under the test config's apiUrl. */
export const api = (path: string): string => `${testConfig.apiUrl}${path}`;

/**
 * The one MSW server of the web tests; setup.ts starts it and resets handlers after each test (back to
 * these defaults). By default auth/sig answers a visitor, since pages that read the session (the login
 * page's signed-in notice) would otherwise reach for a real network; tests override it with server.use.
 */
export const server = setupServer(
  http.get(api(apiPaths.sig), () => HttpResponse.json({ loggedin: false, payload: null })),
);

/** What auth/sig answers a signed-in browser (the student Ana), for pages the server shows only to one. */
export const signedInSession = {
  loggedin: true,
  payload: {
    token: 't',
    signature: { user: { id: 'u1', email: 'ana@school.org', first: 'Ana', last: 'Lima', roles: {} } },
  },
};

export const ok = (payload: unknown, msg?: string) => HttpResponse.json({ status: 'success', payload, msg });

export const fail = (
  status: number,
  code: MessageCode,
  msg: string = messages[code],
  extras: ErrorExtras = {},
) => HttpResponse.json({ status: 'error', code, msg, ...extras }, { status });

export { http, HttpResponse };

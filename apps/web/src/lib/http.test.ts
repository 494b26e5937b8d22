import { describe, expect, it, vi } from 'vitest';
import { REQUEST_ID_HEADER, apiPaths, envelope, messages, validateEmailResponse } from '@frontdoor/contract';
import * as z from 'zod/mini';
import { HttpResponse, api, fail, http, ok, server } from '../test/server.ts';
import { testConfig } from '../test/config.ts';
import {
  ApiError,
  NetworkError,
  TimeoutError,
  apiRequest,
  fatalErrorPath,
  onFailedCall,
  setRequestLanguage,
} from './http.ts';

const anyPayload = envelope(z.unknown());

describe('apiRequest (§7)', () => {
  it('calls apiUrl + path with cookies, Accept-Language and the CSRF header on POST', async () => {
    document.cookie = 'fd_csrf=token%2F1; path=/';
    setRequestLanguage('fr');
    let seen: Request | undefined;
    server.use(
      http.post(api(apiPaths.validateEmail), ({ request }) => {
        seen = request.clone();
        return ok('login');
      }),
    );
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const answer = await apiRequest(testConfig, 'POST', apiPaths.validateEmail, validateEmailResponse, {
      email: 'a@b.co',
    });
    expect(answer).toEqual({ status: 'success', payload: 'login' });
    expect(seen?.url).toBe('http://localhost/api/auth/validateEmail');
    // Node's Request drops `credentials`, so read what the client passed to fetch
    expect(fetchSpy.mock.calls[0]?.[1]?.credentials).toBe('include');
    fetchSpy.mockRestore();
    expect(seen?.headers.get('x-csrf-token')).toBe('token/1');
    expect(seen?.headers.get('accept-language')).toBe('fr');
    expect(seen?.headers.get('content-type')).toBe('application/json');
    expect(await seen?.json()).toEqual({ email: 'a@b.co' });
    setRequestLanguage('en');
  });

  it("echoes the token the last answer named, else __Host-fd_csrf where cookies are Secure: a plain fd_csrf may be a sibling site's", async () => {
    const seen: (string | null)[] = [];
    server.use(
      http.get(api(apiPaths.sig), () =>
        HttpResponse.json({ loggedin: false, payload: null }, { headers: { 'x-csrf-token': 'from-answer' } }),
      ),
      http.post(api(apiPaths.validateEmail), ({ request }) => {
        seen.push(request.headers.get('x-csrf-token'));
        return ok('login');
      }),
    );
    const validateEmail = () =>
      apiRequest(testConfig, 'POST', apiPaths.validateEmail, validateEmailResponse, { email: 'a@b.co' });
    // jsdom keeps no __Host- cookie on http: the browser's cookie string is given as it would read
    const cookies = vi.spyOn(document, 'cookie', 'get');
    cookies.mockReturnValue('fd_csrf=planted; __Host-fd_csrf=host-only');
    await validateEmail();
    await apiRequest(testConfig, 'GET', apiPaths.sig, z.unknown());
    await validateEmail();
    cookies.mockRestore();
    expect(seen).toEqual(['host-only', 'from-answer']);
  });

  it('sends no CSRF header on GET and adds the query', async () => {
    document.cookie = 'fd_csrf=abc; path=/';
    let seen: Request | undefined;
    server.use(
      http.get(api(apiPaths.getCsrf), ({ request }) => {
        seen = request;
        return ok({ csrf: 's' });
      }),
    );
    await apiRequest(testConfig, 'GET', apiPaths.getCsrf, anyPayload, undefined, {
      r: 'https://x.example/',
      p: 'Google',
      c: undefined,
    });
    expect(seen?.headers.get('x-csrf-token')).toBeNull();
    expect(new URL(seen?.url ?? '').searchParams.toString()).toBe('r=https%3A%2F%2Fx.example%2F&p=Google');
  });

  it('sends no trace headers of its own (only the telemetry SDK may, and only to apiUrl)', async () => {
    let seen: Request | undefined;
    server.use(
      http.get(api(apiPaths.sig), ({ request }) => {
        seen = request;
        return HttpResponse.json({ loggedin: false, payload: null });
      }),
    );
    await apiRequest(testConfig, 'GET', apiPaths.sig, z.unknown());
    expect(seen?.headers.get('sentry-trace')).toBeNull();
    expect(seen?.headers.get('baggage')).toBeNull();
  });

  it('throws ApiError {httpStatus, code, msg} for an error envelope', async () => {
    server.use(http.post(api(apiPaths.signup), () => fail(409, 'accountExists')));
    const error = (await apiRequest(testConfig, 'POST', apiPaths.signup, anyPayload, {}).catch(
      (e: unknown) => e,
    )) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.httpStatus).toBe(409);
    expect(error.code).toBe('accountExists');
    expect(error.msg).toBe(messages.accountExists);
  });

  it("names the answer's x-request-id on the error, and a failing listener never breaks the call", async () => {
    server.use(
      http.post(api(apiPaths.signup), () => {
        const answer = fail(409, 'accountExists');
        answer.headers.set(REQUEST_ID_HEADER, 'req-9');
        return answer;
      }),
    );
    onFailedCall(() => {
      throw new Error('reporting is down');
    });
    const error = await apiRequest(testConfig, 'POST', apiPaths.signup, anyPayload, {}).catch(
      (e: unknown) => e,
    );
    onFailedCall(null);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ httpStatus: 409, code: 'accountExists', requestId: 'req-9' });
  });

  it('throws ApiError without a text for a 200 answer that breaks the contract: the page shows its own (§8) message', async () => {
    for (const answer of [
      () => ok('maybe'),
      () => HttpResponse.json({ status: 'error' }),
      () => HttpResponse.text('oops'),
    ]) {
      server.use(http.post(api(apiPaths.validateEmail), answer));
      const error = await apiRequest(
        testConfig,
        'POST',
        apiPaths.validateEmail,
        validateEmailResponse,
        {},
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ httpStatus: 200, code: undefined, msg: undefined });
    }
  });

  it('throws ApiError with the status for a non-JSON 5xx', async () => {
    server.use(http.get(api(apiPaths.sig), () => HttpResponse.text('Bad gateway', { status: 502 })));
    await expect(apiRequest(testConfig, 'GET', apiPaths.sig, z.unknown())).rejects.toMatchObject({
      httpStatus: 502,
    });
  });

  it('throws NetworkError when the request fails', async () => {
    server.use(http.get(api(apiPaths.sig), () => HttpResponse.error()));
    await expect(apiRequest(testConfig, 'GET', apiPaths.sig, z.unknown())).rejects.toBeInstanceOf(
      NetworkError,
    );
  });

  it('throws TimeoutError after the configured timeout', async () => {
    server.use(http.get(api(apiPaths.sig), () => new Promise<Response>(() => undefined)));
    const error = await apiRequest(
      { ...testConfig, requestTimeoutMs: 30 },
      'GET',
      apiPaths.sig,
      z.unknown(),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(30);
  });

  it('bounds the whole call: headers that arrive with a body that never ends are a timeout', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // the headers and the start of the JSON arrive, then the connection stalls for good (a fake
    // fetch: a stalled mock socket trips an assertion of Node's fetch once the call is aborted)
    const stalled = new ReadableStream<Uint8Array>({
      start: (body) => body.enqueue(new TextEncoder().encode('{"loggedin":')),
    });
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(new Response(stalled, { headers: { 'content-type': 'application/json' } }));
    try {
      let settled: unknown = 'pending';
      void apiRequest(testConfig, 'GET', apiPaths.sig, z.unknown()).then(
        (answer) => (settled = answer),
        (error: unknown) => (settled = error),
      );
      await vi.advanceTimersByTimeAsync(testConfig.requestTimeoutMs - 1);
      expect(fetchSpy).toHaveBeenCalledOnce();
      expect(settled).toBe('pending');
      await vi.advanceTimersByTimeAsync(1);
      expect(settled).toBeInstanceOf(TimeoutError);
      expect(settled).toMatchObject({ timeoutMs: testConfig.requestTimeoutMs });
    } finally {
      fetchSpy.mockRestore();
      vi.useRealTimers();
    }
  });

  it('a per-call timeout overrides the config one', async () => {
    server.use(http.get(api(apiPaths.sig), () => new Promise<Response>(() => undefined)));
    const error = await apiRequest(testConfig, 'GET', apiPaths.sig, z.unknown(), undefined, undefined, {
      timeoutMs: 20,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TimeoutError', timeoutMs: 20 });
  });
});

describe('fatalErrorPath (issue 2 §6)', () => {
  it('timeout → /error-timeout, network failure or 5xx → /error-generic, keeping the csrf segment', () => {
    expect(fatalErrorPath(new TimeoutError(1), null)).toBe('/error-timeout');
    expect(fatalErrorPath(new TimeoutError(1), 'c s')).toBe('/error-timeout/c%20s');
    expect(fatalErrorPath(new NetworkError(null), null)).toBe('/error-generic');
    expect(fatalErrorPath(new ApiError(503, undefined, undefined), 'abc')).toBe('/error-generic/abc');
  });

  it('4xx and unknown errors are the page’s to show', () => {
    expect(fatalErrorPath(new ApiError(400, 'badRequest', 'x'), null)).toBeNull();
    expect(fatalErrorPath(new ApiError(404, undefined, undefined), 'abc')).toBeNull();
    expect(fatalErrorPath(new Error('x'), null)).toBeNull();
  });

  it('a full argon2 queue (503 serverBusy) stays on the page, whose form can be sent again', () => {
    expect(fatalErrorPath(new ApiError(503, 'serverBusy', 'busy'), 'abc')).toBeNull();
  });
});

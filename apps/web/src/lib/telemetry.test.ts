import { describe, expect, it, vi } from 'vitest';
import type * as SentryNamespace from '@sentry/react';
import type { ErrorEvent } from '@sentry/react';
import * as z from 'zod/mini';
import { testConfig } from '../test/config.ts';
import { HttpResponse, api, fail, http, server } from '../test/server.ts';
import { REQUEST_ID_HEADER, STORAGE_KEYS, apiPaths, messages } from '@frontdoor/contract';
import { ApiError, apiRequest, onFailedCall } from './http.ts';
import { recordReplayFor, startTelemetry } from './telemetry.ts';
import type { SentryImporter } from './telemetry.ts';
import {
  REPLAY_OPTIONS,
  recordFailedCall,
  reportEvent,
  scrubBreadcrumb,
  scrubEvent,
  scrubRecordingEvent,
  scrubReplayEvent,
  scrubSpan,
  sentryOptions,
} from './error-reports.ts';

type SentryModule = typeof SentryNamespace;

function fakeSentry() {
  const init = vi.fn();
  const addIntegration = vi.fn();
  const replayIntegration = vi.fn((options: unknown) => ({ name: 'Replay', options }));
  const browserTracingIntegration = vi.fn(() => ({ name: 'BrowserTracing' }));
  const addBreadcrumb = vi.fn();
  const module = {
    init,
    addIntegration,
    replayIntegration,
    browserTracingIntegration,
    addBreadcrumb,
  } as unknown as SentryModule;
  return { module, init, addIntegration, replayIntegration, browserTracingIntegration, addBreadcrumb };
}

describe('telemetry (§7, §9)', () => {
  it('without a DSN the SDK is never imported', async () => {
    const load = vi.fn<SentryImporter>();
    await expect(startTelemetry({ ...testConfig, sentryDsn: null }, load)).resolves.toBeNull();
    expect(load).not.toHaveBeenCalled();
  });

  it('with a DSN it imports the SDK and initialises it with the sampling and privacy options', async () => {
    const fake = fakeSentry();
    const load = vi.fn<SentryImporter>(async () => fake.module);
    const cfg = { ...testConfig, sentryDsn: 'https://key@errors.example/1' };
    await startTelemetry(cfg, load);
    expect(load).toHaveBeenCalledOnce();
    const options = fake.init.mock.calls[0]?.[0] as ReturnType<typeof sentryOptions>;
    expect(options).toMatchObject({
      dsn: 'https://key@errors.example/1',
      environment: 'test',
      tracesSampleRate: 1.0,
      tracePropagationTargets: ['http://localhost/api/'],
      sendDefaultPii: false,
      beforeSend: reportEvent,
      beforeBreadcrumb: scrubBreadcrumb,
      beforeSendSpan: scrubSpan,
    });
    expect(options).toMatchObject({ replaysSessionSampleRate: 0.1, replaysOnErrorSampleRate: 1.0 });
    // no login params held: an anonymous visitor, maybe a child, is never filmed
    expect(fake.replayIntegration).not.toHaveBeenCalled();
    expect(fake.addIntegration).not.toHaveBeenCalled();
    expect(fake.browserTracingIntegration).toHaveBeenCalledOnce();
  });

  it("session replay films a teacher's sign-in only, with all text and inputs masked", async () => {
    const fake = fakeSentry();
    await startTelemetry(
      { ...testConfig, sentryDsn: 'https://key@errors.example/1' },
      async () => fake.module,
    );
    expect(recordReplayFor(null)).toBe(false);
    expect(recordReplayFor({ isTeacher: false })).toBe(false);
    expect(fake.addIntegration).not.toHaveBeenCalled();
    expect(recordReplayFor({ isTeacher: true })).toBe(true);
    expect(fake.replayIntegration).toHaveBeenCalledWith(REPLAY_OPTIONS);
    expect(REPLAY_OPTIONS).toMatchObject({
      maskAllText: true,
      maskAllInputs: true,
      blockAllMedia: true,
      beforeAddRecordingEvent: scrubRecordingEvent,
    });
    expect(fake.addIntegration).toHaveBeenCalledOnce();
    expect(recordReplayFor({ isTeacher: true })).toBe(false);
  });

  it("never starts replay from the login params storage holds at start-up: on a shared device they may be the previous person's", async () => {
    localStorage.setItem(
      STORAGE_KEYS.loginParams,
      JSON.stringify({ url: 'https://app.example/', isTeacher: true, sp_id: 'sp' }),
    );
    recordReplayFor(null);
    const fake = fakeSentry();
    await startTelemetry(
      { ...testConfig, sentryDsn: 'https://key@errors.example/1' },
      async () => fake.module,
    );
    expect(fake.addIntegration).not.toHaveBeenCalled();
    localStorage.clear();
  });

  it("starts replay once the SDK has started when the page's own teacher params arrived first", async () => {
    recordReplayFor({ isTeacher: true });
    const fake = fakeSentry();
    await startTelemetry(
      { ...testConfig, sentryDsn: 'https://key@errors.example/1' },
      async () => fake.module,
    );
    expect(fake.addIntegration).toHaveBeenCalledOnce();
  });

  it('the module does not import @sentry/react statically', async () => {
    const source = await import('./telemetry.ts?raw');
    expect(source.default).not.toMatch(/^import\s+(?!type)[^;]*'@sentry\/react'/m);
    expect(source.default).toContain("import('@sentry/react')");
  });
});

describe('telemetry hooks: no secret in an error report', () => {
  const secrets = ['123456', 'ada@school.test', 'ada%40school.test', 'h4shValue9', 'Zq9xYwkLm2', 'Pa55-word'];
  const expectNoSecret = (value: unknown) => {
    const text = JSON.stringify(value);
    for (const secret of secrets) expect(text).not.toContain(secret);
  };

  it("a replay's custom events (breadcrumbs, spans) are scrubbed, and its links blocked: rrweb keeps their addresses unmasked", () => {
    const navigation = {
      type: 5,
      timestamp: 2,
      data: {
        tag: 'breadcrumb',
        payload: {
          category: 'navigation',
          data: { from: '/email', to: '/validate?em=ada%40school.test&vc=123456' },
        },
      },
    };
    const span = {
      type: 5,
      timestamp: 3,
      data: { tag: 'performanceSpan', payload: { op: 'navigation.push', description: '/invite/Zq9xYwkLm2' } },
    };
    const scrubbed = [navigation, span].map(scrubRecordingEvent);
    expectNoSecret(scrubbed);
    expect(scrubbed[1]?.data).toEqual({
      tag: 'performanceSpan',
      payload: { op: 'navigation.push', description: '/invite/:code' },
    });
    expect(REPLAY_OPTIONS.block).toEqual(['a[href]']);
  });

  it("a replay event's pages, request and transaction are scrubbed before it is sent (beforeSend never sees it)", () => {
    const event = {
      type: 'replay_event',
      urls: ['https://portal.test/password-reset?code=123456&email=ada%40school.test', '/invite/Zq9xYwkLm2'],
      request: {
        url: 'https://portal.test/sign-in/h4shValue9?login_hint=ada%40school.test',
        headers: { Cookie: 'Pa55-word' },
      },
      transaction: '/post-login/h4shValue9',
    } as unknown as Parameters<typeof scrubReplayEvent>[0];
    scrubReplayEvent(event);
    expectNoSecret(event);
    expect(event.request).toEqual({ url: 'https://portal.test/sign-in/:uid' });
    // the SDK runs it on every event it has prepared
    const options = sentryOptions(
      { ...testConfig, sentryDsn: 'https://key@errors.example/1' },
      fakeSentry().module,
    );
    const scrubbing = options.integrations.find(
      (integration) => integration.name === 'FrontdoorReplayScrubbing',
    );
    const on = vi.fn();
    (scrubbing as { setup: (client: unknown) => void } | undefined)?.setup({ on });
    expect(on).toHaveBeenCalledWith('postprocessEvent', scrubReplayEvent);
    // any other event is beforeSend's
    const error = { type: undefined, transaction: '/invite/Zq9xYwkLm2' } as Parameters<
      typeof scrubReplayEvent
    >[0];
    scrubReplayEvent(error);
    expect(error.transaction).toBe('/invite/Zq9xYwkLm2');
  });

  it('beforeSend scrubs the page URL, route, messages and frames, drops cookies, headers and the email', () => {
    const event = {
      type: undefined,
      message: 'could not load https://portal.test/api/cognito/get_account_type/ada%40school.test',
      transaction: '/invite/Zq9xYwkLm2',
      request: {
        url: 'https://portal.test/password-reset?code=123456&email=ada%40school.test',
        headers: { Referer: 'https://portal.test/validate?em=ada%40school.test&vc=123456' },
        cookies: { fd_session: 'Pa55-word' },
        query_string: 'code=123456',
      },
      user: { id: 'u1', email: 'ada@school.test', ip_address: '203.0.113.7' },
      exception: {
        values: [
          {
            type: 'Error',
            value: 'GET /api/accessCodes/login/123456/mathworld failed for ada@school.test',
            stacktrace: {
              frames: [{ filename: 'https://portal.test/password-reset?code=123456', lineno: 1 }],
            },
          },
        ],
      },
      breadcrumbs: [
        { category: 'navigation', data: { from: '/email', to: '/validate?em=ada%40school.test&vc=123456' } },
      ],
    } satisfies ErrorEvent;
    const scrubbed = scrubEvent(event);
    expectNoSecret(scrubbed);
    expect(scrubbed.request).toEqual({ url: 'https://portal.test/password-reset' });
    expect(scrubbed.user).toEqual({ id: 'u1' });
    expect(scrubbed.transaction).toBe('/invite/:code');
    expect(scrubbed.exception?.values?.[0]?.value).toBe(
      'GET /api/accessCodes/login/:code/mathworld failed for :email',
    );
    expect(scrubbed.breadcrumbs?.[0]?.data).toEqual({ from: '/email', to: '/validate' });
  });

  it('beforeBreadcrumb scrubs fetch and navigation URLs and console messages, dropping raw arguments', () => {
    const fetch = scrubBreadcrumb({
      category: 'fetch',
      type: 'http',
      data: {
        method: 'GET',
        url: 'https://portal.test/api/auth/cookie?hash=h4shValue9&return_url=x',
        status_code: 302,
      },
    });
    expect(fetch.data).toEqual({
      method: 'GET',
      url: 'https://portal.test/api/auth/cookie',
      status_code: 302,
    });
    const navigation = scrubBreadcrumb({
      category: 'navigation',
      data: { from: '/invite/Zq9xYwkLm2', to: '/post-login/Zq9xYwkLm2' },
    });
    expect(navigation.data).toEqual({ from: '/invite/:code', to: '/post-login/:csrf' });
    const consoleCrumb = scrubBreadcrumb({
      category: 'console',
      message: 'reset for ada@school.test at /password-reset?code=123456',
      data: { arguments: ['reset for', 'ada@school.test'], logger: 'console' },
    });
    expect(consoleCrumb).toEqual({
      category: 'console',
      message: 'reset for :email at /password-reset',
      data: { logger: 'console' },
    });
    expectNoSecret([fetch, navigation, consoleCrumb]);
  });

  it("beforeSendSpan scrubs a span's name and URL attributes and drops its query", () => {
    const span = scrubSpan({
      trace_id: 't',
      span_id: 's',
      name: 'GET https://portal.test/api/accessCodes/login/123456/mathworld',
      start_timestamp: 0,
      status: 'ok',
      is_segment: false,
      attributes: {
        'http.method': 'GET',
        'url.full': 'https://portal.test/api/cognito/resend_verification/ada%40school.test',
        'http.query': '?code=123456',
        'http.fragment': '#Pa55-word',
        'http.response.status_code': 200,
      },
    });
    expect(span.name).toBe('GET https://portal.test/api/accessCodes/login/:code/mathworld');
    expect(span.attributes).toEqual({
      'http.method': 'GET',
      'url.full': 'https://portal.test/api/cognito/resend_verification/:email',
      'http.response.status_code': 200,
    });
    expectNoSecret(span);
  });
});

describe('request ids of failed calls: from a reported error to the server log line', () => {
  const withRequestId = (response: Response, id: string) => {
    response.headers.set(REQUEST_ID_HEADER, id);
    return response;
  };

  it("a failed call leaves a breadcrumb with the answer's x-request-id and its path scrubbed", async () => {
    const fake = fakeSentry();
    await startTelemetry(
      { ...testConfig, sentryDsn: 'https://key@errors.example/1' },
      async () => fake.module,
    );
    const path = apiPaths.accessCodeLogin('123456', 'mathworld');
    server.use(http.get(api(path), () => withRequestId(fail(404, 'accessCodeNotFound'), 'req-7f3a')));
    const error = await apiRequest(testConfig, 'GET', path, z.unknown()).catch((e: unknown) => e);
    expect(error).toMatchObject({ httpStatus: 404, code: 'accessCodeNotFound', requestId: 'req-7f3a' });
    expect(fake.addBreadcrumb).toHaveBeenCalledExactlyOnceWith({
      category: 'api',
      type: 'http',
      level: 'warning',
      message: 'GET accessCodes/login/:code/mathworld → 404 accessCodeNotFound',
      data: {
        method: 'GET',
        url: 'accessCodes/login/:code/mathworld',
        status_code: 404,
        code: 'accessCodeNotFound',
        request_id: 'req-7f3a',
      },
    });
    expect(JSON.stringify(fake.addBreadcrumb.mock.calls)).not.toContain('123456');

    // a server failure is an error-level crumb; a success leaves none
    server.use(
      http.get(api(apiPaths.sig), () =>
        withRequestId(HttpResponse.text('Bad gateway', { status: 502 }), 'req-5xx'),
      ),
    );
    await apiRequest(testConfig, 'GET', apiPaths.sig, z.unknown()).catch(() => undefined);
    expect(fake.addBreadcrumb).toHaveBeenLastCalledWith(
      expect.objectContaining({ level: 'error', data: expect.objectContaining({ request_id: 'req-5xx' }) }),
    );
    server.use(http.get(api(apiPaths.sig), () => HttpResponse.json({ loggedin: false, payload: null })));
    await apiRequest(testConfig, 'GET', apiPaths.sig, z.unknown());
    expect(fake.addBreadcrumb).toHaveBeenCalledTimes(2);
    onFailedCall(null);
  });

  it('the report of a failed call is tagged with its request id, and scrubbed as any other', () => {
    const error = new ApiError(500, 'internalError', messages.internalError, 'req-42');
    const event = reportEvent(
      { type: undefined, message: 'failed for ada@school.test', tags: { page: 'login' } },
      { originalException: error },
    );
    expect(event.tags).toEqual({ page: 'login', request_id: 'req-42' });
    expect(event.message).toBe('failed for :email');
    const other = reportEvent({ type: undefined, message: 'x' }, { originalException: new Error('x') });
    expect(other.tags).toBeUndefined();
  });

  it('recordFailedCall leaves out what the call did not have', () => {
    const addBreadcrumb = vi.fn();
    recordFailedCall(
      { addBreadcrumb },
      { method: 'POST', path: apiPaths.signup, httpStatus: 400, code: undefined, requestId: undefined },
    );
    expect(addBreadcrumb.mock.calls[0]?.[0]).toMatchObject({
      message: 'POST cognito/signup → 400',
      data: { method: 'POST', url: 'cognito/signup', status_code: 400 },
    });
    expect(addBreadcrumb.mock.calls[0]?.[0].data).not.toHaveProperty('request_id');
  });
});

import { TELEMETRY_SAMPLING } from '@frontdoor/contract';
import { scrubText, scrubUrl } from '@frontdoor/contract/scrub';
import type { PortalConfig } from '@frontdoor/contract';
import type * as SentryNamespace from '@sentry/react';
import type { Breadcrumb, BrowserClient, BrowserOptions, ErrorEvent, Event, EventHint } from '@sentry/react';
import { ApiError, type FailedCall } from './http.ts';

/**
 * What error reporting sends, scrubbed (docs/SECURITY.md). Loaded with the SDK (lib/telemetry.ts),
 * never by the first script: a deployment without a DSN never downloads it.
 */

type SentryModule = typeof SentryNamespace;

type StreamedSpan = Parameters<NonNullable<BrowserOptions['beforeSendSpan']>>[0];

/** Breadcrumb data holding a whole URL (fetch and xhr: url; navigation: from, to). */
const URL_DATA = new Set(['url', 'from', 'to']);

/**
 * beforeBreadcrumb: URLs scrubbed (scrubUrl: codes, emails, tokens and the query string out), every
 * other text scrubbed likewise; a console breadcrumb's raw arguments dropped (its message says them).
 */
export function scrubBreadcrumb(breadcrumb: Breadcrumb): Breadcrumb {
  const { message, data } = breadcrumb;
  const { arguments: _raw, ...rest } = data ?? {};
  return {
    ...breadcrumb,
    ...(message === undefined ? {} : { message: scrubText(message) }),
    ...(data === undefined
      ? {}
      : {
          data: Object.fromEntries(
            Object.entries(rest).map(([key, value]) => [
              key,
              typeof value !== 'string' ? value : URL_DATA.has(key) ? scrubUrl(value) : scrubText(value),
            ]),
          ),
        }),
  };
}

/**
 * beforeSend: an error report keeps the page URL scrubbed and no other request data (cookies,
 * headers such as Referer, query string), the user's id and nothing else of them (no email), and its
 * route, messages, exception values, stack frame URLs and breadcrumbs scrubbed (breadcrumbs again:
 * those added to a scope directly never passed beforeBreadcrumb).
 */
export function scrubEvent(event: ErrorEvent): ErrorEvent {
  return {
    ...event,
    ...(event.request && { request: event.request.url ? { url: scrubUrl(event.request.url) } : {} }),
    ...(event.user && { user: event.user.id === undefined ? {} : { id: event.user.id } }),
    ...(event.transaction && { transaction: scrubUrl(event.transaction) }),
    ...(event.message && { message: scrubText(event.message) }),
    // a log entry's params are raw values: only its message, scrubbed, is kept
    ...(event.logentry?.message && { logentry: { message: scrubText(event.logentry.message) } }),
    ...(event.breadcrumbs && { breadcrumbs: event.breadcrumbs.map(scrubBreadcrumb) }),
    ...(event.exception && {
      exception: {
        values: event.exception.values?.map((exception) => ({
          ...exception,
          ...(exception.value && { value: scrubText(exception.value) }),
          ...(exception.stacktrace && {
            stacktrace: {
              ...exception.stacktrace,
              frames: exception.stacktrace.frames?.map((frame) => ({
                ...frame,
                // an inline script's frame is named by the page's URL
                ...(frame.filename && { filename: scrubUrl(frame.filename) }),
                ...(frame.abs_path && { abs_path: scrubUrl(frame.abs_path) }),
              })),
            },
          }),
        })),
      },
    }),
  };
}

/**
 * beforeSend: the report scrubbed (scrubEvent) and, when it is of a failed API call, tagged
 * request_id with the server's x-request-id, which the server's log lines of that request carry.
 */
export function reportEvent(event: ErrorEvent, hint: EventHint): ErrorEvent {
  const scrubbed = scrubEvent(event);
  const error = hint.originalException;
  if (!(error instanceof ApiError && error.requestId)) return scrubbed;
  return { ...scrubbed, tags: { ...scrubbed.tags, request_id: error.requestId } };
}

/**
 * A failed API call as a breadcrumb with its request id and scrubbed path: an error reported later in
 * the session lists the calls that failed before it, each leading to its server log lines.
 */
export function recordFailedCall(sentry: Pick<SentryModule, 'addBreadcrumb'>, call: FailedCall): void {
  const url = scrubUrl(call.path);
  sentry.addBreadcrumb({
    category: 'api',
    type: 'http',
    level: call.httpStatus >= 500 ? 'error' : 'warning',
    message: `${call.method} ${url} → ${call.httpStatus}${call.code ? ` ${call.code}` : ''}`,
    data: {
      method: call.method,
      url,
      status_code: call.httpStatus,
      ...(call.code && { code: call.code }),
      ...(call.requestId && { request_id: call.requestId }),
    },
  });
}

/** A span attribute, plain or as {value, type}, with the URLs and addresses in its text scrubbed. */
const scrubAttribute = (value: unknown): unknown => {
  if (typeof value === 'string') return scrubText(value);
  if (value && typeof value === 'object' && 'value' in value && typeof value.value === 'string')
    return { ...value, value: scrubText(value.value) };
  return value;
};

/**
 * beforeSendSpan: a span's name ("GET <url>", a page's path) and its attributes (url.full, http.url …)
 * scrubbed; the query and fragment attributes dropped.
 */
export function scrubSpan(span: StreamedSpan): StreamedSpan {
  const attributes = Object.entries(span.attributes)
    .filter(([key]) => !/query|fragment/.test(key))
    .map(([key, value]) => [key, scrubAttribute(value)]);
  return {
    ...span,
    name: scrubText(span.name),
    attributes: Object.fromEntries(attributes) as StreamedSpan['attributes'],
  };
}

/** Every string in a value scrubbed as free text (its URLs and paths by scrubUrl, its emails masked). */
const scrubStrings = (value: unknown): unknown => {
  if (typeof value === 'string') return scrubText(value);
  if (Array.isArray(value)) return value.map(scrubStrings);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubStrings(item)]));
};

/**
 * beforeAddRecordingEvent, which the SDK calls for custom events only (breadcrumbs, performance spans:
 * navigations, fetches): every text in them scrubbed.
 */
export function scrubRecordingEvent<E extends { data: unknown }>(event: E): E {
  return { ...event, data: scrubStrings(event.data) };
}

/**
 * Session replay's options: every text and input masked, media blocked, its custom events scrubbed,
 * and every link blocked (recorded as a box of its size): rrweb records a link's address absolute and
 * never passes it to the SDK's attribute masking, and a link may hold a login csrf or an email.
 */
export const REPLAY_OPTIONS = {
  maskAllText: true,
  maskAllInputs: true,
  blockAllMedia: true,
  block: ['a[href]'],
  beforeAddRecordingEvent: scrubRecordingEvent,
};

/**
 * A replay event's page addresses (the pages it saw, its request, its transaction) scrubbed in place,
 * as an error report's: beforeSend never sees replay events.
 */
export function scrubReplayEvent(event: Event): void {
  if (event.type !== 'replay_event') return;
  const replay = event as Event & { urls?: unknown };
  if (Array.isArray(replay.urls))
    replay.urls = replay.urls.map((url) => (typeof url === 'string' ? scrubUrl(url) : url));
  if (event.request) event.request = event.request.url ? { url: scrubUrl(event.request.url) } : {};
  if (event.transaction) event.transaction = scrubUrl(event.transaction);
}

/** Runs scrubReplayEvent on each replay event just before it is sent. */
const replayScrubbing = {
  name: 'FrontdoorReplayScrubbing',
  setup(client: BrowserClient) {
    client.on('postprocessEvent', scrubReplayEvent);
  },
};

/**
 * §7/§9 error reporting: traces 100 %, trace headers only to apiUrl, and nothing secret in a report
 * (docs/SECURITY.md): every URL, message and breadcrumb passes the scrub hooks above. The replay
 * rates are set here, but the SDK records no replay until recordReplayFor adds its integration.
 */
export function sentryOptions(cfg: Pick<PortalConfig, 'sentryDsn' | 'env' | 'apiUrl'>, sentry: SentryModule) {
  return {
    dsn: cfg.sentryDsn ?? undefined,
    environment: cfg.env,
    sendDefaultPii: false,
    ...TELEMETRY_SAMPLING,
    // trace headers only to the API, named by its absolute URL (a relative apiUrl would match any /api/)
    tracePropagationTargets: [new URL(cfg.apiUrl, window.location.origin).href],
    integrations: [sentry.browserTracingIntegration(), replayScrubbing],
    beforeSend: reportEvent,
    beforeBreadcrumb: scrubBreadcrumb,
    beforeSendSpan: scrubSpan,
  };
}

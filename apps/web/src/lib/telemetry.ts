import type { LoginParams, PortalConfig } from '@frontdoor/contract';
import type * as SentryNamespace from '@sentry/react';
import { onFailedCall } from './http.ts';

type SentryModule = typeof SentryNamespace;
type ReplayOptions = Parameters<SentryModule['replayIntegration']>[0];
export type SentryImporter = () => Promise<SentryModule>;

/** The SDK is only fetched through this (a separate chunk), never imported statically. */
const importSentry: SentryImporter = () => import('@sentry/react');
/** The scrubbing and options travel with the SDK, in their own chunk. */
const importErrorReports = () => import('./error-reports.ts');

/** The started SDK and its replay options, for recordReplayFor; null until startTelemetry has run with a DSN. */
let started: { sentry: SentryModule; replayOptions: ReplayOptions } | null = null;
let replaying = false;
/** The params of the page's own sign-in request, kept when they arrive before the SDK has started. */
let pageParams: Pick<LoginParams, 'isTeacher'> | null = null;

/**
 * Session replay (§7: 10 % of sessions, 100 % on error) films only a teacher's sign-in (login params
 * isTeacher), with every text and input masked: never a student's, who are children, nor an anonymous
 * visitor's, who may be one. Called whenever the params of the page's own sign-in request arrive; never
 * from what storage holds at start-up, which may be the previous person's on a shared device.
 */
export function recordReplayFor(loginParams: Pick<LoginParams, 'isTeacher'> | null): boolean {
  pageParams = loginParams;
  if (!started || replaying || !loginParams?.isTeacher) return false;
  started.sentry.addIntegration(started.sentry.replayIntegration(started.replayOptions));
  replaying = true;
  return true;
}

/** Starts error reporting when cfg.sentryDsn is set; without one the SDK is never downloaded. */
export async function startTelemetry(
  cfg: Pick<PortalConfig, 'sentryDsn' | 'env' | 'apiUrl'>,
  load: SentryImporter = importSentry,
): Promise<SentryModule | null> {
  if (!cfg.sentryDsn) return null;
  const [sentry, { sentryOptions, recordFailedCall, REPLAY_OPTIONS }] = await Promise.all([
    load(),
    importErrorReports(),
  ]);
  sentry.init(sentryOptions(cfg, sentry));
  onFailedCall((call) => recordFailedCall(sentry, call));
  started = { sentry, replayOptions: REPLAY_OPTIONS };
  replaying = false;
  recordReplayFor(pageParams);
  return sentry;
}

/** Runs fn once the first frame has been painted, so telemetry never delays the first render. */
export function afterFirstPaint(fn: () => void): void {
  requestAnimationFrame(() => setTimeout(fn, 0));
}

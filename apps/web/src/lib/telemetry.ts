import { TELEMETRY_SAMPLING } from '@frontdoor/contract';
import type { PortalConfig } from '@frontdoor/contract';

import type * as SentryNamespace from '@sentry/react';

type SentryModule = typeof SentryNamespace;
export type SentryImporter = () => Promise<SentryModule>;

/** The SDK is only fetched through this (a separate chunk), never imported statically. */
const importSentry: SentryImporter = () => import('@sentry/react');

/**
 * §7/§9 error reporting: traces 100 %, session replay 10 %, replay on error 100 %. Replays mask all
 * text and inputs and block media (many users are minors); trace headers go only to apiUrl.
 */
export function sentryOptions(cfg: Pick<PortalConfig, 'sentryDsn' | 'env' | 'apiUrl'>, sentry: SentryModule) {
  return {
    dsn: cfg.sentryDsn ?? undefined,
    environment: cfg.env,
    sendDefaultPii: false,
    ...TELEMETRY_SAMPLING,
    tracePropagationTargets: [cfg.apiUrl],
    integrations: [
      sentry.browserTracingIntegration(),
      sentry.replayIntegration({ maskAllText: true, maskAllInputs: true, blockAllMedia: true }),
    ],
  };
}

/** Starts error reporting when cfg.sentryDsn is set; without one the SDK is never downloaded. */
export async function startTelemetry(
  cfg: Pick<PortalConfig, 'sentryDsn' | 'env' | 'apiUrl'>,
  load: SentryImporter = importSentry,
): Promise<SentryModule | null> {
  if (!cfg.sentryDsn) return null;
  const sentry = await load();
  sentry.init(sentryOptions(cfg, sentry));
  return sentry;
}

/** Runs fn once the first frame has been painted, so telemetry never delays the first render. */
export function afterFirstPaint(fn: () => void): void {
  requestAnimationFrame(() => setTimeout(fn, 0));
}

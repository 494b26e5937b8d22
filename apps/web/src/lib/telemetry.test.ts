import { describe, expect, it, vi } from 'vitest';
import type * as SentryNamespace from '@sentry/react';
import { testConfig } from '../test/config.ts';
import { startTelemetry } from './telemetry.ts';
import type { sentryOptions } from './telemetry.ts';
import type { SentryImporter } from './telemetry.ts';

type SentryModule = typeof SentryNamespace;

function fakeSentry() {
  const init = vi.fn();
  const replayIntegration = vi.fn((options: unknown) => ({ name: 'Replay', options }));
  const browserTracingIntegration = vi.fn(() => ({ name: 'BrowserTracing' }));
  const module = { init, replayIntegration, browserTracingIntegration } as unknown as SentryModule;
  return { module, init, replayIntegration, browserTracingIntegration };
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
      replaysSessionSampleRate: 0.1,
      replaysOnErrorSampleRate: 1.0,
      tracePropagationTargets: ['http://localhost/api/'],
      sendDefaultPii: false,
    });
    expect(fake.replayIntegration).toHaveBeenCalledWith({
      maskAllText: true,
      maskAllInputs: true,
      blockAllMedia: true,
    });
    expect(fake.browserTracingIntegration).toHaveBeenCalledOnce();
  });

  it('the module does not import @sentry/react statically', async () => {
    const source = await import('./telemetry.ts?raw');
    expect(source.default).not.toMatch(/^import\s+(?!type)[^;]*'@sentry\/react'/m);
    expect(source.default).toContain("import('@sentry/react')");
  });
});

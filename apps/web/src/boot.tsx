import type { Root } from 'react-dom/client';
import { App } from './App.tsx';
import { ConfigError, loadConfig } from './lib/config.tsx';
import { initTranslation } from './lib/i18n/index.ts';
import { createQueryClient } from './lib/query.ts';
import { afterFirstPaint, startTelemetry } from './lib/telemetry.ts';
import type { SentryImporter } from './lib/telemetry.ts';
import { createAppRouter } from './shell/router.tsx';
import { ConfigErrorPage } from './shell/ConfigErrorPage.tsx';

/**
 * Start-up order: config.json → translation → render (providers + router) → error reporting after the
 * first paint. Nothing renders before the config is known; a bad config renders a full-page message.
 */
export async function boot(
  root: Root,
  options: { loadSentry?: SentryImporter } = {},
): Promise<'started' | 'config-error'> {
  let cfg;
  try {
    cfg = await loadConfig();
  } catch (error) {
    console.error(error);
    root.render(<ConfigErrorPage error={error instanceof ConfigError ? error : null} />);
    return 'config-error';
  }
  const { i18n, service } = await initTranslation(cfg);
  root.render(
    <App
      cfg={cfg}
      i18n={i18n}
      translation={service}
      queryClient={createQueryClient()}
      router={createAppRouter()}
    />,
  );
  afterFirstPaint(() => {
    startTelemetry(cfg, options.loadSentry).catch((error: unknown) =>
      console.warn('Error reporting could not start', error),
    );
  });
  return 'started';
}

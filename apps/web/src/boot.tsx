import { startTransition, type ReactNode } from 'react';
import { SESSION_CACHE_MS } from '@frontdoor/contract';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { Root } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './App.tsx';
import { loadAnewFromBackForwardCache } from './lib/back-forward-cache.ts';
import { ConfigError, loadConfig } from './lib/config.tsx';
import { initTranslation, initialLanguage, isBundled } from './lib/i18n/index.ts';
import { createQueryClient } from './lib/query.ts';
import { sessionQueryKey } from './lib/session.ts';
import { afterFirstPaint, startTelemetry } from './lib/telemetry.ts';
import type { SentryImporter } from './lib/telemetry.ts';

/**
 * Ends the current task, so that the browser may paint and answer input before start-up goes on:
 * start-up runs as a chain of tasks (the script's evaluation, the config, the translation, hydration),
 * none of which holds a tap for long on a slow device.
 */
const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * hydrateRoot in a transition: React then hydrates in slices that yield to the browser every few
 * milliseconds, instead of in one task that a slow device spends hundreds of milliseconds on.
 */
function hydrateInSlices(container: HTMLElement, app: ReactNode): Root {
  let root: Root | undefined;
  startTransition(() => {
    root = hydrateRoot(container, app);
  });
  if (!root) throw new Error('hydrateRoot did not run');
  return root;
}

/**
 * Start-up order: config (inlined by the server, else config.json) → translation → render (providers
 * + router) → error reporting after the first paint. A page the server prerendered (the container
 * has its markup) is hydrated in the language it was answered in, then switched to the language
 * chosen in this browser if that differs; any other is rendered. A bad config renders a full-page
 * message.
 */
export async function boot(
  container: HTMLElement,
  options: { loadSentry?: SentryImporter } = {},
): Promise<{ outcome: 'started' | 'config-error'; root: Root }> {
  let cfg;
  try {
    await nextTask();
    cfg = await loadConfig();
  } catch (error) {
    console.error(error);
    container.replaceChildren();
    // only a broken deployment needs this page: it is not part of the first script
    const { ConfigErrorPage } = await import('./shell/ConfigErrorPage.tsx');
    const root = createRoot(container);
    root.render(<ConfigErrorPage error={error instanceof ConfigError ? error : null} />);
    return { outcome: 'config-error', root };
  }
  await nextTask();
  const pageLanguage = document.documentElement.lang;
  const prerendered = container.hasChildNodes() && isBundled(pageLanguage);
  const { i18n, service } = await initTranslation(
    cfg,
    window.location.search,
    prerendered ? pageLanguage : undefined,
  );
  const queryClient = createQueryClient();
  const askWhoIsSignedIn = (staleTime?: number) =>
    queryClient.invalidateQueries({ queryKey: sessionQueryKey, staleTime });
  // Back, on a shared device after a sign-out elsewhere: a page from the back/forward cache names no
  // one from memory (back-forward-cache.ts)
  loadAnewFromBackForwardCache(() => void askWhoIsSignedIn());
  // a tab come back to once its answer is past the 30-minute cache (a Chromebook's lid closed over
  // lunch) asks again too, instead of naming whoever was signed in before the break
  document.addEventListener(
    'visibilitychange',
    () => document.visibilityState === 'visible' && askWhoIsSignedIn(SESSION_CACHE_MS),
  );
  const app = (
    <App cfg={cfg} i18n={i18n} translation={service} queryClient={queryClient} Router={BrowserRouter} />
  );
  let root: Root;
  if (prerendered) {
    root = hydrateInSlices(container, app);
    const chosen = initialLanguage(window.location.search);
    if (service.kind === 'built-in' && chosen !== service.current()) void service.change(chosen);
  } else {
    root = createRoot(container);
    root.render(app);
  }
  afterFirstPaint(() => {
    startTelemetry(cfg, options.loadSentry).catch((error: unknown) =>
      console.warn('Error reporting could not start', error),
    );
  });
  return { outcome: 'started', root };
}

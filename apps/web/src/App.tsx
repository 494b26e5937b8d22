import { StrictMode } from 'react';
import type { ComponentType, ReactNode } from 'react';
import { QueryClientProvider } from './lib/query.ts';
import type { QueryClient } from './lib/query.ts';
import { TranslatorProvider } from './lib/i18n/use-translation.tsx';
import type { Translator } from './lib/i18n/translator.ts';
import type { PortalConfig } from '@frontdoor/contract';
import { ConfigProvider } from './lib/config.tsx';
import { TranslationServiceProvider } from './lib/i18n/context.tsx';
import { ReadingDirection } from './lib/i18n/direction.tsx';
import type { TranslationService } from './lib/i18n/service.ts';
import { SnackBarProvider } from './ui/SnackBar.tsx';
import { ErrorBoundary } from './shell/ErrorBoundary.tsx';
import { AppRoutes } from './shell/router.tsx';

export interface AppServices {
  cfg: PortalConfig;
  i18n: Translator;
  translation: TranslationService;
  queryClient: QueryClient;
}

/** Every provider the pages rely on, in one place (the app and the test harness both use it). */
export function AppProviders({
  cfg,
  i18n,
  translation,
  queryClient,
  children,
}: AppServices & { children: ReactNode }) {
  return (
    <TranslatorProvider value={i18n}>
      <ConfigProvider value={cfg}>
        <ErrorBoundary>
          <TranslationServiceProvider value={translation}>
            <ReadingDirection>
              <QueryClientProvider client={queryClient}>
                <SnackBarProvider>{children}</SnackBarProvider>
              </QueryClientProvider>
            </ReadingDirection>
          </TranslationServiceProvider>
        </ErrorBoundary>
      </ConfigProvider>
    </TranslatorProvider>
  );
}

/** The app under a router: the browser's history (BrowserRouter), or a fixed path when prerendering. */
export function App({
  Router,
  ...services
}: AppServices & { Router: ComponentType<{ children: ReactNode }> }) {
  return (
    <StrictMode>
      <AppProviders {...services}>
        <Router>
          <AppRoutes />
        </Router>
      </AppProviders>
    </StrictMode>
  );
}

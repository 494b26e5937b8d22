import { Component, StrictMode } from 'react';
import type { ErrorInfo, ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { RouterProvider } from 'react-router';
import type { PortalConfig } from '@frontdoor/contract';
import { ConfigProvider } from './lib/config.tsx';
import { PressHeldAgain } from './lib/held-presses.ts';
import { TranslationServiceProvider } from './lib/i18n/context.tsx';
import { ReadingDirection } from './lib/i18n/direction.tsx';
import type { TranslationService } from './lib/i18n/service.ts';
import { SnackBarProvider } from './ui/SnackBar.tsx';
import { ErrorScreen } from './shell/ErrorScreen.tsx';
import type { createAppRouter } from './shell/router.tsx';

/** Catches what escapes the router (a provider failing) and shows the friendly page, never a blank one. */
export class AppErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? <ErrorScreen /> : this.props.children;
  }
}

export interface AppServices {
  cfg: PortalConfig;
  i18n: I18n;
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
    <I18nextProvider i18n={i18n}>
      <ConfigProvider value={cfg}>
        <AppErrorBoundary>
          <TranslationServiceProvider value={translation}>
            <ReadingDirection>
              <QueryClientProvider client={queryClient}>
                <SnackBarProvider>{children}</SnackBarProvider>
              </QueryClientProvider>
            </ReadingDirection>
          </TranslationServiceProvider>
        </AppErrorBoundary>
      </ConfigProvider>
    </I18nextProvider>
  );
}

export function App({ router, ...services }: AppServices & { router: ReturnType<typeof createAppRouter> }) {
  return (
    <StrictMode>
      <AppProviders {...services}>
        <RouterProvider router={router} />
        <PressHeldAgain />
      </AppProviders>
    </StrictMode>
  );
}

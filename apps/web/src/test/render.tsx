import { render } from '@testing-library/react';
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { MemoryRouter, Outlet, useLocation, useNavigate, useRoutes } from 'react-router';
import type { NavigateFunction, RouteObject } from 'react-router';
import type { PortalConfig } from '@frontdoor/contract';
import { AppProviders } from '../App.tsx';
import type { createI18n } from '../lib/i18n/index.ts';
import { testI18n } from './i18n.ts';
import { builtInTranslationService } from '../lib/i18n/service.ts';
import type { TranslationService } from '../lib/i18n/service.ts';
import { createQueryClient } from '../lib/query.ts';
import { featureRoutes } from '../features/routes.tsx';
import { appRoutes } from '../shell/router.tsx';
import { testConfig } from './config.ts';

export { api, fail, http, HttpResponse, ok, server, signedInSession } from './server.ts';

export interface RenderOptions {
  /** The starting URL (path, query, hash). Default '/'. */
  path?: string;
  /** Overrides of the test config (e.g. { env: 'production' }). */
  config?: Partial<PortalConfig>;
  language?: string;
  /** A translation service to use instead of the built-in one (e.g. over a fake hosted widget). */
  translation?: (i18n: ReturnType<typeof createI18n>) => TranslationService;
}

/** Shows the router's current path + query + hash: tests assert navigations with getByTestId('location'). */
function LocationProbe() {
  const location = useLocation();
  return (
    <span hidden data-testid="location">
      {location.pathname + location.search + location.hash}
    </span>
  );
}

/** The route table with the location probe; hands the router's navigate to the test. */
function ProbedRoutes({
  routes,
  navigateTo,
}: {
  routes: RouteObject[];
  navigateTo: { current: NavigateFunction | null };
}) {
  const navigate = useNavigate();
  useEffect(() => {
    navigateTo.current = navigate;
  });
  return useRoutes([
    {
      element: (
        <>
          <Outlet />
          <LocationProbe />
        </>
      ),
      children: routes,
    },
  ]);
}

/** Renders any route table inside the app providers and a memory router at options.path. */
export function renderRoutes(routes: RouteObject[], options: RenderOptions = {}) {
  const cfg: PortalConfig = { ...testConfig, ...options.config };
  const i18n = testI18n(options.language ?? 'en');
  const translation = options.translation?.(i18n) ?? builtInTranslationService(i18n);
  const queryClient = createQueryClient();
  const navigateTo: { current: NavigateFunction | null } = { current: null };
  // the providers wrap what rerender() is given too
  const Providers = ({ children }: { children: ReactNode }) => (
    <AppProviders cfg={cfg} i18n={i18n} translation={translation} queryClient={queryClient}>
      {children}
    </AppProviders>
  );
  const utils = render(
    <MemoryRouter initialEntries={[options.path ?? '/']}>
      <ProbedRoutes routes={routes} navigateTo={navigateTo} />
    </MemoryRouter>,
    { wrapper: Providers },
  );
  /** Navigates as the app would (a path, or -1 for back); wrap in act() where React must settle. */
  const router = {
    navigate: async (to: string | number) => {
      if (!navigateTo.current) throw new Error('the router has not rendered');
      await (typeof to === 'number' ? navigateTo.current(to) : navigateTo.current(to));
    },
  };
  return { ...utils, router, i18n, translation, queryClient, cfg };
}

/**
 * Renders `ui` with every app provider (config, i18n, translation service, query client, snack bar)
 * inside a memory router at options.path (any path matches).
 */
export function renderWithProviders(ui: ReactNode, options: RenderOptions = {}) {
  return renderRoutes([{ path: '*', element: ui }], options);
}

/** Renders the real route table at `path`; with `shell: false` the pages render without the shell. */
export function renderRoute(path: string, options: Omit<RenderOptions, 'path'> & { shell?: boolean } = {}) {
  return renderRoutes(options.shell === false ? featureRoutes : appRoutes, { ...options, path });
}

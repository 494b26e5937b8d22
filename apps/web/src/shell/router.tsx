import { Outlet, useRoutes } from 'react-router';
import type { RouteObject } from 'react-router';
import { featureRoutes } from '../features/routes.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { ShellLayout } from './ShellLayout.tsx';

/** Every route of §2 inside the shell; an unknown path renders the login page (featureRoutes '*'). */
export const appRoutes: RouteObject[] = [
  // the boundary sits below the layout so the top bar stays when a page fails; the layout keys each
  // page, so the next page starts with a fresh boundary
  {
    element: <ShellLayout />,
    children: [
      {
        element: (
          <ErrorBoundary>
            <Outlet />
          </ErrorBoundary>
        ),
        children: featureRoutes,
      },
    ],
  },
];

/**
 * The route table under the router the app is given (the browser's history, or a fixed location
 * when prerendering). Declarative routing: no page loads data before it renders, and the data
 * router's loaders and actions would cost the first script about 15 kB compressed (bench/README.md).
 */
export function AppRoutes() {
  return useRoutes(appRoutes);
}

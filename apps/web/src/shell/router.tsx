import { useEffect } from 'react';
import { createBrowserRouter, useRouteError } from 'react-router';
import type { RouteObject } from 'react-router';
import { featureRoutes } from '../features/routes.tsx';
import { ErrorScreen } from './ErrorScreen.tsx';
import { ShellLayout } from './ShellLayout.tsx';

function RouteError() {
  const error = useRouteError();
  useEffect(() => console.error(error), [error]);
  return <ErrorScreen />;
}

/** Every route of §2 inside the shell; an unknown path renders the login page (featureRoutes '*'). */
export const appRoutes: RouteObject[] = [
  // the error element sits below the layout so the top bar stays when a page fails
  { element: <ShellLayout />, children: [{ errorElement: <RouteError />, children: featureRoutes }] },
];

export const createAppRouter = () => createBrowserRouter(appRoutes);

import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { getRememberedEmail } from '../lib/storage.ts';

/** The email the user entered on /email (sessionStorage), or null. */
export function useRememberedEmail(): string | null {
  return getRememberedEmail();
}

/** §2: screens that need a remembered email go to /email when none is held. */
export function RequireEmail({ children }: { children: ReactNode }) {
  const email = useRememberedEmail();
  if (!email) return <Navigate to="/email" replace />;
  return children;
}

import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

const TIDIED = 'fdAddressTidied';

/**
 * Whether a location is a page's own tidying of its address (useParamReadOnce) rather than a
 * navigation: the shell keeps the page as it is (no remount, no arrival, no scroll to the top).
 */
export function isAddressTidied(state: unknown): boolean {
  return typeof state === 'object' && state !== null && TIDIED in state;
}

/**
 * A query parameter the page reads once, then takes out of the address and of its history entry,
 * keeping the other parameters, the #anchor and the entry's state (the app's states are objects): an
 * email address in the URL would otherwise stay in the browser history of a shared computer.
 */
export function useParamReadOnce(name: string): string | null {
  const location = useLocation();
  const navigate = useNavigate();
  const [value] = useState(() => new URLSearchParams(location.search).get(name));
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (!params.has(name)) return;
    params.delete(name);
    const state: unknown = location.state;
    void navigate(
      { pathname: location.pathname, search: params.toString(), hash: location.hash },
      { replace: true, state: { ...(typeof state === 'object' ? state : null), [TIDIED]: true } },
    );
  }, [name, location, navigate]);
  return value;
}

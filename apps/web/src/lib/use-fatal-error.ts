import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { fatalErrorPath } from './http.ts';
import { getLoginCsrf } from './storage.ts';

/**
 * For calls a page cannot do without: sends timeouts to /error-timeout and network failures or 5xx to
 * /error-generic (see fatalErrorPath). Returns true when it navigated; false means the page shows the
 * error itself.
 */
export function useFatalError(): (error: unknown) => boolean {
  const navigate = useNavigate();
  return useCallback(
    (error: unknown) => {
      const path = fatalErrorPath(error, getLoginCsrf());
      if (path) navigate(path);
      return path !== null;
    },
    [navigate],
  );
}

import { useCallback } from 'react';
import { useNavigate, useParams } from 'react-router';
import { fatalErrorPath } from './http.ts';
import { getLoginCsrf } from './storage.ts';

/**
 * For calls a page cannot do without: sends timeouts to /error-timeout and network failures or 5xx to
 * /error-generic (see fatalErrorPath). Returns true when it navigated; false means the page shows the
 * error itself. The error page keeps the login csrf of the route (log-in/{csrf}, access-code/{csrf}, …),
 * else the one held in storage: storage holds a csrf only once its first call has succeeded, so a
 * failure of that very call would otherwise lose the way back to the product.
 */
export function useFatalError(): (error: unknown) => boolean {
  const navigate = useNavigate();
  const { csrf: routeCsrf } = useParams();
  return useCallback(
    (error: unknown) => {
      const path = fatalErrorPath(error, routeCsrf ?? getLoginCsrf());
      if (path) navigate(path);
      return path !== null;
    },
    [navigate, routeCsrf],
  );
}

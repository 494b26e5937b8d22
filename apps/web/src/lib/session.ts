import { useQuery } from './query.ts';
import {
  SESSION_CACHE_MS,
  SESSION_FETCH_RETRIES,
  apiPaths,
  hasAnyRole,
  RULE_TEXTS,
  hasRole,
  sessionSchema,
} from '@frontdoor/contract';
import type { RoleRequirement, Session } from '@frontdoor/contract';
import { apiRequest } from './http.ts';
import type { HttpConfig } from './http.ts';
import { useConfig } from './config.tsx';

/** §3/§7: GET auth/sig, retried once, cached 30 minutes. */
export const sessionQueryKey = ['session'] as const;

export const sessionQueryOptions = (cfg: HttpConfig) => ({
  queryKey: sessionQueryKey,
  queryFn: ({ signal }: { signal: AbortSignal }): Promise<Session> =>
    apiRequest(cfg, 'GET', apiPaths.sig, sessionSchema, undefined, undefined, { signal }),
  retry: SESSION_FETCH_RETRIES,
  staleTime: SESSION_CACHE_MS,
  gcTime: SESSION_CACHE_MS,
});

export function useSession() {
  return useQuery(sessionQueryOptions(useConfig()));
}

export interface RoleChecks {
  hasRole(role: string, level?: number): boolean;
  hasAnyRole(requirements: readonly RoleRequirement[]): boolean;
}

/**
 * §6 role checks bound to a session. Before the session is set (undefined) every check throws the
 * contract's authNotInitialized message; a visitor (loggedin false) has no role.
 */
export function roleChecks(session: Session | undefined): RoleChecks {
  if (session === undefined) {
    const notInitialized = (): never => {
      throw new Error(RULE_TEXTS.authNotInitialized);
    };
    return { hasRole: notInitialized, hasAnyRole: notInitialized };
  }
  const signature = session.loggedin ? session.payload.signature : null;
  return {
    hasRole: (role, level) => signature !== null && hasRole(signature, role, level),
    hasAnyRole: (requirements) => signature !== null && hasAnyRole(signature, requirements),
  };
}

export function useRoles(): RoleChecks {
  return roleChecks(useSession().data);
}

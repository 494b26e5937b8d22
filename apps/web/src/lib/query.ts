import { QueryClient } from '@tanstack/react-query';

/**
 * One TanStack Query client for the app. Queries do not retry by default: the §7 calls are not
 * idempotent-safe to repeat blindly, and the one call that retries (auth/sig) says so itself.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

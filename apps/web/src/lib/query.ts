import {
  createContext,
  createElement,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import type { ReactNode } from 'react';

/**
 * The app's cache of server answers: useQuery (an answer shared by every component that asks for its
 * key, fetched once at a time, kept while fresh) and useMutation (a call a person makes). It stands in
 * for TanStack Query, whose 9 kB (brotli) the sign-in pages' first script could not carry (docs/ARCHITECTURE.md),
 * and keeps its names and defaults where the app uses them: no retry unless asked, a failed try retried
 * after 1 s, 2 s…, an answer kept 5 minutes after its last user is gone.
 */

export type QueryKey = readonly unknown[];
export type QueryStatus = 'pending' | 'success' | 'error';

export interface QueryState<Data> {
  status: QueryStatus;
  data: Data | undefined;
  error: unknown;
  fetching: boolean;
}

interface Query<Data = unknown> {
  queryKey: QueryKey;
  state: QueryState<Data>;
  updatedAt: number;
  invalidated: boolean;
  observers: number;
  listeners: Set<() => void>;
  fetchNow?: () => Promise<void>;
  running?: Promise<void>;
  abort?: AbortController;
  gcTimer?: ReturnType<typeof setTimeout>;
}

const DEFAULT_GC_MS = 5 * 60 * 1000;
const hashOf = (key: QueryKey): string => JSON.stringify(key);
/** Waits before a retry: 1 s, then twice as long each time, at most 30 s. */
export const retryDelayMs = (failures: number): number => Math.min(1000 * 2 ** (failures - 1), 30_000);
const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  });

export class QueryClient {
  readonly #queries = new Map<string, Query>();

  /** The query of a key, made (with its initial data, if any) the first time it is asked for. */
  query<Data>(queryKey: QueryKey, initialData?: () => Data | undefined): Query<Data> {
    const hash = hashOf(queryKey);
    let query = this.#queries.get(hash) as Query<Data> | undefined;
    if (!query) {
      const data = initialData?.();
      query = {
        queryKey,
        state: { status: data === undefined ? 'pending' : 'success', data, error: null, fetching: false },
        updatedAt: data === undefined ? 0 : Date.now(),
        invalidated: false,
        observers: 0,
        listeners: new Set(),
      };
      this.#queries.set(hash, query as Query);
    }
    return query;
  }

  /** Runs the query's fetch unless one is under way; a failure is retried `retry` times. */
  fetch<Data>(
    query: Query<Data>,
    queryFn: (context: { signal: AbortSignal }) => Promise<Data>,
    retry: number,
  ): Promise<void> {
    if (query.running) return query.running;
    const abort = new AbortController();
    query.abort = abort;
    this.#set(query, { ...query.state, fetching: true });
    query.running = (async () => {
      for (let failures = 0; ; failures += 1) {
        try {
          const data = await queryFn({ signal: abort.signal });
          query.updatedAt = Date.now();
          query.invalidated = false;
          this.#set(query, { status: 'success', data, error: null, fetching: false });
          return;
        } catch (error) {
          if (abort.signal.aborted) return;
          if (failures >= retry) {
            this.#set(query, { ...query.state, status: 'error', error, fetching: false });
            return;
          }
          await wait(retryDelayMs(failures + 1), abort.signal);
          if (abort.signal.aborted) return;
        }
      }
    })().finally(() => {
      query.running = undefined;
    });
    return query.running;
  }

  /** Counts a component using the query; the query is dropped `gcTime` after its last one leaves. */
  observe(query: Query, gcTime: number): () => void {
    query.observers += 1;
    clearTimeout(query.gcTimer);
    return () => {
      query.observers -= 1;
      if (query.observers > 0) return;
      query.gcTimer = setTimeout(() => {
        if (query.observers > 0) return;
        query.abort?.abort();
        this.#queries.delete(hashOf(query.queryKey));
      }, gcTime);
    };
  }

  subscribe(query: Query, listener: () => void): () => void {
    query.listeners.add(listener);
    return () => query.listeners.delete(listener);
  }

  getQueryState<Data>(queryKey: QueryKey): QueryState<Data> | undefined {
    return (this.#queries.get(hashOf(queryKey)) as Query<Data> | undefined)?.state;
  }

  /**
   * Marks the matching answers stale and fetches again those a component shows; with `staleTime`,
   * only those that are stale by it (TanStack's refetch on focus).
   */
  async invalidateQueries(
    filter: {
      queryKey?: QueryKey;
      predicate?: (query: { queryKey: QueryKey }) => boolean;
      staleTime?: number;
    } = {},
  ): Promise<void> {
    const { queryKey: prefix, predicate, staleTime } = filter;
    const matches = [...this.#queries.values()].filter(
      (query) =>
        (!prefix || prefix.every((part, i) => hashOf([part]) === hashOf([query.queryKey[i]]))) &&
        (!predicate || predicate(query)) &&
        (staleTime === undefined || this.isStale(query, staleTime)),
    );
    for (const query of matches) query.invalidated = true;
    await Promise.all(matches.filter((query) => query.observers > 0).map((query) => query.fetchNow?.()));
  }

  /** Drops every answer, stopping what is under way (prerendering ends with it). */
  clear(): void {
    for (const query of this.#queries.values()) {
      clearTimeout(query.gcTimer);
      query.abort?.abort();
    }
    this.#queries.clear();
  }

  isStale(query: Query, staleTime: number): boolean {
    const age = Date.now() - query.updatedAt;
    // a clock set back since makes the age negative: an answer fresh for a time is not fresh for longer
    // (one fresh for good, a confirmed code's, stays so)
    return (
      query.invalidated ||
      query.state.data === undefined ||
      age >= staleTime ||
      (age < 0 && Number.isFinite(staleTime))
    );
  }

  #set<Data>(query: Query<Data>, state: QueryState<Data>): void {
    query.state = state;
    for (const listener of query.listeners) listener();
  }
}

/**
 * One client for the app. Queries do not retry by default: the §7 calls are not idempotent-safe to
 * repeat blindly, and the one call that retries (auth/sig) says so itself.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient();
}

const QueryClientContext = createContext<QueryClient | null>(null);

export function QueryClientProvider({ client, children }: { client: QueryClient; children: ReactNode }) {
  return createElement(QueryClientContext.Provider, { value: client }, children);
}

export function useQueryClient(): QueryClient {
  const client = useContext(QueryClientContext);
  if (!client) throw new Error('useQueryClient() used outside <QueryClientProvider>');
  return client;
}

export interface QueryOptions<Data> {
  queryKey: QueryKey;
  queryFn: (context: { signal: AbortSignal }) => Promise<Data>;
  enabled?: boolean;
  /** How long an answer counts as fresh: a component that asks for it then is given it, no fetch. */
  staleTime?: number;
  gcTime?: number;
  retry?: number | false;
  initialData?: () => Data | undefined;
}

export interface QueryResult<Data> {
  data: Data | undefined;
  error: unknown;
  status: QueryStatus;
  isPending: boolean;
  /** Pending with a fetch under way (a disabled query waits without loading). */
  isLoading: boolean;
  isSuccess: boolean;
  isError: boolean;
}

/** The answer of `queryKey`, fetched when it is missing or stale and the query is enabled. */
export function useQuery<Data>(options: QueryOptions<Data>): QueryResult<Data> {
  const client = useQueryClient();
  const { queryKey, enabled = true, staleTime = 0, gcTime = DEFAULT_GC_MS, retry = false } = options;
  const hash = hashOf(queryKey);
  // the latest options, for a fetch started by an invalidation after this render
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const query = client.query(queryKey, options.initialData);
  const state = useSyncExternalStore(
    useCallback((listener) => client.subscribe(query, listener), [client, query]),
    () => query.state,
    () => query.state,
  );
  useEffect(() => {
    const release = client.observe(query, gcTime);
    const fetchNow = () => client.fetch(query, (context) => latest.current.queryFn(context), retry || 0);
    query.fetchNow = fetchNow;
    if (enabled && client.isStale(query, staleTime)) void fetchNow();
    return release;
    // hash: the key's contents, not the array made afresh each render
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, hash, enabled, staleTime, gcTime, retry]);
  return {
    data: state.data,
    error: state.error,
    status: state.status,
    isPending: state.status === 'pending',
    isLoading: state.status === 'pending' && state.fetching,
    isSuccess: state.status === 'success',
    isError: state.status === 'error',
  };
}

export interface MutationOptions<Data, Variables> {
  mutationFn: (variables: Variables) => Promise<Data>;
  onSuccess?: (data: Data, variables: Variables) => unknown;
  onError?: (error: unknown, variables: Variables) => unknown;
}

type MutationState<Data, Variables> =
  | { status: 'idle'; data: undefined; error: null; variables: undefined }
  | { status: 'pending' | 'success' | 'error'; data: Data | undefined; error: unknown; variables: Variables };

const IDLE = { status: 'idle', data: undefined, error: null, variables: undefined } as const;

/**
 * A call a person makes. Its onSuccess/onError run before the state settles, so a page that moves on
 * from onSuccess still shows the call as pending until it has.
 */
export function useMutation<Data, Variables = void>(options: MutationOptions<Data, Variables>) {
  const [state, setState] = useState<MutationState<Data, Variables>>(IDLE);
  const latest = useRef(options);
  const mounted = useRef(false);
  useEffect(() => {
    latest.current = options;
  });
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const run = useCallback(
    async (
      variables: Variables,
      call: Omit<MutationOptions<Data, Variables>, 'mutationFn'> = {},
    ): Promise<Data> => {
      setState({ status: 'pending', data: undefined, error: null, variables });
      let data: Data;
      try {
        data = await latest.current.mutationFn(variables);
      } catch (error) {
        await latest.current.onError?.(error, variables);
        setState({ status: 'error', data: undefined, error, variables });
        // a call's own callbacks belong to the page that made it: not run once it has gone
        if (mounted.current) await call.onError?.(error, variables);
        throw error;
      }
      await latest.current.onSuccess?.(data, variables);
      setState({ status: 'success', data, error: null, variables });
      if (mounted.current) await call.onSuccess?.(data, variables);
      return data;
    },
    [],
  );
  const mutateAsync = useCallback((variables: Variables) => run(variables), [run]);
  /** Makes the call; its failure goes to onError (the options', then this call's), never unhandled. */
  const mutate = useCallback(
    (variables: Variables, call?: Omit<MutationOptions<Data, Variables>, 'mutationFn'>) => {
      run(variables, call).catch(() => undefined);
    },
    [run],
  );
  const reset = useCallback(() => setState(IDLE), []);
  return {
    ...state,
    mutate,
    mutateAsync,
    reset,
    isIdle: state.status === 'idle',
    isPending: state.status === 'pending',
    isSuccess: state.status === 'success',
    isError: state.status === 'error',
  };
}

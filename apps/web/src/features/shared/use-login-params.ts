import { useQuery } from '../../lib/query.ts';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useParams } from 'react-router';
import type { LoginParams, PortalConfig } from '@frontdoor/contract';
import { getCsrfLogin } from './api.ts';
import { useConfig } from '../../lib/config.tsx';
import { getLoginCsrf, getLoginParams, saveLoginData } from '../../lib/storage.ts';
import type { ShownMessage } from './shown-message.ts';
import { useCallError } from './use-call-error.ts';
import { recordReplayFor } from '../../lib/telemetry.ts';

export interface LoginParamsState {
  loading: boolean;
  loginParams: LoginParams | null;
  /** §8 login params failure: the server message, or 'Unknown failure retrieving login params'. */
  error: ShownMessage | null;
}

/**
 * The fetch of a csrf's login params under way. It belongs to the tab, not to the page that started
 * it: a person who leaves log-in/{csrf} before the answer (Continue with Email, the class-code link)
 * takes the sign-in request along, and whatever needs the params waits for it (useLoginParams,
 * loginParamsSettled) instead of going on without them, which would end the sign-in on the site root
 * instead of the product.
 */
let fetching: { csrf: string; answer: Promise<LoginParams> } | null = null;
const listeners = new Set<() => void>();

// the tab's own storage: no other tab changes it
function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
const changed = () => listeners.forEach((listener) => listener());

/** GET gateway/getCsrfLogin/{csrf}, saved as the tab's login request: one fetch of a csrf at a time. */
function fetchLoginParams(cfg: PortalConfig, csrf: string): Promise<LoginParams> {
  if (fetching?.csrf === csrf) return fetching.answer;
  const entry = {
    csrf,
    answer: getCsrfLogin(cfg, csrf).then(({ payload }) => {
      // a request opened since is the one storage follows
      if (fetching === entry) saveLoginData(csrf, payload);
      return payload;
    }),
  };
  fetching = entry;
  // before anyone awaiting the answer goes on: by then storage holds it and the fetch is over
  const settle = () => {
    if (fetching !== entry) return;
    fetching = null;
    changed();
  };
  entry.answer.then(settle, settle);
  changed();
  return entry.answer;
}

/**
 * Resolves once no fetch of login params is under way (at once when none is), storage then holding
 * what it brought; rejects with the failure of the fetch it waited for. For what reads the params
 * from storage when it acts (social/get_csrf's return url and login csrf).
 */
export async function loginParamsSettled(): Promise<void> {
  await fetching?.answer;
}

/**
 * The login csrf of the tab's sign-in request, one on its way first, for the links back to
 * log-in/{csrf}. Null while a prerendered page hydrates: its markup was made without storage.
 */
export function useLoginCsrf(): string | null {
  return useSyncExternalStore(
    subscribe,
    () => fetching?.csrf ?? getLoginCsrf(),
    () => null,
  );
}

const unchanging = () => () => undefined;

/**
 * True while a prerendered page of a {csrf} route hydrates (and while it is prerendered), false on
 * every other render. Its markup shows the params loading, made without storage and for any csrf;
 * the render right after hydration shows what storage holds of its own. A page without the segment
 * reads false throughout, so it is not rendered again after hydration.
 */
const useHydratingCsrfPage = (csrf: string | undefined): boolean =>
  useSyncExternalStore(
    unchanging,
    () => false,
    () => csrf !== undefined,
  );

/** The params in storage; none while a prerendered page hydrates, as its markup was made without them. */
function useStoredLoginParams(): LoginParams | null {
  const json = useSyncExternalStore(
    subscribe,
    () => JSON.stringify(getLoginParams()),
    () => 'null',
  );
  return useMemo(() => JSON.parse(json) as LoginParams | null, [json]);
}

/**
 * The login params of a {csrf} route. The URL names the login request and the tab's login_csrf and
 * login_params (§3, lib/storage.ts) hold its params: the one store, which outlives the round trip
 * through an identity provider. Only a csrf the store does not hold is fetched (GET gateway/getCsrfLogin/{csrf})
 * and saved, so post-login/{csrf} after log-in/{csrf} asks no second time; navigating to the URL you
 * are on still refetches (§2). Without the segment, the ones held in storage, unless a fetch was
 * under way when the page opened: then that fetch, shown as its {csrf} route would show it.
 */
export function useLoginParams(): LoginParamsState {
  const { csrf: routeCsrf } = useParams();
  // read once: the page keeps showing that fetch (its failure too) after it is over
  const [awaitedCsrf] = useState(() => fetching?.csrf);
  const csrf = routeCsrf ?? awaitedCsrf;
  const cfg = useConfig();
  const { message, onFatal } = useCallError();
  const stored = useStoredLoginParams();
  const hydrating = useHydratingCsrfPage(routeCsrf);
  const query = useQuery({
    queryKey: ['loginParams', csrf],
    queryFn: () => fetchLoginParams(cfg, csrf ?? ''),
    initialData: () => savedLoginParamsOf(csrf),
    enabled: Boolean(csrf),
    staleTime: Infinity,
    // storage is the cache: a query kept past its page could answer for a csrf storage no longer holds
    gcTime: 0,
  });
  useEffect(() => {
    if (csrf && query.data) recordReplayFor(query.data);
  }, [csrf, query.data]);
  useEffect(() => {
    if (query.error) onFatal(query.error);
  }, [query.error, onFatal]);

  if (!csrf) return { loading: false, loginParams: stored, error: null };
  if (hydrating) return { loading: true, loginParams: null, error: null };
  // what this link's request was, if it answered once; never the tab's stored one, another link's,
  // which would send this page to its product
  if (query.error)
    return {
      loading: false,
      loginParams: query.data ?? null,
      error: message(query.error, 'loginParamsFailure'),
    };
  return { loading: query.isPending, loginParams: query.data ?? null, error: null };
}

/** The stored params when they are the ones of this csrf. */
function savedLoginParamsOf(csrf: string | undefined): LoginParams | undefined {
  return csrf && csrf === getLoginCsrf() ? (getLoginParams() ?? undefined) : undefined;
}

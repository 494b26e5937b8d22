import { useQuery } from '../../lib/query.ts';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import type { LoginParams } from '@frontdoor/contract';
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
 * The login params of a {csrf} route. The URL names the login request and localStorage's login_csrf
 * and login_params (§3) hold its params: the one store, which outlives the round trip through an
 * identity provider. Only a csrf the store does not hold is fetched (GET gateway/getCsrfLogin/{csrf})
 * and saved, so post-login/{csrf} after log-in/{csrf} asks no second time; navigating to the URL you
 * are on still refetches (§2). Without the segment, the ones held in storage.
 */
export function useLoginParams(): LoginParamsState {
  const { csrf } = useParams();
  const cfg = useConfig();
  const { message, onFatal } = useCallError();
  const query = useQuery({
    queryKey: ['loginParams', csrf],
    queryFn: async () => {
      const answer = await getCsrfLogin(cfg, csrf ?? '');
      saveLoginData(csrf ?? '', answer.payload);
      return answer.payload;
    },
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

  if (!csrf) return { loading: false, loginParams: getLoginParams(), error: null };
  if (query.error) {
    const e = query.error;
    return {
      loading: false,
      loginParams: getLoginParams(),
      error: message(e, 'loginParamsFailure'),
    };
  }
  return { loading: query.isPending, loginParams: query.data ?? null, error: null };
}

/** The stored params when they are the ones of this csrf. */
function savedLoginParamsOf(csrf: string | undefined): LoginParams | undefined {
  return csrf && csrf === getLoginCsrf() ? (getLoginParams() ?? undefined) : undefined;
}

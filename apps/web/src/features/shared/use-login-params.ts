import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import type { LoginParams } from '@frontdoor/contract';
import { getCsrfLogin } from './api.ts';
import { callErrorMessage } from './messages.ts';
import { useConfig } from '../../lib/config.tsx';
import { getLoginParams, saveLoginData } from '../../lib/storage.ts';
import type { ShownMessage } from './shown-message.ts';
import { useFatalError } from '../../lib/use-fatal-error.ts';
import { recordReplayFor } from '../../lib/telemetry.ts';

export interface LoginParamsState {
  loading: boolean;
  loginParams: LoginParams | null;
  /** §8 login params failure: the server message, or 'Unknown failure retrieving login params'. */
  error: ShownMessage | null;
}

/**
 * The login params of a {csrf} route: GET gateway/getCsrfLogin/{csrf}, saved as login_csrf and
 * login_params (§3). Without the segment, the ones held in storage.
 */
export function useLoginParams(): LoginParamsState {
  const { csrf } = useParams();
  const cfg = useConfig();
  const onFatal = useFatalError();
  const query = useQuery({
    queryKey: ['loginParams', csrf],
    queryFn: () => getCsrfLogin(cfg, csrf ?? ''),
    enabled: Boolean(csrf),
    staleTime: Infinity,
  });
  useEffect(() => {
    if (!csrf || !query.data) return;
    saveLoginData(csrf, query.data.payload);
    recordReplayFor(query.data.payload);
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
      error: callErrorMessage(e, 'loginParamsFailure'),
    };
  }
  return { loading: query.isPending, loginParams: query.data?.payload ?? null, error: null };
}

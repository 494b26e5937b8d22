import { useEffect, useState } from 'react';
import { useQuery } from '../../lib/query.ts';
import { useLaterTranslation } from '../../lib/i18n/use-later-translation.ts';
import { useSearchParams } from 'react-router';
import { Link } from '../../ui/Link.tsx';
import { emailCodeSchema, emailSchema } from '@frontdoor/contract';
import type { MessageCode } from '@frontdoor/contract';
import { confirm } from '../shared/api.ts';
import { ApiError } from '../../lib/http.ts';
import { Alert } from '../../ui/Alert.tsx';
import { PageCard } from '../../ui/PageCard.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useCallError } from '../shared/use-call-error.ts';
import { useConfig } from '../../lib/config.tsx';
import { handOverLoginData } from '../../lib/login-handover.ts';

/** /validate?em&vc: the verification mail's link. Both params are required (§5); then cognito/confirm. */
export default function ValidatePage() {
  const { t } = useLaterTranslation('validate');
  const cfg = useConfig();
  const { message, messageText, onFatal } = useCallError();
  const [params] = useSearchParams();
  // the sign-in request goes on in the tab of this address's mail link (lib/login-handover.ts)
  useState(() => handOverLoginData(params.get('em')));
  const em = emailSchema.safeParse(params.get('em') ?? '');
  const vc = emailCodeSchema.safeParse(params.get('vc') ?? '');
  const missing: MessageCode[] = [];
  if (!em.success) missing.push('verifyEmailParamMissing');
  if (!vc.success) missing.push('verifyCodeParamMissing');

  const result = useQuery({
    queryKey: ['validate', em.data, vc.data],
    // verified already: the link opened twice (two tabs, a reload, a mail app's preview) is no failure
    queryFn: () =>
      confirm(cfg, { un: em.data ?? '', code: vc.data ?? '' }).catch((error: unknown) => {
        if (error instanceof ApiError && error.code === 'userAlreadyConfirmed') return null;
        throw error;
      }),
    enabled: missing.length === 0,
    staleTime: Infinity,
  });
  useEffect(() => {
    if (result.error) onFatal(result.error);
  }, [result.error, onFatal]);

  let body;
  if (missing.length > 0) {
    body = (
      <Alert tone="error">
        {missing.map((code) => (
          <p key={code}>{messageText({ code })}</p>
        ))}
      </Alert>
    );
  } else if (result.isPending) {
    body = <Spinner label={t('verifying')} showLabel />;
  } else if (result.isError) {
    const e = result.error;
    body = <Alert tone="error">{messageText(message(e, 'verifyPageFailure'))}</Alert>;
  } else {
    body = <Alert tone="success">{messageText({ code: 'verifyPageSuccess' })}</Alert>;
  }
  return (
    <PageCard title={t('title')} footer={<Link to="/log-in">{t('continue')}</Link>}>
      {body}
    </PageCard>
  );
}

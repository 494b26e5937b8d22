import { useState } from 'react';
import { useMutation } from '../../lib/query.ts';
import { useLaterTranslation } from '../../lib/i18n/use-later-translation.ts';
import { useSearchParams } from 'react-router';
import { Link } from '../../ui/Link.tsx';
import { emailCodeSchema, emailSchema } from '@frontdoor/contract';
import type { MessageCode } from '@frontdoor/contract';
import { confirm } from '../shared/api.ts';
import { ApiError } from '../../lib/http.ts';
import { Alert } from '../../ui/Alert.tsx';
import { PageCard } from '../../ui/PageCard.tsx';
import { useCallError } from '../shared/use-call-error.ts';
import { PressAction } from '../shared/PressAction.tsx';
import type { ShownMessage } from '../shared/shown-message.ts';
import { useConfig } from '../../lib/config.tsx';
import { handOverLoginData } from '../../lib/login-handover.ts';

/**
 * /validate?em&vc: the verification mail's link. Both params are required (§5); cognito/confirm goes
 * only on a press of Verify: school mail gateways, scanners and link previews open a mail's links
 * before the person does, and a confirmation from any browser but the sign-up's drops the password
 * chosen there (docs/SECURITY.md).
 */
export default function ValidatePage() {
  const { t } = useLaterTranslation('validate');
  const cfg = useConfig();
  const { failure, messageText } = useCallError();
  const [params] = useSearchParams();
  // the sign-in request goes on in the tab of this address's mail link (lib/login-handover.ts)
  useState(() => handOverLoginData(params.get('em')));
  const em = emailSchema.safeParse(params.get('em') ?? '');
  const vc = emailCodeSchema.safeParse(params.get('vc') ?? '');
  const missing: MessageCode[] = [];
  if (!em.success) missing.push('verifyEmailParamMissing');
  if (!vc.success) missing.push('verifyCodeParamMissing');
  const [callError, setCallError] = useState<ShownMessage | null>(null);

  const verify = useMutation({
    // verified already: the link pressed twice (two tabs, a reload) is no failure
    mutationFn: () =>
      confirm(cfg, { un: em.data ?? '', code: vc.data ?? '' }).then(
        ({ payload }) => payload.newPasswordNeeded,
        (error: unknown) => {
          if (error instanceof ApiError && error.code === 'userAlreadyConfirmed') return false;
          throw error;
        },
      ),
    onError: (error) => setCallError(failure(error, 'verifyPageFailure')),
  });

  let body;
  if (missing.length > 0) {
    body = (
      <Alert tone="error">
        {missing.map((code) => (
          <p key={code}>{messageText({ code })}</p>
        ))}
      </Alert>
    );
  } else if (verify.isSuccess) {
    body = (
      <Alert tone="success" focusKey="verified">
        <p>{messageText({ code: 'verifyPageSuccess' })}</p>
        {verify.data && <p>{t('new_password_needed')}</p>}
      </Alert>
    );
  } else {
    body = (
      <PressAction
        refusal={callError}
        busy={verify.isPending}
        onPress={() => {
          setCallError(null);
          verify.mutate();
        }}
        label={t('submit')}
      />
    );
  }
  const asking = missing.length === 0 && !verify.isSuccess;
  return (
    <PageCard
      title={t('title')}
      lead={asking ? t('lead', { email: em.data ?? '' }) : undefined}
      footer={<Link to="/log-in">{t('continue')}</Link>}
    >
      {body}
    </PageCard>
  );
}

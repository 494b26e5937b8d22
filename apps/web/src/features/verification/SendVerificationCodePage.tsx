import { useState } from 'react';
import { useMutation } from '../../lib/query.ts';
import { useLaterTranslation } from '../../lib/i18n/use-later-translation.ts';
import { Navigate, useNavigate } from 'react-router';
import { Link } from '../../ui/Link.tsx';
import type { ResendResult } from '@frontdoor/contract';
import { useConfig } from '../../lib/config.tsx';
import { ApiError } from '../../lib/http.ts';
import { getRememberedEmail } from '../../lib/storage.ts';
import { buttonClassName } from '../../ui/Button.tsx';
import { PageCard } from '../../ui/PageCard.tsx';
import { resendVerification } from '../shared/api.ts';
import { useCallError } from '../shared/use-call-error.ts';
import { PressAction } from '../shared/PressAction.tsx';
import type { ShownMessage } from '../shared/shown-message.ts';
import type { CodeSentState } from '../shared/code-sent.ts';
import { ResetCodeSentDialog } from './ResetCodeSentDialog.tsx';
import { codeEntryPath } from './code-entry.ts';

/**
 * /send-verification-code: the email must be verified; the server says which code it sent (§4), or,
 * refusing a resend while the last code is on its way, which code that is: the page offers where to type it.
 */
export default function SendVerificationCodePage() {
  const { t } = useLaterTranslation('verification');
  const cfg = useConfig();
  const navigate = useNavigate();
  const { failure } = useCallError();
  const email = getRememberedEmail();
  // when the reset code the popup speaks of was mailed; null: no popup
  const [resetCodeSentAt, setResetCodeSentAt] = useState<number | null>(null);
  const [callError, setCallError] = useState<ShownMessage | null>(null);
  // the code a refused resend says is on its way (sent moments ago, or its mail delayed)
  const [pending, setPending] = useState<ResendResult>();
  const send = useMutation({
    mutationFn: (address: string) => resendVerification(cfg, address),
    // the server decides the next screen: a new result in the contract is a compile error here
    onSuccess: ({ payload }) => {
      switch (payload) {
        case 'verify_email':
          return navigate('/code', { state: { codeSentAt: Date.now() } satisfies CodeSentState });
        case 'password_reset':
          return setResetCodeSentAt(Date.now());
        default:
          return payload satisfies never;
      }
    },
    onError: (error) => {
      setCallError(failure(error));
      setPending(error instanceof ApiError ? error.extras.pending : undefined);
    },
  });
  if (!email) return <Navigate to="/email" replace />;
  return (
    <PageCard title={t('send_title')} lead={t('send_body', { email })}>
      <PressAction
        refusal={callError}
        busy={send.isPending}
        onPress={() => {
          setCallError(null);
          send.mutate(email);
        }}
        label={t('send_submit')}
      >
        {pending && (
          <Link to={codeEntryPath(pending)} className={buttonClassName('secondary')}>
            {t('enter_code')}
          </Link>
        )}
        <Link to="/email" className={buttonClassName('secondary')}>
          {t('cancel')}
        </Link>
      </PressAction>
      <ResetCodeSentDialog sentAt={resetCodeSentAt} />
    </PageCard>
  );
}

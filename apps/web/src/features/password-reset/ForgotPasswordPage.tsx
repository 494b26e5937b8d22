import { useState } from 'react';
import { useMutation } from '../../lib/query.ts';
import { useLaterTranslation } from '../../lib/i18n/use-later-translation.ts';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { EMAIL_CODE_LENGTH, emailCodeSchema } from '@frontdoor/contract';
import { useConfig } from '../../lib/config.tsx';
import { handOverLoginData } from '../../lib/login-handover.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { PageCard } from '../../ui/PageCard.tsx';
import { sendReset } from '../shared/api.ts';
import { CodeResend } from '../../ui/CodeResend.tsx';
import { recordCodeSent, useResendWait } from '../shared/code-sent.ts';
import { CodeField } from '../shared/CodeField.tsx';
import { emailParam } from '../shared/email-param.ts';
import { getRememberedEmail, rememberEmail } from '../../lib/storage.ts';
import styles from '../shared/flow.module.css';
import { useCodeForm } from '../shared/use-summary-form.tsx';
import { useCallError } from '../shared/use-call-error.ts';
import type { ResetCodeState } from './PasswordResetPage.tsx';
import type { ShownMessage } from '../shared/shown-message.ts';

const CODE_FIELD_ID = 'reset-code';

/**
 * /forgot-password: the provider mailed a reset code for the address this tab remembers (§2's
 * remembered email: no URL of the flow names it, as a shared device's history keeps every URL for
 * the next person); enter it, then choose the new password. The reset mail's link opens a tab of its
 * own, which remembers nothing: it names the address (?email=), which the tab remembers from then on.
 */
export default function ForgotPasswordPage() {
  const { t } = useLaterTranslation('passwordReset');
  const cfg = useConfig();
  const navigate = useNavigate();
  const { failure, messageText } = useCallError();
  const [params] = useSearchParams();
  const [linked] = useState(() => emailParam(params));
  const [email] = useState(() => {
    if (linked) rememberEmail(linked);
    return linked ?? getRememberedEmail();
  });
  // the sign-in request goes on in the tab of this address's mail link (lib/login-handover.ts)
  useState(() => handOverLoginData(email));
  // the identity side mailed the code as it sent the browser here (its redirect names no address); the
  // mail's link may be opened any time after its mail, so it starts no countdown of its own
  const waitSeconds = useResendWait('reset', email, linked === null);
  const [notice, setNotice] = useState<{ tone: 'error' | 'success'; message: ShownMessage } | null>(null);
  const { form, errorSummary, onSubmit } = useCodeForm(emailCodeSchema, CODE_FIELD_ID);
  const resend = useMutation({
    mutationFn: () => sendReset(cfg, email ?? ''),
    onSuccess: () => {
      recordCodeSent('reset', email ?? '');
      setNotice({ tone: 'success', message: { code: 'resetResendSuccess' } });
    },
    onError: (error) => {
      const message = failure(error);
      if (message) setNotice({ tone: 'error', message });
    },
  });

  if (!email) return <Navigate to="/email" replace />;
  return (
    <PageCard title={t('forgot_title')} lead={t('forgot_body', { email })}>
      {errorSummary}
      {notice && (
        <Alert tone={notice.tone} focusKey={notice.tone === 'error' ? notice : undefined}>
          {messageText(notice.message)}
        </Alert>
      )}
      <form
        method="post"
        noValidate
        className={styles.form}
        onSubmit={onSubmit(({ code }) =>
          navigate('/password-reset', { state: { code } satisfies ResetCodeState }),
        )}
      >
        <CodeField
          form={form}
          id={CODE_FIELD_ID}
          label={t('code_label')}
          length={EMAIL_CODE_LENGTH}
          resend={
            <CodeResend onResend={resend.mutateAsync} prompt={t('resend_prompt')} waitSeconds={waitSeconds} />
          }
        />
        <Button type="submit" fullWidth>
          {t('forgot_submit')}
        </Button>
      </form>
    </PageCard>
  );
}

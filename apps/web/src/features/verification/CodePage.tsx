import { Suspense, lazy, useState } from 'react';
import { useMutation } from '../../lib/query.ts';
import { useLaterTranslation } from '../../lib/i18n/use-later-translation.ts';
import { Navigate } from 'react-router';
import { EMAIL_CODE_LENGTH, emailCodeSchema } from '@frontdoor/contract';
import { useConfig } from '../../lib/config.tsx';
import { ApiError } from '../../lib/http.ts';
import { getRememberedEmail } from '../../lib/storage.ts';
import { handOverLoginData } from '../../lib/login-handover.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { PageCard } from '../../ui/PageCard.tsx';
import { confirm, resendVerification } from '../shared/api.ts';
import { CodeResend } from '../../ui/CodeResend.tsx';
import { CodeField } from '../shared/CodeField.tsx';
import styles from '../shared/flow.module.css';
import { useCodeForm } from '../shared/use-summary-form.tsx';
import { useCallError } from '../shared/use-call-error.ts';
import { useProviderSignIn } from '../shared/use-provider-sign-in.ts';
import { LoginLink } from '../shared/LoginLink.tsx';
import { Link } from '../../ui/Link.tsx';
import { recordCodeSent, useResendWait } from '../shared/code-sent.ts';

// the popup (and the dialog library under it) is downloaded only when a resend answers password_reset:
// about half of this page's script otherwise (bench/README.md, stop 37)
const ResetCodeSentDialog = lazy(async () => ({
  default: (await import('./ResetCodeSentDialog.tsx')).ResetCodeSentDialog,
}));

const CODE_FIELD_ID = 'verification-code';
const CALL_ERROR_ID = 'verification-call-error';

/** /code: 'Verify your email'. Confirm success goes to the identity-provider sign-in (§4). */
export default function CodePage() {
  const { t } = useLaterTranslation('verification');
  const cfg = useConfig();
  const { failure, messageText } = useCallError();
  const signIn = useProviderSignIn();
  const email = getRememberedEmail();
  // the mail's link, opened in a tab of its own, goes on with this tab's sign-in request
  useState(() => handOverLoginData(email));
  // the page before (sign-up, 'Send verification code') mailed the code
  const waitSeconds = useResendWait('verification', email);
  // when the reset code the popup speaks of was mailed; null: no popup
  const [resetCodeSentAt, setResetCodeSentAt] = useState<number | null>(null);
  const [notice, setNotice] = useState<{
    tone: 'error' | 'success';
    text: string;
    /** verified, but the sign-in could not start: the way on is the login page */
    offerSignIn?: boolean;
    /** the code was refused: the message describes the code field */
    codeRefused?: boolean;
    /** the mail server refused the address for good (a typing mistake): the way on is a new sign-up */
    offerSignUp?: boolean;
  } | null>(null);
  const { form, errorSummary, onSubmit } = useCodeForm(emailCodeSchema, CODE_FIELD_ID, () => setNotice(null));

  const showError = (error: unknown, codeRefused = false) => {
    const message = failure(error);
    const offerSignUp = error instanceof ApiError && error.code === 'mailRejected';
    if (message) setNotice({ tone: 'error', text: messageText(message), codeRefused, offerSignUp });
  };
  const goOnToSignIn = () =>
    signIn.mutate(
      { provider: 'COGNITO', loginHint: email ?? undefined },
      {
        onError: (error) => {
          const message = failure(error);
          if (message) setNotice({ tone: 'error', text: messageText(message), offerSignIn: true });
        },
      },
    );
  // verified already: by this code, whose answer a failing network lost, or by the mail's link
  const verifiedAlready = (error: unknown) =>
    error instanceof ApiError && error.code === 'userAlreadyConfirmed';
  const confirmCode = useMutation({
    mutationFn: (code: string) => confirm(cfg, { un: email ?? '', code }),
    onSuccess: goOnToSignIn,
    onError: (error) => (verifiedAlready(error) ? goOnToSignIn() : showError(error, true)),
  });
  const resend = useMutation({
    mutationFn: () => resendVerification(cfg, email ?? ''),
    // the server decides the next screen: a new result in the contract is a compile error here
    onSuccess: ({ payload }) => {
      switch (payload) {
        case 'verify_email':
          recordCodeSent('verification', email ?? '');
          return setNotice({ tone: 'success', text: t('resend_sent') });
        case 'password_reset':
          // verified meanwhile in another browser, so its password must be chosen again: a reset code
          // was mailed, which is typed where reset codes are
          return setResetCodeSentAt(Date.now());
        default:
          return payload satisfies never;
      }
    },
    // the mail's link confirmed the account meanwhile: no code is sent, the sign-in goes on
    onError: (error) => (verifiedAlready(error) ? goOnToSignIn() : showError(error)),
  });

  if (!email) return <Navigate to="/email" replace />;
  const pending = confirmCode.isPending || confirmCode.isSuccess || signIn.isPending;
  return (
    <PageCard title={t('code_title')} lead={t('code_body', { email })}>
      {errorSummary}
      {notice && (
        <Alert tone={notice.tone} id={CALL_ERROR_ID} focusKey={notice.tone === 'error' ? notice : undefined}>
          <p>{notice.text}</p>
          {notice.offerSignIn && <LoginLink>{t('verified_sign_in')}</LoginLink>}
          {notice.offerSignUp && <Link to="/create-account">{t('sign_up_again')}</Link>}
        </Alert>
      )}
      <form
        method="post"
        noValidate
        className={styles.form}
        onSubmit={onSubmit(({ code }) => {
          if (!pending) confirmCode.mutate(code);
        })}
      >
        <CodeField
          form={form}
          id={CODE_FIELD_ID}
          label={t('code_label')}
          length={EMAIL_CODE_LENGTH}
          refusalId={notice?.codeRefused ? CALL_ERROR_ID : undefined}
          resend={
            <CodeResend onResend={resend.mutateAsync} prompt={t('resend_prompt')} waitSeconds={waitSeconds} />
          }
        />
        <Button type="submit" loading={pending} fullWidth>
          {t('code_submit')}
        </Button>
      </form>
      {resetCodeSentAt !== null && (
        <Suspense fallback={null}>
          <ResetCodeSentDialog sentAt={resetCodeSentAt} />
        </Suspense>
      )}
    </PageCard>
  );
}

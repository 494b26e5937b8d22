import { useState } from 'react';
import { useMutation } from '../../lib/query.ts';
import { useTranslation } from '../../lib/i18n/use-translation.tsx';
import { useNavigate } from 'react-router';
import { validateEmailBody } from '@frontdoor/contract';
import { getAccountType, validateEmail } from '../shared/api.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { PageCard } from '../../ui/PageCard.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useSummaryForm } from '../shared/use-summary-form.tsx';
import styles from '../shared/flow.module.css';
import { useCallError } from '../shared/use-call-error.ts';
import { useConfig } from '../../lib/config.tsx';
import { getRememberedEmail, rememberEmail, startSignIn } from '../../lib/storage.ts';
import type { ShownMessage } from '../shared/shown-message.ts';
import { useProviderSignIn } from '../shared/use-provider-sign-in.ts';
import { nextStepForEmailStatus, signInProviderForAccount } from './email-status.ts';
import { LoginLink } from '../shared/LoginLink.tsx';

const EMAIL_FIELD_ID = 'email-address';

/** /email: the server decides the next screen from the email status (§4). */
export default function EmailPage() {
  const { t } = useTranslation('email');
  const cfg = useConfig();
  const navigate = useNavigate();
  const { failure, messageText } = useCallError();
  const providerSignIn = useProviderSignIn();
  const [callError, setCallError] = useState<ShownMessage | null>(null);
  const { form, errorSummary, fieldError, onSubmit } = useSummaryForm(validateEmailBody, {
    defaultValues: { email: getRememberedEmail() ?? '' },
    fieldIds: { email: EMAIL_FIELD_ID },
    onAttempt: () => setCallError(null),
  });

  const check = useMutation({
    mutationFn: async (email: string) => {
      const step = nextStepForEmailStatus((await validateEmail(cfg, email)).payload);
      // only a 'login' email asks for its sign-in methods; a failed ask (null) keeps the built-in pool
      const account = step.kind === 'sign-in' ? await getAccountType(cfg, email).catch(() => null) : null;
      return { step, account: account?.payload ?? null };
    },
    onSuccess: ({ step, account }, email) => {
      // an unknown status is logged and nothing happens (§4): nothing remembered either
      if (step.kind === 'unknown') {
        console.warn('auth/validateEmail answered an unknown email status', step.status);
        return;
      }
      rememberEmail(email);
      // the login page's Email way, even where the account then signs in at its linked provider
      startSignIn('email');
      switch (step.kind) {
        case 'sign-in':
          providerSignIn.mutate(
            { provider: signInProviderForAccount(account), loginHint: email },
            { onError: showError },
          );
          return;
        case 'navigate':
          navigate(step.to);
          return;
        case 'forgot-password':
          providerSignIn.mutate(
            { provider: 'COGNITO', loginHint: email, target: 'forgot-password' },
            { onError: showError },
          );
          return;
      }
    },
    onError: showError,
  });

  function showError(error: unknown) {
    setCallError(failure(error));
  }

  const pending = check.isPending || providerSignIn.isPending || providerSignIn.isSuccess;
  return (
    <PageCard title={t('title')} lead={t('intro')} footer={<LoginLink>{t('sso_link')}</LoginLink>}>
      {errorSummary}
      {callError && (
        <Alert tone="error" focusKey={callError}>
          {messageText(callError)}
        </Alert>
      )}
      <form
        method="post"
        noValidate
        className={styles.form}
        onSubmit={onSubmit(({ email }) => {
          if (!pending) check.mutate(email);
        })}
      >
        <TextField
          id={EMAIL_FIELD_ID}
          label={t('email_label')}
          type="email"
          autoComplete="email"
          error={fieldError('email')}
          {...form.register('email')}
        />
        <Button type="submit" loading={pending} fullWidth>
          {t('submit')}
        </Button>
      </form>
    </PageCard>
  );
}

import { useState } from 'react';
import { useMutation } from '../../lib/query.ts';
import { useLaterTranslation } from '../../lib/i18n/use-later-translation.ts';
import { useParams } from 'react-router';
import { Link } from '../../ui/Link.tsx';
import { buildForgotPasswordUrl, cognitoLoginBody, lazySchema } from '@frontdoor/contract';
import * as z from 'zod/mini';
import { cognitoLogin } from '../shared/api.ts';
import { goToUrl, postToUrl } from '../shared/browser.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { PageCard } from '../../ui/PageCard.tsx';
import { PasswordField } from '../../ui/PasswordField.tsx';
import { TextField } from '../../ui/TextField.tsx';
import styles from '../shared/flow.module.css';
import { useSummaryForm } from '../shared/use-summary-form.tsx';
import { useCallError } from '../shared/use-call-error.ts';
import { useConfig } from '../../lib/config.tsx';
import { ApiError } from '../../lib/http.ts';
import { getRememberedEmail, rememberEmail } from '../../lib/storage.ts';
import type { ShownMessage } from '../shared/shown-message.ts';
import { LoginLink } from '../shared/LoginLink.tsx';
import { useProviderSignIn } from '../shared/use-provider-sign-in.ts';

const signInForm = lazySchema(() => z.omit(cognitoLoginBody, { uid: true }));
const FIELD_IDS = { email: 'sign-in-email', password: 'sign-in-password' } as const;
const CALL_ERROR_ID = 'sign-in-call-error';

/**
 * /sign-in/:uid: the built-in user pool's password page, reached from the authorization server's
 * interaction; POST cognito/login completes it and the browser follows payload.redirect.
 */
export default function SignInPage() {
  const { t } = useLaterTranslation('signIn');
  const cfg = useConfig();
  const { uid = '' } = useParams();
  const { failure, messageText } = useCallError();
  const [callError, setCallError] = useState<ShownMessage | null>(null);
  // the email this tab's flow holds (the authorization server's redirect names none: its address
  // would stay in a shared computer's history)
  const [knownEmail] = useState(() => getRememberedEmail() ?? '');
  const { form, errorSummary, fieldError, onSubmit } = useSummaryForm(signInForm, {
    defaultValues: { email: knownEmail, password: '' },
    fieldIds: FIELD_IDS,
    onAttempt: () => setCallError(null),
  });
  const login = useMutation({
    mutationFn: (values: z.output<typeof signInForm>) => cognitoLogin(cfg, { ...values, uid }),
    onSuccess: ({ payload }, values) => {
      // a must-reset account goes on to /forgot-password, which reads the address from this tab
      rememberEmail(values.email);
      goToUrl(payload.redirect);
    },
    onError: (error, values) => {
      const message = failure(error);
      if (!message) return;
      if (error instanceof ApiError && error.code === 'userNotConfirmed') rememberEmail(values.email);
      setCallError(message);
    },
  });
  // a step past its hour (or used in another tab) is gone: a new one starts from this tab's sign-in
  const restart = useProviderSignIn();
  const email = form.watch<string>('email');
  const pending = login.isPending || login.isSuccess;
  // 'Incorrect username or password.' refuses what was typed: both fields point to it (aria-invalid)
  const refusalId =
    callError && 'code' in callError && callError.code === 'incorrectCredentials' ? CALL_ERROR_ID : undefined;
  return (
    <PageCard title={t('title')} footer={<LoginLink>{t('other_methods')}</LoginLink>}>
      {errorSummary}
      {callError && (
        <Alert tone="error" id={CALL_ERROR_ID} focusKey={callError}>
          <p>{messageText(callError)}</p>
          {'code' in callError && callError.code === 'userNotConfirmed' && (
            <Link to="/send-verification-code">{t('verify_link')}</Link>
          )}
          {'code' in callError && callError.code === 'stateInvalid' && (
            <Button
              loading={restart.isPending || restart.isSuccess}
              onClick={() =>
                restart.mutate(
                  { provider: 'COGNITO', loginHint: email.trim() || undefined },
                  { onError: (error) => setCallError(failure(error)) },
                )
              }
            >
              {t('start_again')}
            </Button>
          )}
        </Alert>
      )}
      <form
        method="post"
        noValidate
        className={styles.form}
        onSubmit={onSubmit((values) => {
          if (!pending) login.mutate(values);
        })}
      >
        <TextField
          id={FIELD_IDS.email}
          label={t('email_label')}
          type="email"
          autoComplete="username"
          error={fieldError('email')}
          refusalId={refusalId}
          {...form.register('email')}
        />
        <PasswordField
          id={FIELD_IDS.password}
          label={t('password_label')}
          autoComplete="current-password"
          // the email came with the page (/email's hint): the password is the first thing to type
          autoFocus={knownEmail.trim() !== ''}
          error={fieldError('password')}
          refusalId={refusalId}
          {...form.register('password')}
        />
        <p>
          {/* the forgotPassword url mails the reset code for the typed email (state = this interaction),
              sent as a POST: its address stays out of the history, and in this tab for the next page */}
          <a
            href={buildForgotPasswordUrl(cfg, uid, email.trim())}
            onClick={(event) => {
              event.preventDefault();
              rememberEmail(email.trim());
              postToUrl(event.currentTarget.href);
            }}
          >
            {t('forgot')}
          </a>
        </p>
        <Button type="submit" loading={pending} fullWidth>
          {t('submit')}
        </Button>
      </form>
    </PageCard>
  );
}

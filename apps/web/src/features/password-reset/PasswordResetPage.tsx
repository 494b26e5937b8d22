import { useMemo, useState } from 'react';
import { useMutation } from '../../lib/query.ts';
import { useLaterTranslation } from '../../lib/i18n/use-later-translation.ts';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import * as z from 'zod/mini';
import { containsPersonalWord, errorCode, passwordSchema } from '@frontdoor/contract';
import { resetPassword, sendReset } from '../shared/api.ts';
import { confirmPwSchema, withConfirmation } from '../shared/confirmation.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { PageCard } from '../../ui/PageCard.tsx';
import styles from '../shared/flow.module.css';
import { NewPasswordFields } from '../shared/form.tsx';
import { useSummaryForm } from '../shared/use-summary-form.tsx';
import { passwordRefusalOf } from '../shared/messages.ts';
import { useCallError } from '../shared/use-call-error.ts';
import { resetFailureOf } from './reset-failure.ts';
import { useConfig } from '../../lib/config.tsx';
import { ApiError } from '../../lib/http.ts';
import type { ShownMessage } from '../shared/shown-message.ts';
import { useProviderSignIn } from '../shared/use-provider-sign-in.ts';
import { LoginLink } from '../shared/LoginLink.tsx';
import { recordCodeSent } from '../shared/code-sent.ts';
import { emailParam } from '../shared/email-param.ts';
import { getRememberedEmail } from '../../lib/storage.ts';

/** The §5 rules, and no part of the email in the password (the server also checks the names). */
const resetFormFor = (email: string) =>
  withConfirmation(z.object({ pw: passwordSchema, confirmPw: confirmPwSchema })).check(
    z.refine(
      (form) => !containsPersonalWord(form.pw, { email }),
      errorCode('passwordPersonal', { path: ['pw'] }),
    ),
  );
type ResetForm = z.infer<ReturnType<typeof resetFormFor>>;
const FIELD_IDS = { pw: 'reset-password', confirmPw: 'reset-confirm' } as const;

/**
 * The code /forgot-password hands on: in the navigation's state, never in the address, which a shared
 * device's history keeps for the next person (the code resets the password for an hour). Its address
 * is the one this tab remembers (§2's remembered email), never in the URL either.
 */
export interface ResetCodeState {
  code: string;
}
const codeOf = (state: unknown): string | null =>
  typeof state === 'object' && state !== null && typeof (state as ResetCodeState).code === 'string'
    ? (state as ResetCodeState).code
    : null;

/**
 * /password-reset?code&email: 'Reset your password'. Either param missing, or an email that is no
 * address (emailParam) → /email (§2); the code may also come in the navigation's state (from
 * /forgot-password), and then the email is the tab's remembered one.
 */
export default function PasswordResetPage() {
  const { t } = useLaterTranslation('passwordReset');
  const cfg = useConfig();
  const { failure: callFailure, messageText } = useCallError();
  const signIn = useProviderSignIn();
  const [params] = useSearchParams();
  const { state } = useLocation();
  const handedCode = codeOf(state);
  const code = params.get('code') ?? handedCode;
  const email = emailParam(params) ?? (handedCode === null ? null : getRememberedEmail());
  const [failure, setFailure] = useState<{
    message: ShownMessage;
    /** the code was refused: offer a new one */
    offerNewCode: boolean;
    /** the password was changed but the sign-in could not start: the way on is the login page */
    offerSignIn?: boolean;
  } | null>(null);
  const [resent, setResent] = useState(false);
  const resetForm = useMemo(() => resetFormFor(email ?? ''), [email]);
  const summaryForm = useSummaryForm(resetForm, {
    defaultValues: { pw: '', confirmPw: '' },
    fieldIds: FIELD_IDS,
    long: true,
    onAttempt: () => {
      setFailure(null);
      setResent(false);
    },
  });
  const { form, errorSummary, onSubmit } = summaryForm;

  const reset = useMutation({
    mutationFn: (values: ResetForm) => resetPassword(cfg, { un: email ?? '', code: code ?? '', ...values }),
    onSuccess: () =>
      signIn.mutate(
        { provider: 'COGNITO', loginHint: email ?? undefined },
        {
          onError: (error) => {
            const message = callFailure(error);
            if (message) setFailure({ message, offerNewCode: false, offerSignIn: true });
          },
        },
      ),
    onError: (error) => {
      // a timeout or a 5xx has its error page; no answer at all (the Wi-Fi dropped) is said here, the
      // passwords kept
      const shown = callFailure(error);
      if (!shown) return;
      if (!(error instanceof ApiError)) return setFailure({ message: shown, offerNewCode: false });
      const refusal = passwordRefusalOf(error);
      if (refusal) {
        form.setError('pw', { message: refusal }, { shouldFocus: true });
        return;
      }
      setFailure(resetFailureOf(error));
    },
  });
  const requestNewCode = useMutation({
    mutationFn: () => sendReset(cfg, email ?? ''),
    onSuccess: () => {
      recordCodeSent('reset', email ?? '');
      setFailure(null);
      setResent(true);
    },
    onError: (error) => {
      const message = callFailure(error);
      if (message) setFailure({ message, offerNewCode: true });
    },
  });

  if (!code || !email) return <Navigate to="/email" replace />;
  const pending = reset.isPending || reset.isSuccess;
  return (
    <PageCard title={t('title')} lead={t('intro', { email })}>
      {errorSummary}
      {failure && (
        <Alert tone="error" focusKey={failure}>
          <p>{messageText(failure.message)}</p>
          {failure.offerNewCode && (
            <Button variant="link" loading={requestNewCode.isPending} onClick={() => requestNewCode.mutate()}>
              {messageText({ code: 'requestNewVerificationCode' })}
            </Button>
          )}
          {failure.offerSignIn && <LoginLink>{t('reset_done_sign_in')}</LoginLink>}
        </Alert>
      )}
      {resent && <Alert tone="success">{messageText({ code: 'resetResendSuccess' })}</Alert>}
      <form
        method="post"
        noValidate
        className={styles.form}
        onSubmit={onSubmit((values) => {
          if (!pending) reset.mutate(values);
        })}
      >
        {/* lets the password manager file the new password under this account */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <NewPasswordFields ids={FIELD_IDS} t={t} fields={summaryForm} />
        <Button type="submit" loading={pending} fullWidth>
          {t('submit')}
        </Button>
      </form>
    </PageCard>
  );
}

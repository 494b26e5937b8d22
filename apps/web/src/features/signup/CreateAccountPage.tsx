import { useEffect, useState } from 'react';
import { useMutation, useQuery } from '../../lib/query.ts';
import { useTranslation } from '../../lib/i18n/use-translation.tsx';
import { useNavigate, useParams } from 'react-router';
import { DESCRIPTIONS, NAME_MAX_LENGTH, stripParenthesised } from '@frontdoor/contract';
import { getInviteEmail, signup } from '../shared/api.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { PageCard } from '../../ui/PageCard.tsx';
import { RadioGroup } from '../../ui/RadioGroup.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { TextField } from '../../ui/TextField.tsx';
import styles from '../shared/flow.module.css';
import { NewPasswordFields } from '../shared/form.tsx';
import { passwordRefusalOf } from '../shared/messages.ts';
import { useCallError } from '../shared/use-call-error.ts';
import { useConfig } from '../../lib/config.tsx';
import { getRememberedEmail, rememberEmail } from '../../lib/storage.ts';
import type { ShownMessage } from '../shared/shown-message.ts';
import { useLoginParams } from '../shared/use-login-params.ts';
import { signupForm } from './signup-form.ts';
import type { SignupFormOutput } from './signup-form.ts';
import { useSummaryForm } from '../shared/use-summary-form.tsx';
import { LoginLink } from '../shared/LoginLink.tsx';
import type { CodeSentState } from '../shared/code-sent.ts';
import { formDraft } from '../shared/form-draft.ts';

/** Control ids in form order: the error summary links to them. */
const FIELD_IDS = {
  first: 'signup-first',
  last: 'signup-last',
  email: 'signup-email',
  pw: 'signup-password',
  confirmPw: 'signup-confirm',
  description: 'signup-description',
} as const;

/**
 * The sign-up whose call went to an error page (a timeout, a 5xx), but its password: that page's Go
 * back shows it again (per invite code, whose email the invite sets).
 */
const draft = formDraft<Pick<SignupFormOutput, 'first' | 'last' | 'email' | 'description'>>();

/** /create-account, /create-account/{csrf} and /invite/{code}: 'Create account with Email' (§5). */
export default function CreateAccountPage() {
  const { t } = useTranslation('signup');
  const cfg = useConfig();
  const navigate = useNavigate();
  const { failure, message, messageText, onFatal } = useCallError();
  const { code: inviteCode } = useParams();
  const loginParams = useLoginParams();
  const [callError, setCallError] = useState<ShownMessage | null>(null);
  // read once; only while the tab still remembers its address: a login page opened since (the next
  // person on a shared device) forgot it, and with it this draft
  const [kept] = useState(() => {
    const taken = draft.take(inviteCode);
    return taken && taken.email === getRememberedEmail() ? taken : undefined;
  });
  const summaryForm = useSummaryForm(signupForm, {
    defaultValues: {
      first: kept?.first ?? '',
      last: kept?.last ?? '',
      email: kept?.email ?? getRememberedEmail() ?? '',
      pw: '',
      confirmPw: '',
      description: kept?.description,
    },
    fieldIds: FIELD_IDS,
    long: true,
    onAttempt: () => setCallError(null),
  });
  const { form, errorSummary, fieldError, onSubmit } = summaryForm;
  const description = form.field<string | undefined>('description');

  const invite = useQuery({
    queryKey: ['inviteEmail', inviteCode],
    queryFn: () => getInviteEmail(cfg, inviteCode ?? ''),
    enabled: Boolean(inviteCode),
    staleTime: Infinity,
  });
  const { setValue } = form;
  useEffect(() => {
    if (invite.data) setValue('email', invite.data.payload.email);
  }, [invite.data, setValue]);
  useEffect(() => {
    if (invite.error) onFatal(invite.error);
  }, [invite.error, onFatal]);

  const create = useMutation({
    mutationFn: (values: SignupFormOutput) =>
      signup(cfg, {
        first: values.first,
        last: values.last,
        email: values.email,
        pw: values.pw,
        description: values.description,
        // a link not valid (shown above the form) makes this a plain sign-up, not a refusal repeated
        ...(inviteCode && !invite.error ? { code: inviteCode } : {}),
      }),
    onSuccess: (_answer, values) => {
      draft.clear();
      rememberEmail(values.email);
      navigate('/code', { state: { codeSentAt: Date.now() } satisfies CodeSentState });
    },
    onError: (error, values) => {
      // §8: a network error shows its own message (failure's networkError)
      const shown = failure(error);
      if (!shown) {
        // gone to /error-timeout or /error-generic: their Go back shows it again
        const { first, last, email, description } = values;
        draft.save({ first, last, email, description }, inviteCode);
        rememberEmail(email);
        return;
      }
      const refusal = passwordRefusalOf(error);
      if (refusal) {
        form.setError('pw', { message: refusal }, { shouldFocus: true });
        return;
      }
      // §8: the server msg with any parenthesised parts removed; a code's message is that msg without them
      const text = 'text' in shown ? stripParenthesised(shown.text) : undefined;
      setCallError(text === undefined ? shown : text ? { text } : { code: 'unknownError' });
    },
  });

  const pending = create.isPending || create.isSuccess;
  const inviteError = invite.error ? message(invite.error, 'inviteNotFound') : null;
  // the link opened again after its sign-up: the account exists, and the footer's Sign in goes on
  // from it (to the verification of its address when that is still to come)
  const inviteAccepted =
    inviteError !== null && 'code' in inviteError && inviteError.code === 'inviteAccepted';

  return (
    <PageCard
      title={t('title')}
      lead={inviteCode && !inviteError ? t('invite_intro') : undefined}
      footer={
        <>
          {t('have_account')} <LoginLink>{t('sign_in')}</LoginLink>
        </>
      }
    >
      {invite.isLoading && <Spinner label={t('loading_invite')} showLabel />}
      {inviteError && <Alert tone={inviteAccepted ? 'info' : 'error'}>{messageText(inviteError)}</Alert>}
      {loginParams.error && <Alert tone="error">{messageText(loginParams.error)}</Alert>}
      {!inviteAccepted && (
        <>
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
            onSubmit={onSubmit((values) => {
              if (!pending) create.mutate(values);
            })}
          >
            <TextField
              id={FIELD_IDS.first}
              label={t('first_label')}
              autoComplete="given-name"
              maxLength={NAME_MAX_LENGTH}
              error={fieldError('first')}
              {...form.register('first')}
            />
            <TextField
              id={FIELD_IDS.last}
              label={t('last_label')}
              autoComplete="family-name"
              maxLength={NAME_MAX_LENGTH}
              error={fieldError('last')}
              {...form.register('last')}
            />
            <TextField
              id={FIELD_IDS.email}
              label={t('email_label')}
              type="email"
              autoComplete="email"
              readOnly={Boolean(invite.data)}
              error={fieldError('email')}
              {...form.register('email')}
            />
            <NewPasswordFields ids={FIELD_IDS} t={t} fields={summaryForm} />
            <RadioGroup
              id={FIELD_IDS.description}
              legend={t('description_label')}
              name={description.name}
              value={description.value}
              onValueChange={description.onChange}
              options={DESCRIPTIONS.map((value) => ({ value, label: t(`description_${value}`) }))}
              error={fieldError('description')}
            />
            <Button type="submit" loading={pending} fullWidth>
              {t('submit')}
            </Button>
          </form>
        </>
      )}
    </PageCard>
  );
}

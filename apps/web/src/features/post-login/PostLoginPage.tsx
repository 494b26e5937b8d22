import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { useMutation, useQuery } from '../../lib/query.ts';
import { useLaterTranslation } from '../../lib/i18n/use-later-translation.ts';
import { EMAIL_PREFERENCES } from '@frontdoor/contract';
import { getStoredSubscriptions, saveSubscriptions, setBasicUserRole } from '../shared/api.ts';
import { goToUrl } from '../shared/browser.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { PageCard } from '../../ui/PageCard.tsx';
import { RadioGroup } from '../../ui/RadioGroup.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import styles from '../shared/flow.module.css';
import { useCallError } from '../shared/use-call-error.ts';
import type { ShownMessage } from '../shared/shown-message.ts';
import { useConfig } from '../../lib/config.tsx';
import { sessionQueryOptions } from '../../lib/session.ts';
import { chooseReturnUrl } from '../shared/return-url.ts';
import { useLoginParams } from '../shared/use-login-params.ts';
import { clearLoginData, confirmSignIn } from '../../lib/storage.ts';
import { NO_PREFERENCES, buildSubscriptionChanges, preferencesOf } from './subscription-changes.ts';
import type { EmailPreferences } from './subscription-changes.ts';
import { LoginLink } from '../shared/LoginLink.tsx';
import { useStepArrival } from '../../shell/page-arrival.tsx';

const STUDENT_QUESTION_ID = 'student-question';

/**
 * /post-login and /post-login/{csrf}: 'Loading' first, then 'Are you a Student?' (teachers skip it),
 * then the email preferences; every path ends at the return url (§4).
 */
export default function PostLoginPage() {
  const { t } = useLaterTranslation('postLogin');
  const cfg = useConfig();
  const { failure, messageText } = useCallError();
  const { loading, loginParams, error } = useLoginParams();
  // asked afresh: a bookmarked or shared /post-login, opened by no one signed in, says so at once,
  // not only after the question, whose answer it cannot save
  const visitor = useQuery({ ...sessionQueryOptions(cfg), staleTime: 0 }).data?.loggedin === false;
  const [answer, setAnswer] = useState<'yes' | 'no' | null>(null);
  const [unanswered, setUnanswered] = useState(false);
  const [step, setStep] = useState<'student' | 'preferences'>('student');
  // read while 'Loading' shows, beside the login params: the boxes start from what is stored, so that
  // Done unsubscribes only what the person unticked; asked afresh on each opening (another sign-in may
  // have changed it). Unread (a failure), they start unticked and Done only adds (buildSubscriptionChanges).
  const storedQuery = useQuery({
    queryKey: ['storedSubscriptions'],
    queryFn: () => getStoredSubscriptions(cfg),
    gcTime: 0,
  });
  const stored = storedQuery.data ? preferencesOf(storedQuery.data.payload.subscriptions) : null;
  // null until the person ticks or unticks a box: the boxes show the stored state until then
  const [edited, setEdited] = useState<EmailPreferences | null>(null);
  const preferences = edited ?? stored ?? NO_PREFERENCES;
  const [callError, setCallError] = useState<ShownMessage | null>(null);
  const returnUrl = chooseReturnUrl(loginParams, cfg);
  // the sign-in request is over: the device may be the next person's
  const leave = () => {
    clearLoginData();
    goToUrl(returnUrl);
  };
  // the server sends a browser here only once it is signed in: the tab's sign-in method succeeded
  useEffect(() => confirmSignIn(), []);
  // the preferences replace the question in place: without this the focus stays on the submit
  // button, now 'Done', below the checkboxes (WCAG 2.4.3)
  const arriveAtStep = useStepArrival();
  useEffect(() => {
    if (step === 'preferences') arriveAtStep();
  }, [step, arriveAtStep]);

  const setRole = useMutation({
    mutationFn: (isStudent: boolean) => setBasicUserRole(cfg, isStudent),
    onSuccess: (_answer, isStudent) => {
      if (isStudent) leave();
      else setStep('preferences');
    },
    onError: showError,
  });
  const save = useMutation({
    mutationFn: async (prefs: EmailPreferences) => {
      const subscriptionChanges = buildSubscriptionChanges(prefs, stored);
      if (subscriptionChanges) await saveSubscriptions(cfg, subscriptionChanges);
    },
    onSuccess: leave,
    onError: showError,
  });

  function showError(error: unknown) {
    setCallError(failure(error));
  }

  if (loading || storedQuery.isPending) {
    return (
      <PageCard title={t('loading')}>
        <Spinner label={t('loading')} />
      </PageCard>
    );
  }
  const shown: ShownMessage | null = callError ?? error ?? (visitor ? { code: 'notSignedIn' } : null);
  // a session that has ended (notSignedIn) cannot save the answer: the way on is signing in again
  const errorNotice = shown && (
    <Alert tone="error" focusKey={callError ?? undefined}>
      <p>{messageText(shown)}</p>
      {'code' in shown && shown.code === 'notSignedIn' && <LoginLink>{t('sign_in_again')}</LoginLink>}
    </Alert>
  );

  if (step === 'preferences' || loginParams?.isTeacher) {
    const pending = save.isPending || save.isSuccess;
    return (
      <PageCard title={t('preferences_title')} lead={t('preferences_intro')}>
        {errorNotice}
        {/* the boxes then show no stored choice: saying so keeps them from reading as the person's */}
        {storedQuery.isError && !visitor && !shown && <Alert tone="info">{t('preferences_unread')}</Alert>}
        <form
          method="post"
          className={styles.form}
          onSubmit={(event) => {
            event.preventDefault();
            setCallError(null);
            if (!pending) save.mutate(preferences);
          }}
        >
          <div role="group" aria-label={t('preferences_intro')}>
            {EMAIL_PREFERENCES.map((pref) => (
              <Checkbox
                key={pref}
                name={pref}
                label={t(`pref_${pref}`)}
                checked={preferences[pref]}
                onCheckedChange={(checked) => setEdited((p) => ({ ...(p ?? preferences), [pref]: checked }))}
              />
            ))}
          </div>
          <Button type="submit" loading={pending} fullWidth>
            {t('done')}
          </Button>
        </form>
      </PageCard>
    );
  }

  const pending = setRole.isPending || setRole.isSuccess;
  return (
    <PageCard title={t('student_question')}>
      {errorNotice}
      <form
        method="post"
        className={styles.form}
        onSubmit={(event) => {
          event.preventDefault();
          if (!answer) {
            // read where the focus lands: the question's first choice, which the refusal describes
            flushSync(() => setUnanswered(true));
            document.getElementById(STUDENT_QUESTION_ID)?.focus();
            return;
          }
          setCallError(null);
          if (!pending) setRole.mutate(answer === 'yes');
        }}
      >
        <RadioGroup
          id={STUDENT_QUESTION_ID}
          legend={t('student_question')}
          hideLegend
          name="student"
          value={answer ?? undefined}
          onValueChange={(value) => setAnswer(value === 'yes' ? 'yes' : 'no')}
          options={[
            { value: 'yes', label: t('yes') },
            { value: 'no', label: t('no') },
          ]}
          error={unanswered && !answer ? t('choose_answer') : undefined}
        />
        <Button type="submit" loading={pending} fullWidth>
          {t('next')}
        </Button>
      </form>
    </PageCard>
  );
}

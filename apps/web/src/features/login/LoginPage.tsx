import { Suspense, lazy, useState } from 'react';
import { useTranslation } from '../../lib/i18n/use-translation.tsx';
import { Link } from '../../ui/Link.tsx';
import { LOGIN_BUTTON_PROVIDERS, PROVIDER_DISPLAY_NAMES } from '@frontdoor/contract';
import type { UpstreamProvider } from '@frontdoor/contract';
import { Alert } from '../../ui/Alert.tsx';
import { Button, buttonClassName } from '../../ui/Button.tsx';
import { PageCard } from '../../ui/PageCard.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import styles from '../shared/flow.module.css';
import { useCallError } from '../shared/use-call-error.ts';
import { useConfig } from '../../lib/config.tsx';
import type { ShownMessage } from '../shared/shown-message.ts';
import { useLoginParams } from '../shared/use-login-params.ts';
import { useProviderSignIn } from '../shared/use-provider-sign-in.ts';
import { forgetEmail, startSignIn } from '../../lib/storage.ts';
import { useLastUsed } from './LastUsed.tsx';
import { ProviderIcon } from './ProviderIcon.tsx';
import { SignedInNotice } from './SignedInNotice.tsx';

// the work/school modal (its form, zod schema and dialog) is downloaded when the Microsoft button asks for it
const loadWorkEmailDialog = () => import('./WorkEmailDialog.tsx');
const WorkEmailDialog = lazy(async () => ({ default: (await loadWorkEmailDialog()).WorkEmailDialog }));

/** /log-in, /log-in/{csrf} and every unknown path: one button per external provider, email, class code. */
export default function LoginPage() {
  const { t } = useTranslation('login');
  const cfg = useConfig();
  const { failure, messageText } = useCallError();
  const { loading, error: paramsError } = useLoginParams();
  const signIn = useProviderSignIn();
  const [workEmailOpen, setWorkEmailOpen] = useState(false);
  const [workEmailAsked, setWorkEmailAsked] = useState(false);
  const [callError, setCallError] = useState<ShownMessage | null>(null);
  const leaving = signIn.isPending || signIn.isSuccess;
  const lastUsed = useLastUsed();
  // a sign-in starts here: an address this tab remembers is a flow left unfinished, on a shared
  // device the last person's, which /email would otherwise show the next one
  useState(forgetEmail);

  const start = (provider: UpstreamProvider, loginHint?: string) => {
    if (leaving) return;
    setCallError(null);
    // the work/school modal's personal-account answer is still the Microsoft button
    startSignIn(provider === 'MicrosoftPersonal' ? 'Microsoft' : provider);
    signIn.mutate(
      { provider, loginHint },
      {
        onError: (error) => setCallError(failure(error)),
      },
    );
  };

  return (
    <PageCard
      title={t('heading')}
      lead={t('subheading')}
      footer={
        <>
          <p>
            <Link to="/access-code" {...lastUsed.props('classCode')}>
              {t('access_code_link')}
              {lastUsed.badge('classCode', 'overText')}
            </Link>
          </p>
          <p>
            {t('contact_prompt')} <a href={cfg.siteUrls.contactUs}>{t('contact_us')}</a>
          </p>
        </>
      }
    >
      <SignedInNotice />
      {paramsError && <Alert tone="error">{messageText(paramsError)}</Alert>}
      {callError && (
        <Alert tone="error" focusKey={callError}>
          {messageText(callError)}
        </Alert>
      )}
      {loading && <Spinner label={t('loading_params')} showLabel />}
      <ul className={styles.stack} aria-label={t('providers_label')}>
        {LOGIN_BUTTON_PROVIDERS.map((provider) => (
          <li key={provider}>
            <Button
              variant="secondary"
              fullWidth
              {...lastUsed.props(provider, styles.providerButton)}
              loading={leaving && signIn.variables?.provider === provider}
              disabled={loading || leaving}
              onPointerEnter={provider === 'Microsoft' ? () => void loadWorkEmailDialog() : undefined}
              onClick={() => {
                if (provider !== 'Microsoft') return start(provider);
                setWorkEmailAsked(true);
                setWorkEmailOpen(true);
              }}
            >
              <ProviderIcon provider={provider} />
              {t('continue_with', { provider: PROVIDER_DISPLAY_NAMES[provider] })}
              {lastUsed.badge(provider)}
            </Button>
          </li>
        ))}
      </ul>
      <p className={styles.divider}>{t('or')}</p>
      <Link to="/email" {...lastUsed.props('email', buttonClassName('primary', true))}>
        {t('continue_with_email')}
        {lastUsed.badge('email')}
      </Link>
      {workEmailAsked && (
        <Suspense fallback={null}>
          <WorkEmailDialog
            open={workEmailOpen}
            onOpenChange={setWorkEmailOpen}
            busy={leaving}
            onProvider={(provider, email) => start(provider, email)}
          />
        </Suspense>
      )}
    </PageCard>
  );
}

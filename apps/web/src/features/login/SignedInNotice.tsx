import { useState } from 'react';
import { useParams } from 'react-router';
import { useMutation, useQueryClient } from '../../lib/query.ts';
import { useTranslation } from '../../lib/i18n/use-translation.tsx';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { cognitoLogout } from '../shared/api.ts';
import { useCallError } from '../shared/use-call-error.ts';
import { useConfig } from '../../lib/config.tsx';
import { sessionQueryKey, useSession } from '../../lib/session.ts';
import type { ShownMessage } from '../shared/shown-message.ts';
import type { Session } from '@frontdoor/contract';
import { clearLoginData, forgetEmail } from '../../lib/storage.ts';
import styles from './SignedInNotice.module.css';

/**
 * While a session is set (auth/sig loggedin), says who is signed in (and whom an administrator is
 * acting as, while masquerading) and offers Sign out:
 * GET cognito/logout, then the session is fetched again so the notice goes away. A failed sign-out
 * fetches it again too: a lost answer may have ended the session all the same.
 */
export function SignedInNotice() {
  const { t } = useTranslation('login');
  const cfg = useConfig();
  const queryClient = useQueryClient();
  const { failure, messageText } = useCallError();
  const session = useSession();
  const { csrf: routeCsrf } = useParams();
  const [shownError, setShownError] = useState<ShownMessage | null>(null);
  /**
   * A shared device: the next person's /email must not be filled with this one's address, nor their
   * post-login run with this one's sign-in request (unless it is the one on screen, the login page of
   * a product's request, which the next person is about to use).
   */
  const forgetSignedOut = () => {
    forgetEmail();
    if (!routeCsrf) clearLoginData();
  };
  const signOut = useMutation({
    mutationFn: () => cognitoLogout(cfg),
    onSuccess: () => {
      forgetSignedOut();
      // returned so the button stays busy until the fresh session has arrived
      return queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
    onError: async (error) => {
      // §8: a network failure says so (a timeout, a 5xx go to their pages)
      setShownError(failure(error));
      // the server may have ended the session before its answer was lost: the notice follows it
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      if (queryClient.getQueryState<Session>(sessionQueryKey)?.data?.loggedin === false) forgetSignedOut();
    },
  });
  if (!session.data?.loggedin) return null;
  const { user, masq } = session.data.payload.signature;
  return (
    <>
      <div role="status" className={styles.notice}>
        <p className={styles.who}>
          {t('signed_in_as', { first: user.first, last: user.last, email: user.email })}
        </p>
        {/* an administrator masquerading: the portal acts as this user (role checks use it) */}
        {masq && (
          <p className={styles.who}>
            {t('acting_as', { first: masq.first, last: masq.last, email: masq.email })}
          </p>
        )}
        <Button
          variant="secondary"
          loading={signOut.isPending}
          onClick={() => {
            setShownError(null);
            signOut.mutate();
          }}
        >
          {t('sign_out')}
        </Button>
      </div>
      {shownError && <Alert tone="error">{messageText(shownError)}</Alert>}
    </>
  );
}

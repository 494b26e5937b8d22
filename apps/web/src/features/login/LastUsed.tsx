import { useId, useSyncExternalStore } from 'react';
import { useTranslation } from '../../lib/i18n/use-translation.tsx';
import type { SignInMethod } from '@frontdoor/contract';
import { getLastSignInMethod } from '../../lib/storage.ts';
import styles from './LastUsed.module.css';

/** Another tab's sign-in changes the marker too. */
function subscribe(onChange: () => void): () => void {
  window.addEventListener('storage', onChange);
  return () => window.removeEventListener('storage', onChange);
}

/**
 * The 'Last used' marker of the login page: which method this device last signed in with, never who.
 * Read only in the browser after hydration (server snapshot null), so a prerendered page and its
 * first client render agree. The badge is out of the flow, so showing it moves nothing; it is hidden
 * from the button's name and announced as its description instead.
 */
export function useLastUsed() {
  const { t } = useTranslation('login');
  const id = useId();
  const last = useSyncExternalStore(subscribe, getLastSignInMethod, () => null);
  return {
    /** A method's button or link: a box the badge is placed in, described by the badge when shown. */
    props: (method: SignInMethod, className?: string) => ({
      className: [className, styles.anchor].filter(Boolean).join(' '),
      'aria-describedby': method === last ? id : undefined,
    }),
    /** `overText` for a text link, else it sits on the top edge of its button. */
    badge: (method: SignInMethod, placement: 'edge' | 'overText' = 'edge') =>
      method === last ? (
        <span
          id={id}
          className={placement === 'overText' ? `${styles.badge} ${styles.overText}` : styles.badge}
          aria-hidden="true"
        >
          {t('last_used')}
        </span>
      ) : null,
  };
}

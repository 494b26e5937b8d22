import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from '../lib/i18n/use-translation.tsx';
import { SNACK_BAR_ANIMATION_MS, SNACK_BAR_DEFAULT_DURATION_MS } from '@frontdoor/contract';
import { useHydrated } from '../lib/hydrated.ts';
import { CloseIcon } from './icons.tsx';
import styles from './Feedback.module.css';

interface Snack {
  id: number;
  message: ReactNode;
  durationMs: number;
}

export interface SnackBarApi {
  /** Shows a short message at the bottom of the page for durationMs (default from the contract). */
  show(message: ReactNode, options?: { durationMs?: number }): void;
}

const SnackBarContext = createContext<SnackBarApi | null>(null);

export function useSnackBar(): SnackBarApi {
  const api = useContext(SnackBarContext);
  if (!api) throw new Error('useSnackBar() used outside <SnackBarProvider>');
  return api;
}

/**
 * Holds the one snack bar of the page. The region (role=status) is always in the DOM so screen
 * readers announce a message as soon as it is put in it; a new message replaces the previous one.
 */
export function SnackBarProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  const [snack, setSnack] = useState<Snack | null>(null);
  // a new id per message restarts the animation and the timer even for the same text
  const nextId = useRef(0);
  const show = useCallback<SnackBarApi['show']>((message, options) => {
    nextId.current += 1;
    setSnack({
      id: nextId.current,
      message,
      durationMs: options?.durationMs ?? SNACK_BAR_DEFAULT_DURATION_MS,
    });
  }, []);
  useEffect(() => {
    if (!snack) return;
    const timer = setTimeout(() => setSnack(null), snack.durationMs);
    return () => clearTimeout(timer);
  }, [snack]);
  const api = useMemo(() => ({ show }), [show]);
  const hydrated = useHydrated();
  const timing = { '--fd-snack-ms': `${SNACK_BAR_ANIMATION_MS}ms` } as CSSProperties;
  return (
    <SnackBarContext.Provider value={api}>
      {children}
      <div
        className={styles.snackRegion}
        role="status"
        aria-live="polite"
        style={hydrated ? timing : undefined}
      >
        {snack && (
          <div className={styles.snack} key={snack.id}>
            <span>{snack.message}</span>
            <button
              type="button"
              className={styles.dismiss}
              aria-label={t('dismiss')}
              onClick={() => setSnack(null)}
            >
              <CloseIcon />
            </button>
          </div>
        )}
      </div>
    </SnackBarContext.Provider>
  );
}

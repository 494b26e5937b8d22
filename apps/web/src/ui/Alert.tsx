import { useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from '../lib/i18n/use-translation.tsx';
import { useAnnounce } from './announce.ts';
import { CloseIcon } from './icons.tsx';
import styles from './Feedback.module.css';
import { useTakeFocus } from './take-focus.ts';

export type AlertTone = 'error' | 'success' | 'info' | 'warning';

export interface AlertProps {
  tone?: AlertTone;
  children: ReactNode;
  /** When set, the alert closes itself after this many ms (then onClose runs). */
  durationMs?: number;
  /** When set, a dismiss button is shown. */
  onClose?: () => void;
  className?: string;
  /** Lets a field name this message as the refusal of its value (FieldMessages.refusalId). */
  id?: string;
  /**
   * A form's refusal from the server (the refusal itself: a new one per failed call): the alert takes
   * the focus each time it changes, as the error summary does, so it comes into view above a long form.
   */
  focusKey?: unknown;
}

/**
 * What a screen reader is told of each tone: an error interrupts (alert), success and warning are
 * announced politely (status), and an info notice is plain text read with the page.
 */
const ROLES: Record<AlertTone, 'alert' | 'status' | undefined> = {
  error: 'alert',
  success: 'status',
  warning: 'status',
  info: undefined,
};

/**
 * An inline message (announced as its tone says: ROLES, a polite one through the shell's region when
 * there is one), optionally self-closing after durationMs, optionally taking the focus (focusKey).
 */
export function Alert({
  tone = 'error',
  children,
  durationMs,
  onClose,
  className,
  id,
  focusKey,
}: AlertProps) {
  const { t } = useTranslation('common');
  const [open, setOpen] = useState(true);
  const ref = useTakeFocus<HTMLDivElement>(focusKey);
  const announce = useAnnounce();
  // a polite notice is read by the shell's region (AnnounceContext), once per text it shows
  const relayed = ROLES[tone] === 'status' && announce !== null;
  const spoken = useRef('');
  useEffect(() => {
    const text = (relayed && open && ref.current?.textContent) || '';
    if (text && text !== spoken.current) announce?.(text);
    spoken.current = text;
  });
  // the latest onClose, so a parent re-render does not restart the timer
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);
  useEffect(() => {
    if (durationMs === undefined) return;
    const timer = setTimeout(() => {
      setOpen(false);
      onCloseRef.current?.();
    }, durationMs);
    return () => clearTimeout(timer);
  }, [durationMs]);
  if (!open) return null;
  return (
    <div
      ref={ref}
      id={id}
      role={relayed ? undefined : ROLES[tone]}
      tabIndex={focusKey === undefined ? undefined : -1}
      className={[styles.alert, styles[tone], className].filter(Boolean).join(' ')}
    >
      <div className={styles.body}>{children}</div>
      {onClose && (
        <button type="button" className={styles.dismiss} aria-label={t('dismiss')} onClick={onClose}>
          <CloseIcon />
        </button>
      )}
    </div>
  );
}

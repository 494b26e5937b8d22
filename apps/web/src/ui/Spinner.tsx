import { useTranslation } from '../lib/i18n/use-translation.tsx';
import styles from './Feedback.module.css';

/** A progress wheel with a text label (visible, or for screen readers only). */
export function Spinner({
  label,
  showLabel = false,
  small = false,
}: {
  label?: string;
  showLabel?: boolean;
  small?: boolean;
}) {
  const { t } = useTranslation('common');
  const text = label ?? t('loading');
  return (
    <span className={styles.spinner} role="status">
      <span className={[styles.wheel, small ? styles.small : ''].join(' ')} aria-hidden="true" />
      <span className={showLabel ? undefined : 'visually-hidden'}>{text}</span>
    </span>
  );
}

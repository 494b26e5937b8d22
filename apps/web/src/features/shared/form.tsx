import { useTranslation } from 'react-i18next';
import type { FieldErrors, FieldValues } from 'react-hook-form';
import { MIN_PASSWORD_LENGTH, PASSWORD_FLAGS, passwordFlags } from '@frontdoor/contract';
import type { SummaryError } from '../../ui/FormErrorSummary.tsx';
import styles from './flow.module.css';

/** The five password flags of §5 shown live as a checklist while the user types. */
export function PasswordChecklist({ password, id }: { password: string; id?: string }) {
  const { t } = useTranslation('flowShared');
  const missing = new Set(passwordFlags(password));
  return (
    <div id={id}>
      <p>{t('password_rules_title')}</p>
      <ul className={styles.checklist}>
        {PASSWORD_FLAGS.map((flag) => {
          const met = !missing.has(flag);
          return (
            <li key={flag} data-flag={flag} data-met={met} className={met ? styles.met : styles.unmet}>
              <span aria-hidden="true">{met ? '✓ ' : '○ '}</span>
              {t(`rule_${flag}`, { count: MIN_PASSWORD_LENGTH })}
              <span className={styles.visuallyHidden}> ({t(met ? 'rule_met' : 'rule_unmet')})</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** The error summary's entries: each failing field (in form order) with its translated message. */
export function summaryErrors<T extends FieldValues>(
  errors: FieldErrors<T>,
  fieldIds: Partial<Record<keyof T & string, string>>,
  text: (message: string) => string,
): SummaryError[] {
  return Object.entries(fieldIds).flatMap(([name, fieldId]) => {
    const message = errors[name]?.message;
    return typeof message === 'string' && fieldId ? [{ fieldId, message: text(message) }] : [];
  });
}

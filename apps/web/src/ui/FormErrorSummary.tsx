import type { MouseEvent, ReactNode } from 'react';
import { useTranslation } from '../lib/i18n/use-translation.tsx';
import styles from './Feedback.module.css';
import { useTakeFocus } from './take-focus.ts';

export interface SummaryError {
  /** The id of the field's control (what the field's label points at). */
  fieldId: string;
  message: ReactNode;
}

export interface FormErrorSummaryProps {
  errors: readonly SummaryError[];
  /** The lead message, e.g. t('errors:formInvalid'). */
  message?: ReactNode;
  title?: ReactNode;
  /**
   * The number of failed submits: the summary shows from the first and takes focus once on each (the
   * form itself focuses no field, so nothing competes).
   */
  focusKey: number;
}

/**
 * The list of a form's errors, shown after a failed submit. It takes focus so keyboard and
 * screen-reader users land on it; each entry links to (and focuses) its field.
 */
export function FormErrorSummary({ errors, message, title, focusKey }: FormErrorSummaryProps) {
  const { t } = useTranslation('common');
  // only after a failed submit: errors of fields being typed into speak for themselves inline
  const visible = errors.length > 0 && focusKey > 0;
  // once per failed submit: errors that come back while the person types show the summary again
  // but must not pull the focus out of the field
  const ref = useTakeFocus<HTMLDivElement>(visible ? focusKey : undefined);
  if (!visible) return null;
  const goTo = (event: MouseEvent<HTMLAnchorElement>, fieldId: string) => {
    const field = document.getElementById(fieldId);
    if (!field) return;
    event.preventDefault();
    field.scrollIntoView?.({ block: 'center' });
    field.focus();
  };
  return (
    <div
      ref={ref}
      className={styles.summary}
      tabIndex={-1}
      role="alert"
      aria-labelledby="form-error-summary-title"
    >
      <h2 className={styles.summaryTitle} id="form-error-summary-title">
        {title ?? t('error_summary_title')}
      </h2>
      {message && <p>{message}</p>}
      <ul className={styles.summaryList}>
        {errors.map((e) => (
          <li key={e.fieldId}>
            <a href={`#${e.fieldId}`} onClick={(event) => goTo(event, e.fieldId)}>
              {e.message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

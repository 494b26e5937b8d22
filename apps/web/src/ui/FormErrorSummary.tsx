import { useState, type MouseEvent, type ReactNode } from 'react';
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
 * The errors of the fields refused at the last failed submit (a new `focusKey`: taken once its errors
 * are in), less those fixed since. Between submits the list only shrinks: an alert is read out again,
 * assertively, at each addition, so a field that turns invalid while the person types shows its error
 * inline only, until the next submit.
 */
function useListedSinceSubmit(errors: readonly SummaryError[], focusKey: number): readonly SummaryError[] {
  const [since, setSince] = useState<{ focusKey: number; fields: string[] | null }>({
    focusKey,
    fields: null,
  });
  const refused = errors.map((e) => e.fieldId);
  const taken = since.focusKey === focusKey ? since.fields : null;
  const fields = taken ? taken.filter((id) => refused.includes(id)) : refused.length ? refused : null;
  // kept while rendering, as React allows for a component's own state; set only when it changes
  if (since.focusKey !== focusKey || fields?.length !== taken?.length) setSince({ focusKey, fields });
  return fields ? errors.filter((e) => fields.includes(e.fieldId)) : [];
}

/**
 * The list of a form's errors, shown after a failed submit. It takes focus so keyboard and
 * screen-reader users land on it; each entry links to (and focuses) its field.
 */
export function FormErrorSummary({ errors, message, title, focusKey }: FormErrorSummaryProps) {
  const { t } = useTranslation('common');
  const listed = useListedSinceSubmit(errors, focusKey);
  // only after a failed submit: errors of fields being typed into speak for themselves inline
  const visible = listed.length > 0 && focusKey > 0;
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
        {listed.map((e) => (
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

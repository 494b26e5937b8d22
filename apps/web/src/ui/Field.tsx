import { useId } from 'react';
import type { ReactNode } from 'react';
import styles from './Field.module.css';

export interface FieldMessages {
  label: ReactNode;
  hint?: ReactNode;
  /** The inline error; tied to the control by aria-describedby and aria-invalid. */
  error?: ReactNode;
  /**
   * Id of a message shown elsewhere that refuses the value (the server's wrong password or wrong
   * code): the control is marked invalid and described by it, as by its own error.
   */
  refusalId?: string;
  /** Ids of other text that describes the control (the new-password checklist). */
  describedBy?: string;
}

/** Ids of a field's parts and the control's ARIA attributes, shared by every field component. */
export function useFieldIds(
  id: string | undefined,
  { hint, error, refusalId, describedBy }: Omit<FieldMessages, 'label'>,
) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const invalid = Boolean(error) || refusalId !== undefined;
  const description = [hint ? hintId : null, error ? errorId : null, refusalId, describedBy]
    .filter(Boolean)
    .join(' ');
  return {
    inputId,
    hintId,
    errorId,
    aria: {
      'aria-describedby': description || undefined,
      'aria-invalid': invalid ? (true as const) : undefined,
    },
  };
}

/** Label, hint, control and the always-present error line (no layout jump when an error appears). */
export function FieldFrame({
  label,
  hint,
  error,
  ids,
  children,
  className,
}: Omit<FieldMessages, 'refusalId' | 'describedBy'> & {
  ids: ReturnType<typeof useFieldIds>;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={[styles.field, className].filter(Boolean).join(' ')}>
      <label className={styles.label} htmlFor={ids.inputId}>
        {label}
      </label>
      {hint && (
        <p className={styles.hint} id={ids.hintId}>
          {hint}
        </p>
      )}
      {children}
      <p className={styles.error} id={ids.errorId}>
        {error}
      </p>
    </div>
  );
}

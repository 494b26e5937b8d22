import type { InputHTMLAttributes, Ref } from 'react';
import { FieldFrame, useFieldIds } from './Field.tsx';
import type { FieldMessages } from './Field.tsx';
import styles from './Field.module.css';

export interface TextFieldProps
  extends FieldMessages, Omit<InputHTMLAttributes<HTMLInputElement>, 'children'> {
  ref?: Ref<HTMLInputElement>;
}

/**
 * A labelled text input. Every input attribute passes through (name, type, autoComplete, inputMode,
 * and the form's register() result: lib/form.ts), so password managers and autofill work. An email
 * address is written left to right in every language (in Arabic, 'student@' showed as '@student').
 */
export function TextField({
  label,
  hint,
  error,
  refusalId,
  describedBy,
  id,
  className,
  ref,
  ...input
}: TextFieldProps) {
  const ids = useFieldIds(id, { hint, error, refusalId, describedBy });
  return (
    <FieldFrame label={label} hint={hint} error={error} ids={ids} className={className}>
      <div className={styles.control}>
        <input
          type="text"
          dir={input.type === 'email' ? 'ltr' : undefined}
          {...input}
          {...ids.aria}
          ref={ref}
          id={ids.inputId}
          className={styles.input}
        />
      </div>
    </FieldFrame>
  );
}

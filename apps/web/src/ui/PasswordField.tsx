import { useState } from 'react';
import { useTranslation } from '../lib/i18n/use-translation.tsx';
import { FieldFrame, useFieldIds } from './Field.tsx';
import type { TextFieldProps } from './TextField.tsx';
import styles from './Field.module.css';

export type PasswordFieldProps = Omit<TextFieldProps, 'type'> & {
  /** 'current-password' on sign-in, 'new-password' on sign-up and reset (password managers rely on it). */
  autoComplete: 'current-password' | 'new-password';
};

/**
 * A password input with a show/hide toggle (a real button whose name says what it will do). The
 * password is written left to right in every language, as typed.
 */
export function PasswordField({
  label,
  hint,
  error,
  refusalId,
  describedBy,
  id,
  className,
  ref,
  ...input
}: PasswordFieldProps) {
  const { t } = useTranslation('common');
  const [visible, setVisible] = useState(false);
  const ids = useFieldIds(id, { hint, error, refusalId, describedBy });
  return (
    <FieldFrame label={label} hint={hint} error={error} ids={ids} className={className}>
      <div className={`${styles.control} ${styles.withToggle}`}>
        <input
          dir="ltr"
          spellCheck={false}
          autoCapitalize="none"
          {...input}
          {...ids.aria}
          ref={ref}
          id={ids.inputId}
          type={visible ? 'text' : 'password'}
          className={styles.input}
        />
        <button
          type="button"
          className={styles.toggle}
          aria-controls={ids.inputId}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? t('hide_password') : t('show_password')}
        </button>
      </div>
    </FieldFrame>
  );
}

import { useState } from 'react';
import type { KeyboardEvent } from 'react';
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
 * password is written left to right in every language, as typed. While it has the focus and Caps
 * Lock is on (as the last key pressed in it tells), a polite "Caps Lock is on" describes it: a
 * password typed hidden in capitals is a wrong password counted against the account.
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
  const [capsLock, setCapsLock] = useState(false);
  const ids = useFieldIds(id, { hint, error, refusalId, describedBy });
  const capsId = `${ids.inputId}-caps`;
  const readCapsLock = (event: KeyboardEvent<HTMLInputElement>) =>
    setCapsLock(event.getModifierState('CapsLock'));
  return (
    <FieldFrame label={label} hint={hint} error={error} ids={ids} className={className}>
      <div className={`${styles.control} ${styles.withToggle}`}>
        <input
          dir="ltr"
          spellCheck={false}
          autoCapitalize="none"
          {...input}
          {...ids.aria}
          aria-describedby={
            [ids.aria['aria-describedby'], capsLock && capsId].filter(Boolean).join(' ') || undefined
          }
          onKeyDown={(event) => {
            readCapsLock(event);
            input.onKeyDown?.(event);
          }}
          onKeyUp={(event) => {
            readCapsLock(event);
            input.onKeyUp?.(event);
          }}
          onBlur={(event) => {
            setCapsLock(false);
            input.onBlur?.(event);
          }}
          ref={ref}
          id={ids.inputId}
          type={visible ? 'text' : 'password'}
          className={styles.input}
        />
        {/* one short word in view, beside the password even at 320 px ('Passwort verbergen' took half
            the field on two lines); the name says whose, and holds that word (WCAG 2.5.3) */}
        <button
          type="button"
          className={styles.toggle}
          aria-controls={ids.inputId}
          aria-label={visible ? t('hide_password') : t('show_password')}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? t('hide_password_short') : t('show_password_short')}
        </button>
      </div>
      {/* there before it speaks: a live region added with its text is not read */}
      <p className={`${styles.hint} ${styles.live}`} id={capsId} aria-live="polite">
        {capsLock && t('caps_lock_on')}
      </p>
    </FieldFrame>
  );
}

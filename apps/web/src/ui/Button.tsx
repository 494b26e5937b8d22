import type { ButtonHTMLAttributes, MouseEvent, Ref } from 'react';
import styles from './Button.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'link';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  /** Shows progress and ignores further clicks (and Enter submits), so a form cannot be sent twice. */
  loading?: boolean;
  fullWidth?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

/** Class names of a button, for links that must look like one (an <a> to another page). */
export function buttonClassName(variant: ButtonVariant = 'primary', fullWidth = false): string {
  return [styles.button, styles[variant], fullWidth ? styles.fullWidth : ''].filter(Boolean).join(' ');
}

/**
 * A button. Disabled and loading buttons stay focusable (aria-disabled rather than disabled) so a
 * keyboard user's focus is not thrown away mid-submit; their clicks are swallowed instead.
 */
export function Button({
  variant = 'primary',
  loading = false,
  fullWidth = false,
  disabled = false,
  type = 'button',
  className,
  onClick,
  children,
  ...rest
}: ButtonProps) {
  const inactive = loading || disabled;
  const handleClick = (event: MouseEvent<HTMLButtonElement>) => {
    if (inactive) {
      event.preventDefault();
      return;
    }
    onClick?.(event);
  };
  return (
    <button
      {...rest}
      type={type}
      className={[buttonClassName(variant, fullWidth), className].filter(Boolean).join(' ')}
      aria-disabled={inactive || undefined}
      aria-busy={loading || undefined}
      onClick={handleClick}
    >
      {loading && <span className={styles.spinner} aria-hidden="true" />}
      {children}
    </button>
  );
}

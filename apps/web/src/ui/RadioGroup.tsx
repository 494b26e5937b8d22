import { useId } from 'react';
import type { ReactNode } from 'react';
import styles from './Checkbox.module.css';

export interface RadioOption {
  value: string;
  label: ReactNode;
}

export interface RadioGroupProps {
  legend: ReactNode;
  /** Keeps the legend for assistive technology only, where the page heading already asks the question. */
  hideLegend?: boolean;
  options: readonly RadioOption[];
  value: string | undefined;
  onValueChange: (value: string) => void;
  name?: string;
  error?: ReactNode;
  id?: string;
}

/**
 * A labelled group of native radios: one tab stop, arrow keys move and select in either writing
 * direction, as the platform does (a choice made before the page hydrates is held and made again:
 * lib/held-presses.ts). `id` lands on the group so an error summary can link to it; focusing the
 * group hands the focus to its chosen radio (else the first), where the keyboard takes over.
 */
export function RadioGroup({
  legend,
  hideLegend = false,
  options,
  value,
  onValueChange,
  name,
  error,
  id,
}: RadioGroupProps) {
  const generated = useId();
  const groupId = id ?? generated;
  const legendId = `${groupId}-legend`;
  const errorId = `${groupId}-error`;
  return (
    <div className={styles.group}>
      <div className={hideLegend ? 'visually-hidden' : styles.legend} id={legendId}>
        {legend}
      </div>
      <div
        id={groupId}
        role="radiogroup"
        tabIndex={-1}
        className={styles.options}
        aria-labelledby={legendId}
        aria-describedby={error ? errorId : undefined}
        aria-invalid={error ? true : undefined}
        onFocus={(event) => {
          if (event.target !== event.currentTarget) return;
          const radios = event.currentTarget.querySelectorAll<HTMLInputElement>('input[type=radio]');
          ([...radios].find((radio) => radio.checked) ?? radios[0])?.focus();
        }}
      >
        {options.map((option) => {
          const optionId = `${groupId}-${option.value}`;
          return (
            <div className={styles.row} key={option.value}>
              <input
                type="radio"
                className={styles.radio}
                id={optionId}
                name={name ?? groupId}
                value={option.value}
                checked={option.value === value}
                // where the focus lands after a refused submit: read with its choice
                aria-describedby={error ? errorId : undefined}
                onChange={() => onValueChange(option.value)}
              />
              <label className={styles.label} htmlFor={optionId}>
                {option.label}
              </label>
            </div>
          );
        })}
      </div>
      <p className={styles.error} id={errorId}>
        {error}
      </p>
    </div>
  );
}

import { useId } from 'react';
import type { ReactNode } from 'react';
import * as RadixRadio from '@radix-ui/react-radio-group';
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
 * A labelled group of radios (Radix: one tab stop, arrow keys move and select). `id` lands on the
 * group so an error summary can link to it.
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
      <RadixRadio.Root
        id={groupId}
        name={name}
        className={styles.options}
        value={value ?? ''}
        onValueChange={onValueChange}
        aria-labelledby={legendId}
        aria-describedby={error ? errorId : undefined}
        aria-invalid={error ? true : undefined}
      >
        {options.map((option) => {
          const optionId = `${groupId}-${option.value}`;
          return (
            <div className={styles.row} key={option.value}>
              <RadixRadio.Item className={styles.radio} value={option.value} id={optionId}>
                <RadixRadio.Indicator className={styles.dot} />
              </RadixRadio.Item>
              <label className={styles.label} htmlFor={optionId}>
                {option.label}
              </label>
            </div>
          );
        })}
      </RadixRadio.Root>
      <p className={styles.error} id={errorId}>
        {error}
      </p>
    </div>
  );
}

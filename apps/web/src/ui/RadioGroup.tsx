import { useId, useRef } from 'react';
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

const ARROW_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight']);

/**
 * A labelled group of radios (Radix: one tab stop, arrow keys move and select). `id` lands on the
 * group so an error summary can link to it.
 *
 * Radix selects the radio an arrow key moved to only while that key is still held when the focus
 * lands (a timer later): a quick press, or the key events a screen reader or switch device sends,
 * moved the focus and selected nothing. So an arrow key is remembered until the next radio takes the
 * focus, which then selects it, as a native radio group does.
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
  const arrowMove = useRef(false);
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
        onKeyDown={(event) => {
          arrowMove.current = ARROW_KEYS.has(event.key);
        }}
        onPointerDown={() => {
          arrowMove.current = false;
        }}
      >
        {options.map((option) => {
          const optionId = `${groupId}-${option.value}`;
          return (
            <div className={styles.row} key={option.value}>
              <RadixRadio.Item
                className={styles.radio}
                value={option.value}
                id={optionId}
                onFocus={() => {
                  if (!arrowMove.current) return;
                  arrowMove.current = false;
                  if (option.value !== value) onValueChange(option.value);
                }}
              >
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

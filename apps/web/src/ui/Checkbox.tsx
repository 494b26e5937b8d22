import { useId } from 'react';
import type { ReactNode, Ref } from 'react';
import * as RadixCheckbox from '@radix-ui/react-checkbox';
import { CheckIcon } from './icons.tsx';
import styles from './Checkbox.module.css';

export interface CheckboxProps {
  label: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  name?: string;
  id?: string;
  disabled?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

/** A labelled checkbox (Radix: role checkbox, Space toggles, the label toggles too). */
export function Checkbox({ label, checked, onCheckedChange, name, id, disabled, ref }: CheckboxProps) {
  const generated = useId();
  const boxId = id ?? generated;
  return (
    <div className={styles.row}>
      <RadixCheckbox.Root
        ref={ref}
        id={boxId}
        name={name}
        className={styles.box}
        checked={checked}
        disabled={disabled}
        onCheckedChange={(state) => onCheckedChange(state === true)}
      >
        <RadixCheckbox.Indicator>
          <CheckIcon />
        </RadixCheckbox.Indicator>
      </RadixCheckbox.Root>
      <label className={styles.label} htmlFor={boxId}>
        {label}
      </label>
    </div>
  );
}

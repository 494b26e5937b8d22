import { Controller } from 'react-hook-form';
import type { Control } from 'react-hook-form';
import type { CodeInputProps } from '../../ui/CodeInput.tsx';
import { CodeInput } from '../../ui/CodeInput.tsx';
import { useMessageText } from './messages.ts';

/** The one-field code forms (verification, reset and access codes): the kit's CodeInput bound to `code`. */
export function CodeField({
  control,
  resend,
  ...input
}: Omit<CodeInputProps, 'value' | 'onChange' | 'onBlur' | 'name' | 'ref' | 'error' | 'onResend'> & {
  control: Control<{ code: string }>;
  /** A resend call; its failure is shown by the caller's onError, the countdown still guards against hammering. */
  resend?: () => Promise<unknown>;
}) {
  const messageText = useMessageText();
  return (
    <Controller
      control={control}
      name="code"
      render={({ field, fieldState }) => (
        <CodeInput
          {...input}
          name={field.name}
          ref={field.ref}
          onBlur={field.onBlur}
          value={field.value}
          onChange={field.onChange}
          error={fieldState.error?.message ? messageText(fieldState.error.message) : undefined}
          onResend={
            resend &&
            (() =>
              resend().then(
                () => undefined,
                () => undefined,
              ))
          }
        />
      )}
    />
  );
}

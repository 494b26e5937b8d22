import type { FieldControl, FieldError } from '../../lib/form.ts';
import type { CodeInputProps } from '../../ui/CodeInput.tsx';
import { CodeInput } from '../../ui/CodeInput.tsx';
import { useMessageText } from './messages.ts';

/** The one-field code forms (verification, reset and access codes): the kit's CodeInput bound to `code`. */
export function CodeField({
  form,
  ...input
}: Omit<CodeInputProps, 'value' | 'onChange' | 'onBlur' | 'name' | 'ref' | 'error'> & {
  /** The code form (useCodeForm): its `code` field and that field's error. */
  form: { field(name: 'code'): FieldControl<string>; errors: { code?: FieldError } };
}) {
  const messageText = useMessageText();
  const field = form.field('code');
  const error = form.errors.code;
  return (
    <CodeInput
      {...input}
      name={field.name}
      ref={field.ref}
      onBlur={field.onBlur}
      value={field.value}
      onChange={field.onChange}
      error={error ? messageText(error.message) : undefined}
    />
  );
}

import { useMemo, useState } from 'react';
import { useForm, type DefaultValues, type FieldValues, type SubmitHandler } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { FormErrorSummary } from '../../ui/FormErrorSummary.tsx';
import { summaryErrors } from './form.tsx';
import { useMessageText } from './messages.ts';

interface SummaryFormOptions<Input extends FieldValues> {
  defaultValues: DefaultValues<Input>;
  /** Control ids in form order: the error summary links to them. */
  fieldIds: Partial<Record<keyof Input & string, string>>;
  /** A long form checks each field as it is left and leads its summary with 'formInvalid'. */
  long?: boolean;
}

/**
 * A form validated by a contract schema, with the error summary every page shows: it appears only
 * after a failed submit and takes the focus each time (react-hook-form's own focusing is off so
 * the two don't compete).
 */
export function useSummaryForm<Input extends FieldValues, Output extends FieldValues>(
  schema: z.ZodType<Output, Input>,
  { defaultValues, fieldIds, long = false }: SummaryFormOptions<Input>,
) {
  const messageText = useMessageText();
  const [failedSubmits, setFailedSubmits] = useState(0);
  const form = useForm<Input, unknown, Output>({
    shouldFocusError: false,
    resolver: zodResolver(schema),
    mode: long ? 'onTouched' : 'onSubmit',
    defaultValues,
  });
  const { errors } = form.formState;

  const errorSummary = (
    <FormErrorSummary
      message={long ? messageText({ code: 'formInvalid' }) : undefined}
      errors={summaryErrors(errors, fieldIds, messageText)}
      focusKey={failedSubmits}
    />
  );
  /** The field's own (translated) error, shown under it. */
  const fieldError = (name: keyof Input & string): string | undefined => {
    const message = errors[name]?.message;
    return typeof message === 'string' ? messageText(message) : undefined;
  };
  /** The form's onSubmit: valid values go to `onValid`; a failed submit shows and focuses the summary. */
  const onSubmit = (onValid: SubmitHandler<Output>) =>
    form.handleSubmit(onValid, () => setFailedSubmits((n) => n + 1));

  return { form, errorSummary, fieldError, onSubmit };
}

/** The one-field form of every code page (verify, reset and access codes), for the shared CodeField. */
export function useCodeForm(codeSchema: z.ZodType<string, string>, fieldId: string) {
  const schema = useMemo(() => z.object({ code: codeSchema }), [codeSchema]);
  return useSummaryForm(schema, { defaultValues: { code: '' }, fieldIds: { code: fieldId } });
}

import { useEffect, useMemo, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useForm, type FieldErrors, type FieldValues } from '../../lib/form.ts';
import * as z from 'zod/mini';
import { FormErrorSummary } from '../../ui/FormErrorSummary.tsx';
import { summaryErrors } from './form.tsx';
import { useMessageText } from './messages.ts';

interface SummaryFormOptions<Input extends FieldValues> {
  defaultValues: Partial<Input>;
  /** Control ids in form order: the error summary links to them. */
  fieldIds: Partial<Record<keyof Input & string, string>>;
  /**
   * A long form checks each field as it is left (shown once any pointer press under way has ended)
   * and leads its summary with 'formInvalid'.
   */
  long?: boolean;
  /**
   * Runs at every submit, valid or not, before the check: where a page drops the refusal of its last
   * call, which would otherwise stay beside the new submit's own errors.
   */
  onAttempt?: () => void;
}

/**
 * A form validated by a contract schema, with the error summary every page shows: it appears only
 * after a failed submit and takes the focus each time.
 */
export function useSummaryForm<Input extends FieldValues, Output>(
  schema: z.ZodMiniType<Output, Input>,
  { defaultValues, fieldIds, long = false, onAttempt }: SummaryFormOptions<Input>,
) {
  const messageText = useMessageText();
  const [failedSubmits, setFailedSubmits] = useState(0);
  const form = useForm<Input, Output>({ schema, mode: long ? 'onTouched' : 'onSubmit', defaultValues });
  const errors = useHeldDuringPress(form.errors, long);
  // the fields refused at the last failed submit, less those fixed since: between submits the summary
  // only shrinks, since an alert is read out again, assertively, at each addition; a field that turns
  // invalid while the person types shows its error inline only, until the next submit
  const [refused, setRefused] = useState<string[]>([]);
  const stillRefused = refused.filter((name) => form.errors[name]);
  // kept while rendering, as React allows for a component's own state
  if (stillRefused.length < refused.length) setRefused(stillRefused);
  const listed = useHeldDuringPress(
    Object.fromEntries(stillRefused.map((name) => [name, form.errors[name]])) as FieldErrors<Input>,
    long,
  );

  const errorSummary = (
    <FormErrorSummary
      message={long ? messageText({ code: 'formInvalid' }) : undefined}
      errors={summaryErrors(listed, fieldIds, messageText)}
      focusKey={failedSubmits}
    />
  );
  /** The field's own (translated) error, shown under it. */
  const fieldError = (name: keyof Input & string): string | undefined => {
    const message = errors[name]?.message;
    return typeof message === 'string' ? messageText(message) : undefined;
  };
  /** The form's onSubmit: valid values go to `onValid`; a failed submit shows and focuses the summary. */
  const onSubmit = (onValid: (values: Output) => void) => {
    const check = form.handleSubmit(onValid, (found) => {
      setFailedSubmits((n) => n + 1);
      setRefused(Object.keys(found));
    });
    return (event?: FormEvent) => {
      onAttempt?.();
      check(event);
    };
  };

  return { form, errorSummary, fieldError, onSubmit };
}

/**
 * What a form shows of its errors (inline, or in its summary). Leaving a field by pressing something
 * else (the submit button, a radio, a link below) shows that field's error, which can run to several
 * lines and push the pressed thing away before the button is released, so the click is lost. While a
 * pointer is pressed, the form keeps showing what it showed when the press began; the new errors
 * appear once its click is done.
 */
function useHeldDuringPress<Shown>(shownNow: Shown, enabled: boolean): Shown {
  const [held, setHeld] = useState<{ shown: Shown } | null>(null);
  const shown = useRef(shownNow);
  useEffect(() => {
    shown.current = shownNow;
  });
  useEffect(() => {
    if (!enabled) return;
    let release: ReturnType<typeof setTimeout> | undefined;
    const hold = () => {
      clearTimeout(release);
      setHeld({ shown: shown.current });
    };
    // pointerup, mouseup and click are dispatched in one task: the timer runs after the click
    const letGo = () => {
      clearTimeout(release);
      release = setTimeout(() => setHeld(null));
    };
    const listeners = { pointerdown: hold, pointerup: letGo, pointercancel: letGo };
    for (const [type, listener] of Object.entries(listeners)) document.addEventListener(type, listener, true);
    return () => {
      for (const [type, listener] of Object.entries(listeners))
        document.removeEventListener(type, listener, true);
      clearTimeout(release);
    };
  }, [enabled]);
  return held ? held.shown : shownNow;
}

/** The one-field form of every code page (verify, reset and access codes), for the shared CodeField. */
export function useCodeForm(
  codeSchema: z.ZodMiniType<string, string>,
  fieldId: string,
  onAttempt?: () => void,
) {
  const schema = useMemo(() => z.object({ code: codeSchema }), [codeSchema]);
  return useSummaryForm(schema, { defaultValues: { code: '' }, fieldIds: { code: fieldId }, onAttempt });
}

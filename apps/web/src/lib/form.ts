import { useMemo, useReducer, useState } from 'react';
import type { FormEvent } from 'react';
import type * as z from 'zod/mini';

export type FieldValues = Record<string, unknown>;
/** A field's problem: its message is a contract code (or a text the server sent). */
export type FieldError = { message: string };
export type FieldErrors<Values extends FieldValues> = Partial<Record<keyof Values & string, FieldError>>;

/** What `{...form.register(name)}` gives an uncontrolled text input. */
export interface FieldBinding {
  name: string;
  ref: (element: HTMLInputElement | null) => void;
  onChange: (event: { target: { value: string } }) => void;
  onBlur: () => void;
}

/** What a controlled control (a code input, a radio group) is given for one field. */
export interface FieldControl<Value> {
  name: string;
  value: Value;
  onChange: (value: Value) => void;
  onBlur: () => void;
  ref: (element: HTMLElement | null) => void;
}

/**
 * When a field is checked: 'onSubmit' on the first submit, then as it changes; 'onTouched' also when
 * it is first left, then as it changes.
 */
export type ValidationMode = 'onSubmit' | 'onTouched';

type Checked<Output> = { ok: true; output: Output } | { ok: false };

/** Checks values against a contract schema: each field's first problem, and the parsed values when none. */
export function checkValues<Input extends FieldValues, Output>(
  schema: z.ZodMiniType<Output, Input>,
  values: FieldValues,
): { errors: FieldErrors<Input>; checked: Checked<Output> } {
  const result = schema.safeParse(values);
  if (result.success) return { errors: {}, checked: { ok: true, output: result.data } };
  const errors: Record<string, FieldError> = {};
  for (const issue of result.error.issues) {
    const name = issue.path.join('.');
    errors[name] ??= { message: issue.message };
  }
  return { errors: errors as FieldErrors<Input>, checked: { ok: false } };
}

/** `errors` with `name`'s problem replaced by `found`'s; the same object when nothing changed. */
export function withFieldError<Values extends FieldValues>(
  errors: FieldErrors<Values>,
  name: keyof Values & string,
  found: FieldError | undefined,
): FieldErrors<Values> {
  if (errors[name]?.message === found?.message) return errors;
  const next = { ...errors };
  if (found) next[name] = found;
  else delete next[name];
  return next;
}

/**
 * A form checked by a contract schema, its text fields uncontrolled (what the browser, a password
 * manager or a person typing before hydration put in a field is what is sent) and its other
 * controls controlled (`field`). Stands in for react-hook-form, which the sign-in pages' first script
 * could not carry (docs/ARCHITECTURE.md); the API keeps its names.
 */
export function useForm<Input extends FieldValues, Output>({
  schema,
  defaultValues,
  mode = 'onSubmit',
}: {
  schema: z.ZodMiniType<Output, Input>;
  /** The values shown first; a field left out starts empty (no radio chosen). */
  defaultValues: Partial<Input>;
  mode?: ValidationMode;
}) {
  const [errors, setErrors] = useState<FieldErrors<Input>>({});
  const [, render] = useReducer((n: number) => n + 1, 0);
  const [state] = useState(() => ({
    values: { ...defaultValues } as FieldValues,
    elements: new Map<string, HTMLElement>(),
    touched: new Set<string>(),
    watched: new Set<string>(),
    submitted: false,
  }));

  const form = useMemo(() => {
    type Name = keyof Input & string;
    const checkField = (name: Name) => {
      const found = checkValues(schema, state.values).errors[name];
      setErrors((current) => withFieldError(current, name, found));
    };
    const changed = (name: Name, value: unknown) => {
      state.values[name] = value;
      if (state.watched.has(name)) render();
      if (state.submitted || state.touched.has(name)) checkField(name);
    };
    const left = (name: Name) => {
      if (mode !== 'onTouched') return;
      state.touched.add(name);
      checkField(name);
    };
    const bindings = new Map<string, FieldBinding>();

    return {
      register(name: Name): FieldBinding {
        let binding = bindings.get(name);
        if (!binding) {
          binding = {
            name,
            ref: (element) => {
              if (!element) return void state.elements.delete(name);
              state.elements.set(name, element);
              // typed before the app hydrated, or filled by the browser: kept; else the default shown
              if (element.value) state.values[name] = element.value;
              else element.value = String(state.values[name] ?? '');
            },
            onChange: (event) => changed(name, event.target.value),
            onBlur: () => left(name),
          };
          bindings.set(name, binding);
        }
        return binding;
      },
      /** A controlled control's binding; the form renders again as its value changes. */
      field<Value>(name: Name): FieldControl<Value> {
        return {
          name,
          value: state.values[name] as Value,
          onChange: (value) => {
            changed(name, value);
            render();
          },
          onBlur: () => left(name),
          ref: (element) => {
            if (element) state.elements.set(name, element);
            else state.elements.delete(name);
          },
        };
      },
      /** The field's value; the form renders again as it changes. */
      watch<Value = unknown>(name: Name): Value {
        state.watched.add(name);
        return state.values[name] as Value;
      },
      setValue(name: Name, value: unknown): void {
        state.values[name] = value;
        const element = state.elements.get(name);
        if (element instanceof HTMLInputElement) element.value = String(value);
        render();
      },
      /** Shows a problem the server found (focusing the field, when asked) until the field changes. */
      setError(name: Name, error: FieldError, { shouldFocus = false } = {}): void {
        setErrors((current) => withFieldError(current, name, error));
        if (shouldFocus) state.elements.get(name)?.focus();
      },
      /** The form's onSubmit: checks every field, then hands the parsed values on, or the problems. */
      handleSubmit(onValid: (values: Output) => void, onInvalid?: (errors: FieldErrors<Input>) => void) {
        return (event?: FormEvent) => {
          event?.preventDefault();
          state.submitted = true;
          // a text field holds what the browser put in it, even without an input event
          for (const name of bindings.keys()) {
            const element = state.elements.get(name);
            if (element instanceof HTMLInputElement) state.values[name] = element.value;
          }
          const { errors: found, checked } = checkValues(schema, state.values);
          setErrors(found);
          if (checked.ok) onValid(checked.output);
          else onInvalid?.(found);
        };
      },
    };
  }, [state, mode, schema]);

  return { ...form, errors };
}

import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as z from 'zod/mini';
import { checkValues, useForm, withFieldError } from './form.ts';
import type { ValidationMode } from './form.ts';

const schema = z.object({
  name: z.string().check(z.minLength(2, 'tooShort')),
  age: z.string().check(z.regex(/^\d+$/, 'notANumber')),
});

describe('checkValues', () => {
  it("gives each field's first issue, and the parsed values when there is none", () => {
    expect(checkValues(schema, { name: '', age: 'x' }).errors).toEqual({
      name: { message: 'tooShort' },
      age: { message: 'notANumber' },
    });
    expect(checkValues(schema, { name: 'Al', age: '7' })).toEqual({
      errors: {},
      checked: { ok: true, output: { name: 'Al', age: '7' } },
    });
  });

  it('withFieldError keeps the same object when nothing changed', () => {
    const errors = { name: { message: 'tooShort' } };
    expect(withFieldError(errors, 'name', { message: 'tooShort' })).toBe(errors);
    expect(withFieldError(errors, 'name', undefined)).toEqual({});
  });
});

function Form({ mode, onValid }: { mode?: ValidationMode; onValid: (values: unknown) => void }) {
  const form = useForm({ schema, defaultValues: { name: 'Jo' }, mode });
  return (
    <form onSubmit={form.handleSubmit(onValid)} noValidate>
      <label htmlFor="name">Name</label>
      <input id="name" {...form.register('name')} />
      <label htmlFor="age">Age</label>
      <input id="age" {...form.register('age')} />
      <p data-testid="errors">{JSON.stringify(form.errors)}</p>
      <p data-testid="watched">{form.watch<string>('name')}</p>
      <button
        type="button"
        onClick={() => form.setError('age', { message: 'refused' }, { shouldFocus: true })}
      >
        Refuse
      </button>
      <button type="button" onClick={() => form.setValue('name', 'Set')}>
        Set
      </button>
      <button type="submit">Send</button>
    </form>
  );
}

const shownErrors = () => JSON.parse(screen.getByTestId('errors').textContent ?? '{}') as object;

describe('useForm', () => {
  it('shows the defaults, checks on submit, then as a field changes; valid values are handed on parsed', async () => {
    const user = userEvent.setup();
    const onValid = vi.fn();
    render(<Form onValid={onValid} />);
    expect(screen.getByLabelText('Name')).toHaveValue('Jo');
    await user.type(screen.getByLabelText('Age'), 'x');
    expect(shownErrors()).toEqual({});
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(shownErrors()).toEqual({ age: { message: 'notANumber' } });
    expect(onValid).not.toHaveBeenCalled();
    await user.clear(screen.getByLabelText('Age'));
    await user.type(screen.getByLabelText('Age'), '12');
    expect(shownErrors()).toEqual({});
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onValid).toHaveBeenCalledWith({ name: 'Jo', age: '12' });
  });

  it("'onTouched' checks a field once it is left, then as it changes", async () => {
    const user = userEvent.setup();
    render(<Form mode="onTouched" onValid={vi.fn()} />);
    await user.type(screen.getByLabelText('Age'), 'x');
    expect(shownErrors()).toEqual({});
    await user.tab();
    expect(shownErrors()).toEqual({ age: { message: 'notANumber' } });
    await user.clear(screen.getByLabelText('Age'));
    await user.type(screen.getByLabelText('Age'), '3');
    expect(shownErrors()).toEqual({});
  });

  it('keeps what a field held before the form bound it (typed before hydration, or filled by the browser)', async () => {
    const user = userEvent.setup();
    const onValid = vi.fn();
    function Early() {
      const form = useForm({ schema, defaultValues: { name: 'Jo' } });
      return (
        <form onSubmit={form.handleSubmit(onValid)}>
          <input
            aria-label="Name"
            {...form.register('name')}
            ref={(element) => {
              if (element) element.value = 'Typed early';
              form.register('name').ref(element);
            }}
          />
          <input aria-label="Age" defaultValue="" {...form.register('age')} />
          <button type="submit">Send</button>
        </form>
      );
    }
    render(<Early />);
    expect(screen.getByLabelText('Name')).toHaveValue('Typed early');
    // a value put in without an input event (autofill) is read at submit
    (screen.getByLabelText('Age') as HTMLInputElement).value = '40';
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onValid).toHaveBeenCalledWith({ name: 'Typed early', age: '40' });
  });

  it("setError shows the server's problem and focuses the field; setValue and watch follow the value", async () => {
    const user = userEvent.setup();
    render(<Form onValid={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Refuse' }));
    expect(shownErrors()).toEqual({ age: { message: 'refused' } });
    expect(screen.getByLabelText('Age')).toHaveFocus();
    expect(screen.getByTestId('watched')).toHaveTextContent('Jo');
    await user.type(screen.getByLabelText('Name'), 'e');
    expect(screen.getByTestId('watched')).toHaveTextContent('Joe');
    await user.click(screen.getByRole('button', { name: 'Set' }));
    expect(screen.getByLabelText('Name')).toHaveValue('Set');
    expect(screen.getByTestId('watched')).toHaveTextContent('Set');
  });
});

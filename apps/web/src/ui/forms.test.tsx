import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { renderWithProviders } from '../test/render.tsx';
import { Button } from './Button.tsx';
import { TextField } from './TextField.tsx';
import { PasswordField } from './PasswordField.tsx';
import { Checkbox } from './Checkbox.tsx';
import { RadioGroup } from './RadioGroup.tsx';
import { FormErrorSummary } from './FormErrorSummary.tsx';

describe('Button', () => {
  it('a loading submit button shows progress and cannot submit twice', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn((e: FormEvent) => e.preventDefault());
    function Form() {
      const [loading, setLoading] = useState(false);
      return (
        <form
          onSubmit={(e) => {
            onSubmit(e);
            setLoading(true);
          }}
        >
          <input aria-label="x" />
          <Button type="submit" loading={loading}>
            Continue
          </Button>
        </form>
      );
    }
    renderWithProviders(<Form />);
    const button = screen.getByRole('button', { name: 'Continue' });
    await user.click(button);
    await user.click(button);
    await user.type(screen.getByRole('textbox', { name: 'x' }), '{Enter}');
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button).toHaveAttribute('aria-disabled', 'true');
    // still focusable: keyboard focus is not lost while the request runs
    button.focus();
    expect(button).toHaveFocus();
  });

  it('runs onClick with Enter and Space', async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    renderWithProviders(<Button onClick={onClick}>Go</Button>);
    await user.tab();
    expect(screen.getByRole('button', { name: 'Go' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    expect(onClick).toHaveBeenCalledTimes(2);
  });
});

describe('TextField', () => {
  it('labels the input, ties hint and error by aria-describedby and sets aria-invalid', () => {
    const { rerender } = renderWithProviders(
      <TextField label="Email" hint="Your school email" name="email" autoComplete="email" type="email" />,
    );
    const input = screen.getByRole('textbox', { name: 'Email' });
    expect(input).toHaveAttribute('autocomplete', 'email');
    expect(input).toHaveAttribute('name', 'email');
    expect(input).toHaveAccessibleDescription('Your school email');
    expect(input).not.toHaveAttribute('aria-invalid');
    const errorLine = document.getElementById(`${input.id}-error`);
    expect(errorLine).toBeInTheDocument(); // reserved space even without an error
    rerender(
      <TextField label="Email" hint="Your school email" error="Invalid email format." id={input.id} />,
    );
    const invalid = screen.getByRole('textbox', { name: 'Email' });
    expect(invalid).toHaveAttribute('aria-invalid', 'true');
    expect(invalid).toHaveAccessibleDescription('Your school email Invalid email format.');
  });
});

describe('PasswordField', () => {
  it('is a password input with autocomplete that a button shows and hides', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PasswordField label="Password" autoComplete="new-password" />);
    const input = screen.getByLabelText('Password');
    expect(input).toHaveAttribute('type', 'password');
    expect(input).toHaveAttribute('autocomplete', 'new-password');
    await user.type(input, 'Secret#12345');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Show password' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(input).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: 'Hide password' })).toHaveFocus();
    await user.keyboard(' ');
    expect(input).toHaveAttribute('type', 'password');
    expect(input).toHaveValue('Secret#12345');
  });
});

describe('PasswordField and Caps Lock', () => {
  /** A key pressed in the field with Caps Lock on or off, as the browser reports it. */
  const press = (input: HTMLElement, type: 'keyDown' | 'keyUp', capsLock: boolean) => {
    const state = vi
      .spyOn(KeyboardEvent.prototype, 'getModifierState')
      .mockImplementation((key) => key === 'CapsLock' && capsLock);
    fireEvent[type](input, { key: 'a' });
    state.mockRestore();
  };

  it('says politely, while the field has the focus, that Caps Lock is on, and describes the field by it', () => {
    renderWithProviders(
      <PasswordField label="Password" autoComplete="current-password" hint="12 characters" />,
    );
    const input = screen.getByLabelText('Password');
    const hint = document.getElementById(`${input.id}-caps`)!;
    expect(hint).toHaveAttribute('aria-live', 'polite');
    expect(hint).toBeEmptyDOMElement();
    fireEvent.focus(input);
    press(input, 'keyDown', true);
    expect(hint).toHaveTextContent('Caps Lock is on');
    expect(input).toHaveAccessibleDescription('12 characters Caps Lock is on');
    // turned off: the next key says so
    press(input, 'keyUp', false);
    expect(hint).toBeEmptyDOMElement();
    expect(input).toHaveAccessibleDescription('12 characters');
    press(input, 'keyDown', true);
    fireEvent.blur(input);
    expect(hint).toBeEmptyDOMElement();
    expect(input).toHaveAccessibleDescription('12 characters');
  });
});

describe('Checkbox and RadioGroup', () => {
  it('a checkbox toggles with Space and by its label', async () => {
    const user = userEvent.setup();
    function Box() {
      const [checked, setChecked] = useState(false);
      return <Checkbox label="K12" checked={checked} onCheckedChange={setChecked} />;
    }
    renderWithProviders(<Box />);
    const box = screen.getByRole('checkbox', { name: 'K12' });
    await user.tab();
    expect(box).toHaveFocus();
    await user.keyboard(' ');
    expect(box).toBeChecked();
    await user.click(screen.getByText('K12'));
    expect(box).not.toBeChecked();
  });

  it('a radio group is one tab stop; arrow keys move and select', async () => {
    const user = userEvent.setup();
    function Group() {
      const [value, setValue] = useState<string | undefined>('teacher');
      return (
        <RadioGroup
          legend="Which best describes you?"
          options={[
            { value: 'teacher', label: 'Teacher' },
            { value: 'student', label: 'Student' },
          ]}
          value={value}
          onValueChange={setValue}
          error={value === 'student' ? 'Not allowed' : undefined}
        />
      );
    }
    renderWithProviders(<Group />);
    expect(screen.getByRole('radiogroup', { name: 'Which best describes you?' })).toBeInTheDocument();
    await user.tab();
    expect(screen.getByRole('radio', { name: 'Teacher' })).toHaveFocus();
    // held down, as a real key press is while Radix moves focus
    await user.keyboard('{ArrowDown>}');
    await waitFor(() => expect(screen.getByRole('radio', { name: 'Student' })).toHaveFocus());
    await waitFor(() => expect(screen.getByRole('radio', { name: 'Student' })).toBeChecked());
    await user.keyboard('{/ArrowDown}');
    expect(screen.getByRole('radiogroup')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('radiogroup')).toHaveAccessibleDescription('Not allowed');
  });

  it('a hidden legend still names the group', () => {
    renderWithProviders(
      <RadioGroup
        legend="Are you a Student?"
        hideLegend
        options={[{ value: 'yes', label: 'Yes' }]}
        value={undefined}
        onValueChange={() => undefined}
      />,
    );
    expect(screen.getByRole('radiogroup', { name: 'Are you a Student?' })).toBeInTheDocument();
    expect(screen.getByText('Are you a Student?')).toHaveClass('visually-hidden');
  });
});

describe('FormErrorSummary', () => {
  it('takes focus on a failed submit and its links focus the fields', async () => {
    const user = userEvent.setup();
    function Form() {
      const [attempts, setAttempts] = useState(0);
      return (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            setAttempts((n) => n + 1);
          }}
        >
          <FormErrorSummary
            focusKey={attempts}
            message="Please correct the issues shown below to proceed."
            errors={attempts ? [{ fieldId: 'first', message: 'First Name is a required field.' }] : []}
          />
          <TextField
            id="first"
            label="First name"
            error={attempts ? 'First Name is a required field.' : undefined}
          />
          <Button type="submit">Create account</Button>
        </form>
      );
    }
    renderWithProviders(<Form />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    const summary = screen.getByRole('alert');
    expect(summary).toHaveFocus();
    expect(summary).toHaveTextContent('There is a problem');
    expect(summary).toHaveTextContent('Please correct the issues shown below to proceed.');
    await user.click(screen.getByRole('link', { name: 'First Name is a required field.' }));
    expect(screen.getByRole('textbox', { name: 'First name' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByRole('alert')).toHaveFocus();
  });

  it('takes focus once per failed submit, never when errors come back while typing (WCAG 3.2.2)', async () => {
    const user = userEvent.setup();
    function Form() {
      const [attempts, setAttempts] = useState(0);
      const [code, setCode] = useState('');
      // re-validated on every change after the first submit
      const error = attempts && code.length !== 6 ? 'Enter the 6-digit code.' : undefined;
      return (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (code.length !== 6) setAttempts((n) => n + 1);
          }}
        >
          <FormErrorSummary focusKey={attempts} errors={error ? [{ fieldId: 'code', message: error }] : []} />
          <TextField id="code" label="Code" value={code} onChange={(e) => setCode(e.target.value)} />
          <Button type="submit">Continue</Button>
        </form>
      );
    }
    renderWithProviders(<Form />);
    const field = screen.getByRole('textbox', { name: 'Code' });
    await user.type(field, '12{Enter}');
    expect(screen.getByRole('alert')).toHaveFocus();
    await user.click(field);
    await user.keyboard('3456');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.keyboard('{Backspace}');
    expect(screen.getByRole('alert')).toBeInTheDocument();
    expect(field).toHaveFocus();
    await user.keyboard('9');
    await user.keyboard('{Backspace}7');
    expect(field).toHaveFocus();
    expect(field).toHaveValue('123457');
    await user.clear(field);
    await user.keyboard('1{Enter}');
    expect(screen.getByRole('alert')).toHaveFocus();
  });
});

describe('FormErrorSummary before any submit', () => {
  it('stays hidden while errors come from fields being filled in', () => {
    renderWithProviders(
      <FormErrorSummary
        focusKey={0}
        errors={[{ fieldId: 'first', message: 'First Name is a required field.' }]}
      />,
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

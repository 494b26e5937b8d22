import { afterEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyDocumentLanguage } from '../lib/i18n/index.ts';
import { renderWithProviders } from '../test/render.tsx';
import { Alert } from './Alert.tsx';
import { CodeInput } from './CodeInput.tsx';
import { PasswordField } from './PasswordField.tsx';
import { TextField } from './TextField.tsx';

describe('fields tied to messages shown elsewhere (issue 12)', () => {
  it("a server's refusal marks the field invalid and describes it", () => {
    const { rerender } = renderWithProviders(
      <PasswordField label="Password" autoComplete="current-password" />,
    );
    const input = screen.getByLabelText('Password');
    expect(input).not.toHaveAttribute('aria-invalid');
    rerender(
      <>
        <Alert tone="error" id="call-error">
          Incorrect username or password.
        </Alert>
        <PasswordField
          label="Password"
          autoComplete="current-password"
          id={input.id}
          refusalId="call-error"
        />
      </>,
    );
    const refused = screen.getByLabelText('Password');
    expect(refused).toHaveAttribute('aria-invalid', 'true');
    expect(refused).toHaveAccessibleDescription('Incorrect username or password.');
    expect(refused).not.toHaveAttribute('refusalid');
  });

  it('other describing text joins the hint and the error, in that order', () => {
    renderWithProviders(
      <>
        <p id="rules">At least 12 characters</p>
        <TextField label="Name" hint="As on your badge" error="Required" describedBy="rules" />
      </>,
    );
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription(
      'As on your badge Required At least 12 characters',
    );
  });
});

describe('addresses, passwords and codes in a right-to-left page', () => {
  afterEach(() => applyDocumentLanguage('en'));

  it("are left to right (Arabic showed 'student@' as '@student'); other text follows the page", async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <TextField label="الاسم الأول" />
        <TextField label="البريد الإلكتروني" type="email" />
        <PasswordField label="كلمة المرور" autoComplete="current-password" />
        <CodeInput label="رمز التحقق" value="" onChange={() => undefined} />
      </>,
      { language: 'ar' },
    );
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(screen.getByLabelText('الاسم الأول')).not.toHaveAttribute('dir');
    for (const label of ['البريد الإلكتروني', 'كلمة المرور', 'رمز التحقق']) {
      expect(screen.getByLabelText(label)).toHaveAttribute('dir', 'ltr');
    }
    // shown, the password is still left to right
    await user.click(screen.getByRole('button', { name: 'إظهار كلمة المرور' }));
    expect(screen.getByLabelText('كلمة المرور')).toHaveAttribute('dir', 'ltr');
  });
});

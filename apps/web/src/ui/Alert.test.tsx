import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { renderWithProviders } from '../test/render.tsx';
import { Alert } from './Alert.tsx';
import { AnnounceContext } from './announce.ts';

describe('Alert roles follow the tone (issue 12: alert only for errors)', () => {
  it('an error interrupts (role=alert)', () => {
    renderWithProviders(<Alert tone="error">Incorrect username or password.</Alert>);
    expect(screen.getByRole('alert')).toHaveTextContent('Incorrect username or password.');
  });

  // the providers hold other status regions (the snack bar's): the notice is found by its text
  const noticeOf = (text: string) => screen.getByText(text).closest('[class]');

  it.each(['success', 'warning'] as const)('a %s notice is announced politely (role=status)', (tone) => {
    renderWithProviders(<Alert tone={tone}>Your account has been verified, thank you!</Alert>);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(noticeOf('Your account has been verified, thank you!')?.parentElement).toHaveAttribute(
      'role',
      'status',
    );
  });

  it('an info notice is plain text, read with the page (no live role)', () => {
    renderWithProviders(<Alert tone="info">Open the sign-in link your teacher gave you.</Alert>);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    const notice = noticeOf('Open the sign-in link your teacher gave you.')?.parentElement;
    expect(notice).toBeInstanceOf(HTMLDivElement);
    expect(notice).not.toHaveAttribute('role');
    expect(notice).not.toHaveAttribute('aria-live');
  });

  it('carries the id a field names as the refusal of its value', () => {
    renderWithProviders(
      <Alert tone="error" id="call-error">
        Incorrect username or password.
      </Alert>,
    );
    expect(screen.getByRole('alert')).toHaveAttribute('id', 'call-error');
  });
});

describe("Alert focusKey (a form's refusal from the server)", () => {
  it('takes the focus for each new focusKey (a new refusal), not again for the same one, never without one', () => {
    const first = { code: 'accountExists' };
    const { rerender } = renderWithProviders(<Alert tone="error">No key</Alert>);
    expect(screen.getByRole('alert')).not.toHaveFocus();
    expect(screen.getByRole('alert')).not.toHaveAttribute('tabindex');
    rerender(
      <Alert tone="error" focusKey={first}>
        Refused
      </Alert>,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveFocus();
    alert.blur();
    rerender(
      <Alert tone="error" focusKey={first}>
        Refused
      </Alert>,
    );
    expect(alert).not.toHaveFocus();
    rerender(
      <Alert tone="error" focusKey={{ code: 'accountExists' }}>
        Refused
      </Alert>,
    );
    expect(alert).toHaveFocus();
  });
});

describe("Alert inside the shell (its live region, there from the page's first paint)", () => {
  function Page({ announce }: { announce: (text: string) => void }) {
    const [text, setText] = useState('A new code has been sent.');
    const [, setRenders] = useState(0);
    return (
      <AnnounceContext value={announce}>
        <Alert tone="success">{text}</Alert>
        <button onClick={() => setRenders((n) => n + 1)}>Render again</button>
        <button onClick={() => setText('Check your spam folder.')}>Change</button>
      </AnnounceContext>
    );
  }

  it("a polite notice that appears is read by the shell's region, once per text, and is no region of its own", () => {
    const announce = vi.fn();
    renderWithProviders(<Page announce={announce} />);
    expect(announce.mock.calls).toEqual([['A new code has been sent.']]);
    expect(screen.getByText('A new code has been sent.').closest('[role]')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Render again' }));
    expect(announce).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Change' }));
    expect(announce.mock.calls).toEqual([['A new code has been sent.'], ['Check your spam folder.']]);
  });

  it('an error keeps interrupting by itself (role=alert), and is not read twice', () => {
    const announce = vi.fn();
    renderWithProviders(
      <AnnounceContext value={announce}>
        <Alert tone="error">Invalid code.</Alert>
      </AnnounceContext>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid code.');
    expect(announce).not.toHaveBeenCalled();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import {
  DIALOG_ANIMATION_MS,
  SNACK_BAR_ANIMATION_MS,
  SNACK_BAR_DEFAULT_DURATION_MS,
} from '@frontdoor/contract';
import { renderWithProviders } from '../test/render.tsx';
import { Button } from './Button.tsx';
import { Dialog } from './Dialog.tsx';
import { useSnackBar } from './SnackBar.tsx';
import { Alert } from './Alert.tsx';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A page whose button opens the work/school Dialog, holding what `children` makes with its close. */
function DialogPage({ children }: { children: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Continue with Microsoft</Button>
      <Dialog open={open} onOpenChange={setOpen} title="Work or school email">
        {children(() => setOpen(false))}
      </Dialog>
    </>
  );
}

describe('Dialog', () => {
  it('traps focus, closes with Escape and returns focus to its trigger; animation 200 ms', async () => {
    const user = userEvent.setup();
    function Demo() {
      const [open, setOpen] = useState(false);
      return (
        <Dialog
          open={open}
          onOpenChange={setOpen}
          title="Work or school email"
          trigger={<Button>Microsoft</Button>}
        >
          <input aria-label="Email" />
        </Dialog>
      );
    }
    renderWithProviders(<Demo />);
    const trigger = screen.getByRole('button', { name: 'Microsoft' });
    await user.click(trigger);
    const dialog = await screen.findByRole('dialog', { name: 'Work or school email' });
    expect(dialog.style.getPropertyValue('--fd-dialog-ms')).toBe(`${DIALOG_ANIMATION_MS}ms`);
    expect(DIALOG_ANIMATION_MS).toBe(200);
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(trigger).toHaveFocus();
  });

  it("returns focus to the page's own opener on Escape and on Cancel (WCAG 2.4.3)", async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <DialogPage>
        {(close) => (
          <>
            <input aria-label="Email" />
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
          </>
        )}
      </DialogPage>,
    );
    const opener = screen.getByRole('button', { name: 'Continue with Microsoft' });

    await user.click(opener);
    expect(await screen.findByRole('textbox', { name: 'Email' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();

    await user.keyboard('{Enter}');
    expect(await screen.findByRole('textbox', { name: 'Email' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('scrolls the control it focuses into view, on opening and as Tab wraps around (400% zoom)', async () => {
    const user = userEvent.setup();
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView');
    renderWithProviders(<DialogPage>{() => <input aria-label="Email" />}</DialogPage>);
    await user.click(screen.getByRole('button', { name: 'Continue with Microsoft' }));
    const email = await screen.findByRole('textbox', { name: 'Email' });
    expect(email).toHaveFocus();
    // Radix focused it with preventScroll: only the dialog's own call brings it into view
    expect(scrolled.mock.contexts).toEqual([email]);
    expect(scrolled).toHaveBeenLastCalledWith({ block: 'nearest' });
    await user.tab();
    await user.tab();
    expect(email).toHaveFocus();
    expect(scrolled.mock.contexts.at(-1)).toBe(email);
  });
});

function SnackDemo({ durationMs }: { durationMs?: number }) {
  const snack = useSnackBar();
  return (
    <Button onClick={() => snack.show('Saved!', durationMs === undefined ? undefined : { durationMs })}>
      Save
    </Button>
  );
}

describe('SnackBar', () => {
  it('announces in a status region, animates 300 ms and hides after the default duration', () => {
    vi.useFakeTimers();
    renderWithProviders(<SnackDemo />);
    act(() => screen.getByRole('button', { name: 'Save' }).click());
    const region = screen.getByRole('status');
    expect(region).toHaveTextContent('Saved!');
    expect(region.style.getPropertyValue('--fd-snack-ms')).toBe(`${SNACK_BAR_ANIMATION_MS}ms`);
    expect(SNACK_BAR_ANIMATION_MS).toBe(300);
    act(() => vi.advanceTimersByTime(SNACK_BAR_DEFAULT_DURATION_MS - 1));
    expect(region).toHaveTextContent('Saved!');
    act(() => vi.advanceTimersByTime(1));
    expect(region).not.toHaveTextContent('Saved!');
  });

  it('takes a configurable duration and can be dismissed', () => {
    vi.useFakeTimers();
    renderWithProviders(<SnackDemo durationMs={1000} />);
    act(() => screen.getByRole('button', { name: 'Save' }).click());
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('status')).toHaveTextContent('');
    act(() => screen.getByRole('button', { name: 'Save' }).click());
    act(() => screen.getByRole('button', { name: 'Dismiss' }).click());
    expect(screen.getByRole('status')).not.toHaveTextContent('Saved!');
  });
});

describe('Alert', () => {
  it('is role=alert and stays without a duration', () => {
    vi.useFakeTimers();
    renderWithProviders(<Alert>Access denied. Please contact your administrator.</Alert>);
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByRole('alert')).toHaveTextContent('Access denied. Please contact your administrator.');
  });

  it('closes itself after a configured duration and calls onClose', () => {
    vi.useFakeTimers();
    const onClose = vi.fn();
    renderWithProviders(
      <Alert tone="success" durationMs={3000} onClose={onClose}>
        Your account has been verified, thank you!
      </Alert>,
    );
    act(() => vi.advanceTimersByTime(2999));
    expect(screen.getByText('Your account has been verified, thank you!')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Your account has been verified, thank you!')).not.toBeInTheDocument();
    expect(onClose).toHaveBeenCalledOnce();
  });
});

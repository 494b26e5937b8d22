import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { renderWithProviders } from '../test/render.tsx';
import { RadioGroup } from './RadioGroup.tsx';

function Group() {
  const [value, setValue] = useState<string | undefined>(undefined);
  return (
    <>
      <RadioGroup
        legend="Are you a Student?"
        options={[
          { value: 'yes', label: 'Yes' },
          { value: 'no', label: 'No' },
        ]}
        value={value}
        onValueChange={setValue}
      />
      <button type="button">Next</button>
    </>
  );
}

describe('RadioGroup with nothing chosen yet (issue 12)', () => {
  it('Tab reaches the group without choosing; a quick arrow press moves and selects', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Group />);
    const yes = screen.getByRole('radio', { name: 'Yes' });
    const no = screen.getByRole('radio', { name: 'No' });
    await user.tab();
    expect(yes).toHaveFocus();
    expect(yes).not.toBeChecked();
    // pressed and released at once, as a screen reader or a quick typist sends it
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(no).toHaveFocus());
    expect(no).toBeChecked();
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(yes).toHaveFocus());
    expect(yes).toBeChecked();
    expect(no).not.toBeChecked();
  });

  it('leaving with Tab and coming back with Shift+Tab changes nothing', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Group />);
    await user.tab();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Next' })).toHaveFocus();
    // as every native radio group with nothing chosen: Shift+Tab comes back to its last radio
    await user.tab({ shift: true });
    expect(screen.getByRole('radio', { name: 'No' })).toHaveFocus();
    expect(screen.getByRole('radio', { name: 'Yes' })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: 'No' })).not.toBeChecked();
  });
});

describe('RadioGroup as an error summary reaches it', () => {
  it('focusing the group (its id) hands the focus to the chosen radio, else the first', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Group />);
    const group = screen.getByRole('radiogroup', { name: 'Are you a Student?' });
    group.focus();
    expect(screen.getByRole('radio', { name: 'Yes' })).toHaveFocus();
    await user.click(screen.getByText('No'));
    expect(screen.getByRole('radio', { name: 'No' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    group.focus();
    expect(screen.getByRole('radio', { name: 'No' })).toHaveFocus();
  });
});

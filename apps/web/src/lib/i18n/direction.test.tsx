import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import { RadioGroup } from '../../ui/RadioGroup.tsx';
import { renderWithProviders } from '../../test/render.tsx';

const choice = (
  <RadioGroup
    legend="Pick"
    name="pick"
    value="a"
    onValueChange={() => undefined}
    options={[
      { value: 'a', label: 'A' },
      { value: 'b', label: 'B' },
    ]}
  />
);

describe('ReadingDirection (Radix primitives follow the language)', () => {
  it('a radio group reads right to left in Arabic and left to right after switching to English', async () => {
    const { translation } = renderWithProviders(choice, { language: 'ar' });
    expect(await screen.findByRole('radiogroup')).toHaveAttribute('dir', 'rtl');
    await act(() => translation.change('en'));
    expect(screen.getByRole('radiogroup')).toHaveAttribute('dir', 'ltr');
  });
});

import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import { useDirection } from '@radix-ui/react-direction';
import { renderWithProviders } from '../../test/render.tsx';

/** What a Radix primitive (the language menu, a dialog) reads as its direction. */
function RadixDirection() {
  return <p data-testid="direction">{useDirection()}</p>;
}

describe('ReadingDirection (Radix primitives follow the language)', () => {
  it('Radix reads right to left in Arabic and left to right after switching to English', async () => {
    const { translation } = renderWithProviders(<RadixDirection />, { language: 'ar' });
    expect(await screen.findByTestId('direction')).toHaveTextContent('rtl');
    await act(() => translation.change('en'));
    expect(screen.getByTestId('direction')).toHaveTextContent('ltr');
  });
});

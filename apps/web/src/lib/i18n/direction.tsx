import type { ReactNode } from 'react';
import { DirectionProvider } from '@radix-ui/react-direction';
import { useCurrentLanguage } from './context.tsx';
import { directionOf } from '@frontdoor/contract';

/**
 * The reading direction of the current language for the Radix primitives: they take it from this
 * context, not from <html dir>, and default to left to right (a radio group in Arabic was laid out
 * left to right).
 */
export function ReadingDirection({ children }: { children: ReactNode }) {
  return <DirectionProvider dir={directionOf(useCurrentLanguage())}>{children}</DirectionProvider>;
}

import type { FocusEvent } from 'react';

/**
 * onFocus of a modal's content. Radix's focus trap moves the focus with preventScroll (as the modal
 * opens, and as Tab wraps around from its last control to its first or back), so in a modal that
 * scrolls (at 400% zoom) the control it focused stayed out of view (WCAG 2.4.11); this brings it
 * into view as the browser's own focus would, and leaves a control already in view where it is.
 */
export function revealFocused(event: FocusEvent<HTMLElement>): void {
  event.target.scrollIntoView({ block: 'nearest' });
}

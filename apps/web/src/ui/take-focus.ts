import { useEffect, useRef } from 'react';
import type { RefObject } from 'react';

/**
 * Focuses the element once for each new `key` (undefined: not now). A message that appears where the
 * person is not looking (the error summary after a failed submit, a form's refusal from the server,
 * both above a long form whose button is at the bottom of a phone's screen) takes the focus, which
 * scrolls it into view (clear of the top bar: global.css's scroll-padding) and has it read. A key
 * that comes back (errors shown again while the person types) leaves the focus where it is
 * (WCAG 3.2.2).
 */
export function useTakeFocus<E extends HTMLElement>(key: unknown): RefObject<E | null> {
  const ref = useRef<E>(null);
  const focusedKey = useRef<unknown>(undefined);
  useEffect(() => {
    if (key === undefined || focusedKey.current === key) return;
    focusedKey.current = key;
    ref.current?.focus();
  }, [key]);
  return ref;
}

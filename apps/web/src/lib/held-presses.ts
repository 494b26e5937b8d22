import { useEffect } from 'react';
import { HELD_PRESSES_GLOBAL, type HeldPresses } from '@frontdoor/contract';

type Scope = typeof globalThis & { [HELD_PRESSES_GLOBAL]?: HeldPresses };

/**
 * Whether React has hydrated an element (it keeps the element's props under a `__reactProps$…` key).
 * A part of the page can hydrate after the rest, and a press replayed on a part not yet hydrated
 * would submit its form natively: exactly what the holding prevents.
 */
const hydrated = (element: Element): boolean =>
  Object.keys(element).some((key) => key.startsWith('__reactProps$'));

const isChoice = (element: Element): element is HTMLInputElement =>
  element instanceof HTMLInputElement && element.type === 'radio';

/**
 * Ends the holding a prerendered page's inline script did before the app hydrated: makes each held
 * radio choice again, in order (React unchecks a controlled radio as it hydrates: the choice would be
 * lost), then presses the last held button again (or submits the last held form): one press, however
 * many were waiting. Returns false, holding on, while one of those elements is not hydrated yet.
 */
export function pressHeldAgain(scope: Scope = globalThis as Scope): boolean {
  const held = scope[HELD_PRESSES_GLOBAL];
  if (!held) return true;
  const choices = held.targets.filter(isChoice);
  const last = held.targets.filter((target) => !isChoice(target)).at(-1);
  const pending = last ? [...choices, last] : choices;
  if (pending.some((element) => element.isConnected && !hydrated(element))) return false;
  held.stop();
  delete scope[HELD_PRESSES_GLOBAL];
  for (const choice of choices) if (choice.isConnected) choice.click();
  if (!last?.isConnected) return true;
  if (last instanceof HTMLFormElement) last.requestSubmit();
  else if (last instanceof HTMLElement) last.click();
  return true;
}

/** Rendered last in the page's boundary (ShellLayout): once hydrated, presses again what was held (frame by frame until it can). */
export function PressHeldAgain(): null {
  useEffect(() => {
    let frame = 0;
    const attempt = () => {
      if (!pressHeldAgain()) frame = requestAnimationFrame(attempt);
    };
    attempt();
    return () => cancelAnimationFrame(frame);
  }, []);
  return null;
}

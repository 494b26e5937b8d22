import { useEffect, useState } from 'react';
import { TOP_BAR_HIDE_OFFSET_PX } from '@frontdoor/contract';

/**
 * §2: the top bar hides when the user scrolls down away from the top and shows again on scroll up
 * or at the top. `away` = past the bar's own height, so a small nudge at the top never hides it.
 */
export function nextTopBarHidden(previousY: number, y: number, wasHidden: boolean): boolean {
  if (y <= 0) return false;
  if (y < previousY) return false;
  if (y > previousY && y > TOP_BAR_HIDE_OFFSET_PX) return true;
  return wasHidden;
}

export function useTopBarHidden(): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    let previousY = window.scrollY;
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const y = window.scrollY;
        // React may run the updater later, after previousY moved on: capture this frame's pair
        const from = previousY;
        setHidden((wasHidden) => nextTopBarHidden(from, y, wasHidden));
        previousY = y;
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
    };
  }, []);
  return hidden;
}

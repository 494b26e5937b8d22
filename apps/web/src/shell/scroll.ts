import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** The element a #hash points at (by id, then by name as browsers do), or null. */
function anchorTarget(hash: string): HTMLElement | null {
  const id = decodeURIComponent(hash.replace(/^#/, ''));
  if (!id) return null;
  return document.getElementById(id) ?? document.getElementsByName(id)[0] ?? null;
}

/**
 * §2: every navigation scrolls to the top; a URL with #anchor scrolls to its target instead. Pages
 * are loaded lazily, so the target is looked for over a few frames before giving up.
 */
export function useNavigationScroll(): void {
  const { key, hash } = useLocation();
  useEffect(() => {
    if (!hash) {
      window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
      return;
    }
    let frame = 0;
    let attempts = 0;
    const tryScroll = () => {
      const target = anchorTarget(hash);
      if (target) {
        target.scrollIntoView({ block: 'start' });
        return;
      }
      if (++attempts < 30) frame = requestAnimationFrame(tryScroll);
    };
    tryScroll();
    return () => cancelAnimationFrame(frame);
  }, [key, hash]);
}

import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';
import type { ReactNode, RefObject } from 'react';

type ArriveAtStep = () => void;

const StepArrivalContext = createContext<ArriveAtStep>(() => undefined);

/**
 * For a page that moves on to a new step without a navigation (/post-login's preferences): call it
 * once the step is shown to focus its heading and announce it, as a navigation would.
 */
export function useStepArrival(): ArriveAtStep {
  return useContext(StepArrivalContext);
}

function focusHeading(heading: HTMLElement): void {
  // the page's h1 carries tabIndex -1 (PageCard); the scroll is useNavigationScroll's
  heading.focus({ preventScroll: true });
}

/**
 * WCAG 2.4.3 and 4.1.3: after every navigation inside the app (not the first load, which the browser
 * announces itself) the focus moves to the new page's h1 and the live region of the shell reads the
 * document title. A page that has put the focus on one of its controls by itself (the password of a
 * known email) keeps it. Pages load lazily, so the heading is waited for.
 */
export function usePageArrival(pageKey: string, mainRef: RefObject<HTMLElement | null>) {
  const [announcement, setAnnouncement] = useState({ text: '', count: 0 });
  const announce = useCallback(
    () => setAnnouncement(({ count }) => ({ text: document.title, count: count + 1 })),
    [],
  );
  const shownKey = useRef(pageKey);
  useEffect(() => {
    const main = mainRef.current;
    if (!main || shownKey.current === pageKey) return;
    shownKey.current = pageKey;
    const arrive = (): boolean => {
      // the page before is gone (its key changed), so any h1 is the new page's
      const heading = main.querySelector<HTMLElement>('h1');
      if (!heading) return false;
      const active = document.activeElement;
      if (!main.contains(active) || active === main) focusHeading(heading);
      announce();
      return true;
    };
    if (arrive()) return;
    const observer = new MutationObserver(() => {
      if (arrive()) observer.disconnect();
    });
    observer.observe(main, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [pageKey, mainRef, announce]);

  const arriveAtStep = useCallback(() => {
    const heading = mainRef.current?.querySelector<HTMLElement>('h1');
    if (heading) focusHeading(heading);
    announce();
  }, [mainRef, announce]);

  return { announcement, arriveAtStep };
}

/** Gives the routed pages the shell's step arrival. */
export function StepArrivalProvider({ value, children }: { value: ArriveAtStep; children: ReactNode }) {
  return <StepArrivalContext.Provider value={value}>{children}</StepArrivalContext.Provider>;
}

/**
 * The shell's polite live region: a new node per announcement, so the same title (a navigation to
 * the page you are on) is read again.
 */
export function PageAnnouncer({ announcement }: { announcement: { text: string; count: number } }) {
  return (
    <div role="status" aria-live="polite" className="visually-hidden">
      {announcement.text && <span key={announcement.count}>{announcement.text}</span>}
    </div>
  );
}

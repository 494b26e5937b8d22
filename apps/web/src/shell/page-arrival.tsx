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
 * document title; `say` reads a page's notice there (AnnounceContext). A page that has put the focus on one of its controls by itself (the password of a
 * known email) keeps it. Pages load lazily, so the heading is waited for.
 */
export function usePageArrival(pageKey: string, mainRef: RefObject<HTMLElement | null>) {
  const [announcements, setAnnouncements] = useState<Announcement[]>([]);
  // the one before stays: a notice shown as a page arrives does not cut its title short
  const say = useCallback(
    (text: string) =>
      setAnnouncements((said) => [...said.slice(-1), { text, id: (said.at(-1)?.id ?? 0) + 1 }]),
    [],
  );
  const announce = useCallback(() => say(document.title), [say]);
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

  return { announcements, arriveAtStep, say };
}

/** Gives the routed pages the shell's step arrival. */
export function StepArrivalProvider({ value, children }: { value: ArriveAtStep; children: ReactNode }) {
  return <StepArrivalContext.Provider value={value}>{children}</StepArrivalContext.Provider>;
}

interface Announcement {
  text: string;
  id: number;
}

/**
 * The shell's polite live region: a new node per announcement, so the same title (a navigation to
 * the page you are on) or notice is read again.
 */
export function PageAnnouncer({ announcements }: { announcements: Announcement[] }) {
  return (
    <div role="status" aria-live="polite" className="visually-hidden">
      {announcements.map(({ text, id }) => (
        <span key={id}>{text}</span>
      ))}
    </div>
  );
}

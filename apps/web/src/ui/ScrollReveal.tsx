import { useEffect, useRef, useState } from 'react';
import type { CSSProperties, ReactNode } from 'react';
import { SCROLL_REVEAL_DEFAULTS } from '@frontdoor/contract';
import { debounce, throttle } from '../lib/timing.ts';
import styles from './Controls.module.css';

export interface ScrollRevealOptions {
  /** Pixels the element's top must be above the viewport's bottom edge before it shows. */
  offset: number;
  delay: number;
  duration: number;
  easing: string;
  throttleDelay: number;
  debounceDelay: number;
}

/** True once the element's top has come `offset` px into the viewport. */
export const shouldReveal = (elementTop: number, viewportHeight: number, offset: number): boolean =>
  elementTop <= viewportHeight - offset;

const prefersReducedMotion = (): boolean =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * Fades and lifts its children in when they scroll into view (defaults from the contract: offset 120,
 * delay 0, 400 ms, ease; scroll checks throttled 99 ms, resize debounced 50 ms). Under
 * prefers-reduced-motion the content is simply shown.
 */
export function ScrollReveal({
  children,
  ...overrides
}: { children: ReactNode } & Partial<ScrollRevealOptions>) {
  const options: ScrollRevealOptions = { ...SCROLL_REVEAL_DEFAULTS, ...overrides };
  const { offset, throttleDelay, debounceDelay } = options;
  const ref = useRef<HTMLDivElement>(null);
  const [reducedMotion] = useState(prefersReducedMotion);
  const [revealed, setRevealed] = useState(reducedMotion);

  useEffect(() => {
    if (revealed) return;
    const check = () => {
      const element = ref.current;
      if (element && shouldReveal(element.getBoundingClientRect().top, window.innerHeight, offset))
        setRevealed(true);
    };
    check();
    const onScroll = throttle(check, throttleDelay);
    const onResize = debounce(check, debounceDelay);
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onResize);
    return () => {
      onScroll.cancel();
      onResize.cancel();
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onResize);
    };
  }, [revealed, offset, throttleDelay, debounceDelay]);

  if (reducedMotion) return <div data-reveal="static">{children}</div>;
  const timing: CSSProperties = {
    transitionDuration: `${options.duration}ms`,
    transitionDelay: `${options.delay}ms`,
    transitionTimingFunction: options.easing,
  };
  return (
    <div
      ref={ref}
      data-reveal={revealed ? 'shown' : 'hidden'}
      className={[styles.reveal, revealed ? styles.revealed : ''].join(' ')}
      style={timing}
    >
      {children}
    </div>
  );
}

import { useSyncExternalStore } from 'react';

const unchanging = () => () => undefined;

/**
 * False while React hydrates a prerendered page (and when prerendering), true in every other render,
 * including the one right after hydration. What only a browser can render goes behind it: a portal,
 * and inline styles, which the page's CSP refuses as markup (style-src-attr 'none') but allows when
 * React sets them from script. The switch to true is a synchronous re-render of the component that
 * reads it: read it in the leaf that needs it, never above the page's <Suspense>, or React hydrates
 * the whole page in that one blocking task (prerender.test.tsx checks it).
 */
export const useHydrated = (): boolean =>
  useSyncExternalStore(
    unchanging,
    () => true,
    () => false,
  );

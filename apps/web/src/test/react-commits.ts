/**
 * React DevTools' global hook, which react-dom calls on every commit. Installed before react-dom loads
 * (setup.ts imports this module first), it lets a test see at which priority React committed a render.
 */
type CommitListener = (priority: number) => void;

let listener: CommitListener | undefined;

/** The scheduler's ImmediatePriority: the commit of a synchronous render, which nothing can interrupt. */
export const SYNC_COMMIT = 1;

Object.assign(globalThis, {
  __REACT_DEVTOOLS_GLOBAL_HOOK__: {
    supportsFiber: true,
    inject: () => 1,
    checkDCE: () => undefined,
    onCommitFiberRoot: (_renderer: number, _root: unknown, priority: number) => listener?.(priority),
    onCommitFiberUnmount: () => undefined,
  },
});

/** Calls `next` after each commit from now on (undefined stops). */
export function onReactCommit(next: CommitListener | undefined): void {
  listener = next;
}

/** Whether React has taken this element of the served markup over (hydrated it or rendered it). */
export const isReactOwned = (element: Element): boolean =>
  Object.keys(element).some((key) => key.startsWith('__reactFiber$'));

import type { AnchorHTMLAttributes } from 'react';
import { useHref, useLinkClickHandler, type To } from 'react-router';

/**
 * An in-app link: the router's href, and a plain click navigates without a page load (a modified or
 * middle click still opens a tab). Not react-router's `Link`: its prefetching, for framework mode,
 * brings its server-rendering components into the first script (1.8 kB).
 */
export function Link({ to, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: To }) {
  const href = useHref(to);
  const navigateOnClick = useLinkClickHandler(to, { target: rest.target });
  return (
    <a
      {...rest}
      href={href}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) navigateOnClick(event);
      }}
    />
  );
}

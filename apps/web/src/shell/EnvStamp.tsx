import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useConfig } from '../lib/config.tsx';
import { pageNonce } from '../lib/csp-nonce.ts';
import { useIsMobile } from './use-is-mobile.ts';
import shellStyles from './Shell.module.css';

/**
 * Inline !important styles: no page or theme rule can hide or restyle the stamp. React's style prop
 * cannot express !important, hence setProperty.
 */
const STAMP_STYLE: Record<string, string> = {
  position: 'fixed',
  // bottom corner: never over the top bar's logo or language menu
  bottom: '34px',
  right: '-68px',
  transform: 'rotate(-45deg)',
  'z-index': '2147483647',
  'pointer-events': 'none',
  'user-select': 'none',
  padding: '4px 72px',
  background: 'rgba(200, 16, 46, 0.88)',
  color: '#ffffff',
  font: '700 12px/1.4 system-ui, sans-serif',
  'letter-spacing': '0.2em',
  'text-transform': 'uppercase',
  'box-shadow': '0 2px 8px rgba(0, 0, 0, 0.25)',
  // no inline display/visibility: an inline !important would beat the print rule below
};

/** Phones and tablets get a smaller ribbon tucked further into the corner, over less of the page. */
const COMPACT_STYLE: Record<string, string> = {
  bottom: '30px',
  right: '-56px',
  padding: '2px 56px',
  font: '700 10px/1.4 system-ui, sans-serif',
};

const PRINT_RULE = '@media print { [data-env-stamp] { display: none !important; } }';

/**
 * Height of the bottom band the ribbon's corner covers (px, either size). While the stamp shows, the
 * footer's links end above it, so at the end of the page nothing is under the stamp (it hid the first
 * footer link in Arabic at 390 px and the last one at 320 px), and the browser scrolls a focused
 * control clear of it (scroll-padding: focus never hides under the stamp, WCAG 2.4.11).
 */
export const STAMP_CLEARANCE_PX = 120;
const CLEARANCE_RULE =
  `@media screen { html { scroll-padding-block-end: ${STAMP_CLEARANCE_PX}px; } ` +
  `.${shellStyles.footer} { padding-block-end: ${STAMP_CLEARANCE_PX}px; } }`;

/**
 * §2: in every environment but production a red rotated stamp overlays the page. It is rendered
 * through a portal into <body>, outside the app root, is invisible to assistive technology and
 * never catches the pointer, and it is hidden when printing. The shell loads it (a chunk of its
 * own) only outside production, once the page has hydrated: a portal is rendered in the browser only.
 */
export default function EnvStamp() {
  const cfg = useConfig();
  const ref = useRef<HTMLDivElement>(null);
  const compact = useIsMobile();
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const style = compact ? { ...STAMP_STYLE, ...COMPACT_STYLE } : STAMP_STYLE;
    for (const [property, value] of Object.entries(style))
      element.style.setProperty(property, value, 'important');
  }, [compact]);
  return createPortal(
    <>
      <style nonce={pageNonce()}>{`${PRINT_RULE} ${CLEARANCE_RULE}`}</style>
      <div ref={ref} data-env-stamp="" data-testid="env-stamp" aria-hidden="true" dir="ltr">
        {cfg.env}
      </div>
    </>,
    document.body,
  );
}

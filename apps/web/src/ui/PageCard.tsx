import { useId, useLayoutEffect } from 'react';
import type { ReactNode } from 'react';
import { useConfig } from '../lib/config.tsx';
import styles from './Page.module.css';

export interface PageCardProps {
  /** The page's one h1. */
  title: ReactNode;
  /** A short lead paragraph under the heading. */
  lead?: ReactNode;
  children?: ReactNode;
  /** Secondary links below a rule (e.g. "Continue with SSO"). */
  footer?: ReactNode;
  wide?: boolean;
}

/** The layout of every page: a centred card with a heading, content and an optional footer. */
export function PageCard({ title, lead, children, footer, wide = false }: PageCardProps) {
  const headingId = useId();
  const { providerName } = useConfig();
  // The tab title follows the page heading, so it is translated and tells pages apart in history.
  // Set as the page is put in, before the shell announces it (shell/page-arrival.tsx).
  useLayoutEffect(() => {
    if (typeof title === 'string') document.title = `${title} · ${providerName}`;
  }, [title, providerName]);
  return (
    <div className={styles.page}>
      <section className={[styles.card, wide ? styles.wide : ''].join(' ')} aria-labelledby={headingId}>
        {/* focusable by script only: the shell moves the focus here after a navigation */}
        <h1 className={styles.title} id={headingId} tabIndex={-1}>
          {title}
        </h1>
        {lead && <p className={styles.lead}>{lead}</p>}
        {children}
        {footer && <div className={styles.footer}>{footer}</div>}
      </section>
    </div>
  );
}

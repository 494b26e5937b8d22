import { useState } from 'react';
import type { CSSProperties } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from '../lib/i18n/use-translation.tsx';
import { TOP_BAR_HIDE_OFFSET_PX, TOP_BAR_TRANSITION_MS } from '@frontdoor/contract';
import { useConfig } from '../lib/config.tsx';
import { useHydrated } from '../lib/hydrated.ts';
import { useTranslationService } from '../lib/i18n/context.tsx';
import { isExcludedPath } from '../lib/i18n/excluded-paths.ts';
import logo from '../assets/logo.svg';
import { LanguageMenu } from './LanguageMenu.tsx';
import { useTopBarHidden } from './top-bar-visibility.ts';
import styles from './Shell.module.css';

/**
 * The fixed top bar: logo (to the site root) and language switcher. It slides up 60 px over 0.3 s when
 * the user scrolls down and comes back on scroll up or at the top; it also comes back while keyboard
 * focus is inside it, so a focused control is never off screen.
 */
export function TopBar() {
  const cfg = useConfig();
  const { t } = useTranslation('common');
  const service = useTranslationService();
  const { pathname } = useLocation();
  const hydrated = useHydrated();
  const scrolledAway = useTopBarHidden();
  const [focusWithin, setFocusWithin] = useState(false);
  const hidden = scrolledAway && !focusWithin;
  const style: CSSProperties = {
    transform: hidden ? `translateY(-${TOP_BAR_HIDE_OFFSET_PX}px)` : 'translateY(0)',
    transition: `transform ${TOP_BAR_TRANSITION_MS / 1000}s`,
  };
  const showMenu = !isExcludedPath(pathname, service.excludedPaths());
  return (
    <header
      className={styles.topBar}
      style={hydrated ? style : undefined}
      data-hidden={hidden ? 'true' : 'false'}
      data-testid="top-bar"
      onFocus={() => setFocusWithin(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocusWithin(false);
      }}
    >
      <a
        className={styles.logo}
        href={cfg.siteUrls.root}
        aria-label={t('logo_label', { provider: cfg.providerName })}
      >
        <img src={logo} alt="" width={40} height={40} />
        <span className={styles.logoName} aria-hidden="true">
          {cfg.providerName}
        </span>
      </a>
      {showMenu && (
        <nav aria-label={t('language_menu')}>
          <LanguageMenu />
        </nav>
      )}
    </header>
  );
}

import { Suspense, lazy, useState } from 'react';
import type { TFunction } from '../lib/i18n/translator.ts';
import { useTranslation } from '../lib/i18n/use-translation.tsx';
import { useHydrated } from '../lib/hydrated.ts';
import { reloadForNewBuild } from '../lib/new-build.ts';
import { useCurrentLanguage, useTranslationService } from '../lib/i18n/context.tsx';
import type { LanguageOption } from '../lib/i18n/languages.ts';
import { ChevronIcon, GlobeIcon } from '../ui/icons.tsx';
import { useSnackBar } from '../ui/SnackBar.tsx';
import { useIsMobile } from './use-is-mobile.ts';
import styles from './Shell.module.css';

// lazy: a file of its own, fetched once the page is laid out, never before its first paint, and not
// at all where the menu is hidden (a phone shows the globe)
export function Flag({ option }: { option: LanguageOption }) {
  return <img className={styles.flag} src={option.flag} alt="" width={24} height={16} loading="lazy" />;
}

export interface LanguageMenuProps {
  options: LanguageOption[];
  current: string;
  onChoose: (code: string) => void;
}

/** One catalog string per language ('Langue : Français'): word order and punctuation are the translator's. */
export const desktopTriggerLabel = (t: TFunction, selected: LanguageOption | undefined): string =>
  t('language_menu_current', { language: selected?.displayName ?? '' });

export function DesktopTriggerContent({ selected }: { selected: LanguageOption | undefined }) {
  return (
    <>
      {selected && <Flag option={selected} />}
      <span className={styles.menuTriggerName}>{selected?.displayName}</span>
      <ChevronIcon />
    </>
  );
}

const loadPopup = () => import('./LanguageMenuPopup.tsx');
const LanguageMenuPopup = lazy(loadPopup);

/**
 * §2 language switcher. At 1107 px or less (script check) a globe button opens a full-screen modal
 * that closes once a language is chosen; wider windows get a dropdown. Both mark the current language
 * (aria-checked in the menu, aria-current in the modal, and a check mark / highlight). The menus are
 * downloaded when first asked for (fetching starts when the pointer or focus reaches the trigger);
 * until then this renders the same trigger, so nothing moves when they arrive.
 */
export function LanguageMenu() {
  const { t } = useTranslation('common');
  const { t: errorText } = useTranslation('errors');
  const snackBar = useSnackBar();
  const service = useTranslationService();
  const current = useCurrentLanguage();
  const isMobile = useIsMobile();
  const hydrated = useHydrated();
  // 'open' from the click that asked for the menus until they have opened, then 'loaded'
  const [menus, setMenus] = useState<'none' | 'open' | 'loaded'>('none');
  // asked for by a key (a click with no pointer): the menu, arriving after it, focuses the chosen language
  const [byKey, setByKey] = useState(false);
  // a language whose texts did not download: a new build replaced them (the page loads again), or the
  // connection is down (said, instead of a choice that silently does nothing)
  const languageNotLoaded = () =>
    void reloadForNewBuild().then((reloaded) => reloaded || snackBar.show(errorText('networkError')));
  const options = service.languages();
  const selected = options.find((o) => o.param === current) ?? options[0];
  const trigger = (mobile: boolean, className = '') => (
    <button
      key={mobile ? 'mobile' : 'desktop'}
      type="button"
      className={`${mobile ? styles.globe : styles.menuTrigger} ${className}`.trim()}
      aria-label={mobile ? t('language_menu_open') : desktopTriggerLabel(t, selected)}
      aria-haspopup={mobile ? 'dialog' : 'menu'}
      aria-expanded={menus === 'open'}
      onPointerEnter={() => void loadPopup()}
      onFocus={() => void loadPopup()}
      onClick={(event) => {
        setMenus('open');
        setByKey(event.detail === 0);
      }}
    >
      {mobile ? <GlobeIcon /> : <DesktopTriggerContent selected={selected} />}
    </button>
  );
  // prerendered: both, the stylesheet shows the one for the window (Shell.module.css)
  if (!hydrated) return [trigger(false, styles.desktopOnly), trigger(true, styles.mobileOnly)];
  if (menus === 'none') return trigger(isMobile);
  return (
    <Suspense fallback={trigger(isMobile)}>
      <LanguageMenuPopup
        key={isMobile ? 'mobile' : 'desktop'}
        mobile={isMobile}
        defaultOpen={menus === 'open'}
        focusChosen={menus === 'open' && byKey}
        onOpened={() => setMenus('loaded')}
        options={options}
        current={current}
        onChoose={(code) => void service.change(code).catch(languageNotLoaded)}
      />
    </Suspense>
  );
}

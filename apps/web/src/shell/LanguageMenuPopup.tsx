import { useEffect, useRef, useState } from 'react';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import * as RadixDialog from '@radix-ui/react-dialog';
import { useTranslation } from '../lib/i18n/use-translation.tsx';
import { CheckIcon, CloseIcon, GlobeIcon } from '../ui/icons.tsx';
import { revealFocused } from '../ui/reveal-focus.ts';
import { DesktopTriggerContent, Flag, desktopTriggerLabel } from './LanguageMenu.tsx';
import type { LanguageMenuProps } from './LanguageMenu.tsx';
import styles from './Shell.module.css';

/**
 * The two language menus, loaded the first time one is asked for (LanguageMenu renders the same
 * trigger until then): the dropdown with its positioning, and the full-screen modal. The first one
 * opens at once (defaultOpen), since the click that loaded it asked for it; after a resize swaps
 * them, the other one starts closed.
 */
export default function LanguageMenuPopup({
  mobile,
  onOpened,
  ...props
}: MenuProps & { mobile: boolean; onOpened: () => void }) {
  useEffect(onOpened, [onOpened]);
  return mobile ? <MobileLanguageMenu {...props} /> : <DesktopLanguageMenu {...props} />;
}

type MenuProps = LanguageMenuProps & { defaultOpen: boolean; focusChosen?: boolean };

function DesktopLanguageMenu({ options, current, onChoose, defaultOpen, focusChosen }: MenuProps) {
  const { t } = useTranslation('common');
  const selected = options.find((o) => o.param === current) ?? options[0];
  const content = useRef<HTMLDivElement>(null);
  // opened by a key before the menu was downloaded: the menu mounts open and focuses itself, not an
  // item as a key's opening does once it is here; the chosen language takes the focus instead
  useEffect(() => {
    if (focusChosen) content.current?.querySelector<HTMLElement>('[aria-checked="true"]')?.focus();
  }, [focusChosen]);
  return (
    <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger className={styles.menuTrigger} aria-label={desktopTriggerLabel(t, selected)}>
        <DesktopTriggerContent selected={selected} />
      </DropdownMenu.Trigger>
      {/* no portal: the menu stays inside the top bar's navigation landmark, where a screen reader's
          landmark list finds it, and its focus keeps the top bar shown (TopBar's focus-within) */}
      <DropdownMenu.Content
        ref={content}
        className={styles.menuContent}
        align="end"
        sideOffset={8}
        aria-label={t('language_menu')}
      >
        <DropdownMenu.RadioGroup value={current} onValueChange={onChoose}>
          {options.map((option) => (
            <DropdownMenu.RadioItem
              key={option.param}
              value={option.param}
              lang={option.param}
              className={`${styles.menuItem} ${option.cssName}`}
            >
              <Flag option={option} />
              <span>{option.displayName}</span>
              <DropdownMenu.ItemIndicator className={styles.check}>
                <CheckIcon />
              </DropdownMenu.ItemIndicator>
            </DropdownMenu.RadioItem>
          ))}
        </DropdownMenu.RadioGroup>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}

function MobileLanguageMenu({ options, current, onChoose, defaultOpen }: MenuProps) {
  const { t } = useTranslation('common');
  const [open, setOpen] = useState(defaultOpen);
  return (
    <RadixDialog.Root open={open} onOpenChange={setOpen}>
      <RadixDialog.Trigger className={styles.globe} aria-label={t('language_menu_open')}>
        <GlobeIcon />
      </RadixDialog.Trigger>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={styles.modalOverlay} />
        <RadixDialog.Content className={styles.modal} aria-describedby={undefined} onFocus={revealFocused}>
          <div className={styles.modalHeader}>
            <RadixDialog.Title className={styles.modalTitle}>{t('language_menu_open')}</RadixDialog.Title>
            <RadixDialog.Close className={styles.modalClose} aria-label={t('language_menu_close')}>
              <CloseIcon />
            </RadixDialog.Close>
          </div>
          <ul className={styles.modalList}>
            {options.map((option) => {
              const isCurrent = option.param === current;
              return (
                <li key={option.param}>
                  <button
                    type="button"
                    lang={option.param}
                    className={`${styles.modalItem} ${option.cssName}`}
                    aria-current={isCurrent ? 'true' : undefined}
                    onClick={() => {
                      onChoose(option.param);
                      setOpen(false);
                    }}
                  >
                    <Flag option={option} />
                    <span>{option.displayName}</span>
                    {isCurrent && (
                      <span className={styles.check}>
                        <CheckIcon />
                        <span className="visually-hidden">{t('current_language')}</span>
                      </span>
                    )}
                  </button>
                </li>
              );
            })}
          </ul>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

import { useState } from 'react';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import * as RadixDialog from '@radix-ui/react-dialog';
import { useTranslation } from 'react-i18next';
import { useCurrentLanguage, useTranslationService } from '../lib/i18n/context.tsx';
import type { LanguageOption } from '../lib/i18n/languages.ts';
import { CheckIcon, ChevronIcon, CloseIcon, GlobeIcon } from '../ui/icons.tsx';
import { useIsMobile } from './use-is-mobile.ts';
import styles from './Shell.module.css';

function Flag({ option }: { option: LanguageOption }) {
  return <img className={styles.flag} src={option.flag} alt="" width={24} height={16} />;
}

/**
 * §2 language switcher. At 1107 px or less (script check) a globe button opens a full-screen modal
 * that closes once a language is chosen; wider windows get a dropdown. Both mark the current language
 * (aria-checked in the menu, aria-current in the modal, and a check mark / highlight).
 */
export function LanguageMenu() {
  const service = useTranslationService();
  const current = useCurrentLanguage();
  const isMobile = useIsMobile();
  const options = service.languages();
  const choose = (code: string) => void service.change(code);
  return isMobile ? (
    <MobileLanguageMenu options={options} current={current} onChoose={choose} />
  ) : (
    <DesktopLanguageMenu options={options} current={current} onChoose={choose} />
  );
}

interface MenuProps {
  options: LanguageOption[];
  current: string;
  onChoose: (code: string) => void;
}

function DesktopLanguageMenu({ options, current, onChoose }: MenuProps) {
  const { t } = useTranslation('common');
  const selected = options.find((o) => o.param === current) ?? options[0];
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        className={styles.menuTrigger}
        aria-label={`${t('language_menu')}: ${selected?.displayName ?? ''}`}
      >
        {selected && <Flag option={selected} />}
        <span className={styles.menuTriggerName}>{selected?.displayName}</span>
        <ChevronIcon />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
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
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

function MobileLanguageMenu({ options, current, onChoose }: MenuProps) {
  const { t } = useTranslation('common');
  const [open, setOpen] = useState(false);
  return (
    <RadixDialog.Root open={open} onOpenChange={setOpen}>
      <RadixDialog.Trigger className={styles.globe} aria-label={t('language_menu_open')}>
        <GlobeIcon />
      </RadixDialog.Trigger>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={styles.modalOverlay} />
        <RadixDialog.Content className={styles.modal} aria-describedby={undefined}>
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

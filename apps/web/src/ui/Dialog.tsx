import { useRef } from 'react';
import type { CSSProperties, ReactNode } from 'react';
import * as RadixDialog from '@radix-ui/react-dialog';
import { useTranslation } from '../lib/i18n/use-translation.tsx';
import { DIALOG_ANIMATION_MS } from '@frontdoor/contract';
import { CloseIcon } from './icons.tsx';
import { revealFocused } from './reveal-focus.ts';
import styles from './Dialog.module.css';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** Optional element that opens the dialog (Radix wires it to open and close the dialog). */
  trigger?: ReactNode;
  className?: string;
}

/**
 * Modal dialog (Radix: focus trapped inside, Escape and the close button close it). Every way of
 * closing it returns the focus to the control that had it when it opened (WCAG 2.4.3).
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  trigger,
  className,
}: DialogProps) {
  const { t } = useTranslation('common');
  const timing = { '--fd-dialog-ms': `${DIALOG_ANIMATION_MS}ms` } as CSSProperties;
  // Radix returns the focus only to a Trigger it renders; a dialog opened by the page's own button
  // (onOpenChange) would leave it on <body>, so the opener is remembered as the focus moves in
  const opener = useRef<HTMLElement | null>(null);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger && <RadixDialog.Trigger asChild>{trigger}</RadixDialog.Trigger>}
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={styles.overlay} style={timing} />
        <RadixDialog.Content
          className={[styles.content, className].filter(Boolean).join(' ')}
          style={timing}
          onOpenAutoFocus={() => {
            const active = document.activeElement;
            opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
          }}
          onCloseAutoFocus={(event) => {
            const target = opener.current;
            opener.current = null;
            if (!target?.isConnected) return;
            event.preventDefault();
            target.focus();
          }}
          onFocus={revealFocused}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <RadixDialog.Title className={styles.title}>{title}</RadixDialog.Title>
          {description && (
            <RadixDialog.Description className={styles.description}>{description}</RadixDialog.Description>
          )}
          {children}
          <RadixDialog.Close className={styles.close} aria-label={t('close')}>
            <CloseIcon />
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

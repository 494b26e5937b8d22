import { useEffect, useId, useRef } from 'react';
import { useLaterTranslation } from '../lib/i18n/use-later-translation.ts';
import { SEARCH_SHORTCUT_KEY } from '@frontdoor/contract';
import { SearchIcon } from './icons.tsx';
import styles from './Controls.module.css';

export interface SearchFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** Defaults to the translated 'Jump to...' (contract SEARCH_PLACEHOLDER). */
  placeholder?: string;
  label?: string;
}

/** True for ctrl+K (or cmd+K on a Mac): the shortcut that focuses the search field. */
export const isSearchShortcut = (
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>,
): boolean =>
  (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === SEARCH_SHORTCUT_KEY;

/** A search input in a search landmark; ctrl/cmd+K anywhere on the page focuses it. */
export function SearchField({ value, onChange, placeholder, label }: SearchFieldProps) {
  const { t } = useLaterTranslation('kit');
  const ref = useRef<HTMLInputElement>(null);
  const id = useId();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isSearchShortcut(event)) return;
      // the browser's own ctrl+K (address-bar search) would take focus away otherwise
      event.preventDefault();
      ref.current?.focus();
      ref.current?.select();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
  return (
    <div role="search" className={styles.search}>
      <label htmlFor={id} className="visually-hidden">
        {label ?? t('search_label')}
      </label>
      <span className={styles.searchIcon}>
        <SearchIcon />
      </span>
      <input
        ref={ref}
        id={id}
        type="search"
        className={styles.searchInput}
        value={value}
        placeholder={placeholder ?? t('search_placeholder')}
        aria-keyshortcuts="Control+K Meta+K"
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

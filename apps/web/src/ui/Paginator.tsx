import { useId } from 'react';
import { useLaterTranslation } from '../lib/i18n/use-later-translation.ts';
import styles from './Controls.module.css';

export interface PaginatorProps {
  /** Zero-based page index. */
  page: number;
  pageSize: number;
  total: number;
  pageSizeOptions?: readonly number[];
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
}

/** The 1-based range a page shows, e.g. page 1 of size 10 in 25 → 11–20. */
export function pageRange(page: number, pageSize: number, total: number): { from: number; to: number } {
  if (total === 0) return { from: 0, to: 0 };
  const from = page * pageSize + 1;
  return { from, to: Math.min(total, from + pageSize - 1) };
}

/** Page-size choice ('Items per page:'), the shown range, and previous/next buttons. */
export function Paginator({
  page,
  pageSize,
  total,
  pageSizeOptions = [10, 25, 50],
  onPageChange,
  onPageSizeChange,
}: PaginatorProps) {
  const { t } = useLaterTranslation('kit');
  const selectId = useId();
  const { from, to } = pageRange(page, pageSize, total);
  const lastPage = Math.max(0, Math.ceil(total / pageSize) - 1);
  return (
    <nav className={styles.paginator} aria-label={t('paginator_label')}>
      <span>
        <label htmlFor={selectId}>{t('paginator_label')}</label>{' '}
        <select
          id={selectId}
          value={pageSize}
          onChange={(event) => onPageSizeChange(Number(event.target.value))}
        >
          {pageSizeOptions.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </span>
      <span aria-live="polite">{t('paginator_range', { from, to, total })}</span>
      <span className={styles.pageButtons}>
        <button
          type="button"
          className={styles.pageButton}
          aria-label={t('paginator_previous')}
          disabled={page <= 0}
          onClick={() => onPageChange(page - 1)}
        >
          <span className={styles.flip} aria-hidden="true">
            ‹
          </span>
        </button>
        <button
          type="button"
          className={styles.pageButton}
          aria-label={t('paginator_next')}
          disabled={page >= lastPage}
          onClick={() => onPageChange(page + 1)}
        >
          <span className={styles.flip} aria-hidden="true">
            ›
          </span>
        </button>
      </span>
    </nav>
  );
}

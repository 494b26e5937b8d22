import { useEffect } from 'react';
import { useTranslation } from '../lib/i18n/use-translation.tsx';
import { reloadForNewBuild } from '../lib/new-build.ts';
import { reloadPage } from '../lib/reload.ts';
import { PageCard } from '../ui/PageCard.tsx';
import { Button, buttonClassName } from '../ui/Button.tsx';
import styles from '../ui/Page.module.css';

/**
 * The friendly page shown when rendering failed (shell/ErrorBoundary.tsx, below the shell and around it).
 * A page that failed to download (`download`) loads again at once when the server answers (a new build
 * replaced this tab's files); otherwise the connection is the trouble, and it loads again by itself once
 * the browser is back online.
 */
export function ErrorScreen({ download = false }: { download?: boolean }) {
  const { t } = useTranslation('common');
  const { t: errorText } = useTranslation('errors');
  useEffect(() => {
    if (!download) return;
    void reloadForNewBuild();
    window.addEventListener('online', reloadPage);
    return () => window.removeEventListener('online', reloadPage);
  }, [download]);
  return (
    <PageCard
      title={t('app_error_title')}
      lead={download ? errorText('networkError') : t('app_error_body')}
      footer={
        <a href="/log-in" className={buttonClassName('link')}>
          {t('app_error_home')}
        </a>
      }
    >
      <div className={styles.actions}>
        <Button onClick={reloadPage}>{t('app_error_reload')}</Button>
      </div>
    </PageCard>
  );
}

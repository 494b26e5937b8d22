import { useTranslation } from '../lib/i18n/use-translation.tsx';
import { PageCard } from '../ui/PageCard.tsx';
import { Button, buttonClassName } from '../ui/Button.tsx';
import styles from '../ui/Page.module.css';

/** The friendly page shown when rendering failed (shell/ErrorBoundary.tsx, below the shell and around it). */
export function ErrorScreen() {
  const { t } = useTranslation('common');
  return (
    <PageCard
      title={t('app_error_title')}
      lead={t('app_error_body')}
      footer={
        <a href="/log-in" className={buttonClassName('link')}>
          {t('app_error_home')}
        </a>
      }
    >
      <div className={styles.actions}>
        <Button onClick={() => window.location.reload()}>{t('app_error_reload')}</Button>
      </div>
    </PageCard>
  );
}

import { useTranslation } from '../lib/i18n/use-translation.tsx';
import { useConfig } from '../lib/config.tsx';
import styles from './Shell.module.css';

/** Privacy, terms and help links from config.json. */
export function Footer() {
  const cfg = useConfig();
  const { t } = useTranslation('common');
  return (
    <footer>
      <nav className={styles.footer} aria-label={t('footer_label')}>
        <a href={cfg.siteUrls.privacy}>{t('footer_privacy')}</a>
        <a href={cfg.siteUrls.terms}>{t('footer_terms')}</a>
        <a href={cfg.siteUrls.help}>{t('footer_help')}</a>
      </nav>
    </footer>
  );
}

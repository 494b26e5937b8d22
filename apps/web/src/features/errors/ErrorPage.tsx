import { useTranslation } from '../../lib/i18n/use-translation.tsx';
import { useLocation, useNavigate, useParams } from 'react-router';
import { Link } from '../../ui/Link.tsx';
import { useConfig } from '../../lib/config.tsx';
import { Button, buttonClassName } from '../../ui/Button.tsx';
import { PageCard } from '../../ui/PageCard.tsx';
import pageStyles from '../../ui/Page.module.css';
import { loginPath } from '../shared/paths.ts';

/** /error-generic and /error-timeout (with or without {csrf}): names the provider; Continue → log-in. */
export default function ErrorPage({ kind }: { kind: 'generic' | 'timeout' }) {
  const { t } = useTranslation('errorPages');
  const { providerName } = useConfig();
  const { csrf } = useParams();
  const navigate = useNavigate();
  // the first page of the tab (a restored tab, a bookmark) has nothing to go back to: it goes to sign-in
  const firstPage = useLocation().key === 'default' && window.history.length <= 1;
  return (
    <PageCard title={t(`${kind}_title`)} lead={t(`${kind}_body`, { provider: providerName })}>
      <div className={pageStyles.actions}>
        <Link className={buttonClassName('primary')} to={loginPath(csrf)}>
          {t('continue')}
        </Link>
        <Button variant="secondary" onClick={() => (firstPage ? navigate(loginPath(csrf)) : navigate(-1))}>
          {t('go_back')}
        </Button>
      </div>
    </PageCard>
  );
}

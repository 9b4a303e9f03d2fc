import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import '@/features/admin/admin.css';

/** /admin for anyone but an admin in admin mode (the server refuses them every admin call too). */
export function AccessDenied({ userMode }: { userMode: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="admin-message">
      <h1>{t('panel.accessDenied')}</h1>
      <p>{userMode ? t('panel.accessDeniedUserMode') : t('panel.accessDeniedText')}</p>
      <Link to="/dashboard">{t('panel.back')}</Link>
    </div>
  );
}

/** The admin panel's render fallback (spec §8: 'Something went wrong with the admin panel'). */
export function AdminPanelFallback() {
  const { t } = useTranslation();
  return (
    <div className="admin-message">
      <div role="alert">
        <h1>{t('panel.failed')}</h1>
        <p>{t('panel.failedText')}</p>
      </div>
      <Button onClick={() => window.location.reload()}>{t('panel.reload')}</Button>
    </div>
  );
}

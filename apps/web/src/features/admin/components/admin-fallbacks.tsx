import { useTranslation } from 'react-i18next';
import { AccessDenied as AccessDeniedMessage } from '@/components/ui/access-denied';
import { Button } from '@/components/ui/button';
import '@/components/ui/page-message.css';

/** /admin for anyone but an admin in admin mode (the server refuses them every admin call too). */
export function AccessDenied({ userMode }: { userMode: boolean }) {
  const { t } = useTranslation();
  return (
    <AccessDeniedMessage
      title={t('panel.accessDenied')}
      text={userMode ? t('panel.accessDeniedUserMode') : t('panel.accessDeniedText')}
      backLabel={t('panel.back')}
    />
  );
}

/** The admin panel's render fallback ('Something went wrong with the admin panel'). */
export function AdminPanelFallback() {
  const { t } = useTranslation();
  return (
    <div className="page-message">
      <div role="alert">
        <h1>{t('panel.failed')}</h1>
        <p>{t('panel.failedText')}</p>
      </div>
      <Button onClick={() => window.location.reload()}>{t('panel.reload')}</Button>
    </div>
  );
}

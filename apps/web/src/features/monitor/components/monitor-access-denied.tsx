import { useTranslation } from 'react-i18next';
import { AccessDenied } from '@/components/ui/access-denied';

/** /monitor for anyone but an admin in admin mode (the server refuses them its calls too). */
export function MonitorAccessDenied({ userMode }: { userMode: boolean }) {
  const { t } = useTranslation();
  return (
    <AccessDenied
      title={t('systemMonitor.accessDenied')}
      text={
        userMode ? t('systemMonitor.accessDeniedUserMode') : t('systemMonitor.accessDeniedText')
      }
      backLabel={t('systemMonitor.back')}
    />
  );
}

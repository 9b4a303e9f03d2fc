import { useTranslation } from 'react-i18next';
import { AccountSummary } from '@/features/auth/components/account-summary';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { useDocumentTitle } from '@/hooks/use-document-title';

export default function DashboardRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('dashboard.pageTitle'));
  const { user } = useAuth();
  if (!user) return null;

  return (
    <div className="dashboard">
      <h1 className="dashboard__title">{t('dashboard.welcome', { name: user.name })}</h1>
      <AccountSummary user={user} />
    </div>
  );
}

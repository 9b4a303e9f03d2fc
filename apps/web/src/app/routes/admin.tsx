import { useTranslation } from 'react-i18next';
import { ErrorBoundary } from '@/app/error-boundary';
import { AccessDenied, AdminPanelFallback } from '@/features/admin/components/admin-fallbacks';
import { AdminPanel } from '@/features/admin/components/admin-panel';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { useDocumentTitle } from '@/hooks/use-document-title';

/**
 * /admin: the admin panel for an admin in admin mode; 'Access denied' for anyone else signed in.
 * The server is the guard: every /api/admin call answers 403 to them.
 */
export default function AdminRoute() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const allowed = user?.role === 'admin';
  useDocumentTitle(allowed ? t('panel.pageTitle') : t('panel.accessDenied'));
  if (!user) return null;
  if (!allowed) return <AccessDenied userMode={user.originalRole === 'admin'} />;
  return (
    <ErrorBoundary fallback={<AdminPanelFallback />}>
      <AdminPanel userId={user.id} />
    </ErrorBoundary>
  );
}

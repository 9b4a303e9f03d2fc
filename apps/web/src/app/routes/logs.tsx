import { useTranslation } from 'react-i18next';
import { AccessDenied } from '@/components/ui/access-denied';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { LogsPage } from '@/features/logs/components/logs-page';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { withAdminValidation, type TextLoaders } from '@/lib/i18n';

/** This page's texts, with the messages of its date filters (adminValidation). */
export const texts: TextLoaders = {
  'pt-BR': () =>
    withAdminValidation(
      import('@/locales/logs/pt-BR.json'),
      import('@contrateia/shared/locales/admin/pt-BR.json'),
    ),
  'en-US': () =>
    withAdminValidation(
      import('@/locales/logs/en-US.json'),
      import('@contrateia/shared/locales/admin/en-US.json'),
    ),
  'es-ES': () =>
    withAdminValidation(
      import('@/locales/logs/es-ES.json'),
      import('@contrateia/shared/locales/admin/es-ES.json'),
    ),
};

/**
 * /logs: the stored events for an admin in admin mode; 'Access denied' for anyone else signed
 * in. The server is the guard: GET /api/logs answers 403 to them.
 */
export default function LogsRoute() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const allowed = user?.role === 'admin';
  useDocumentTitle(allowed ? t('logs.pageTitle') : t('logs.accessDenied'));
  if (!user) return null;
  if (!allowed) {
    const userMode = user.originalRole === 'admin';
    return (
      <AccessDenied
        title={t('logs.accessDenied')}
        text={userMode ? t('logs.accessDeniedUserMode') : t('logs.accessDeniedText')}
        backLabel={t('logs.back')}
      />
    );
  }
  return <LogsPage />;
}

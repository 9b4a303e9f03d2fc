import { useTranslation } from 'react-i18next';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { MonitorAccessDenied } from '@/features/monitor/components/monitor-access-denied';
import { MonitorPage } from '@/features/monitor/components/monitor-page';
import { useDocumentTitle } from '@/hooks/use-document-title';
import type { TextLoaders } from '@/lib/i18n';

/** This page's texts, loaded with it (app/router.tsx withPageTexts). */
export const texts: TextLoaders = {
  'pt-BR': () => import('@/locales/monitor/pt-BR.json'),
  'en-US': () => import('@/locales/monitor/en-US.json'),
  'es-ES': () => import('@/locales/monitor/es-ES.json'),
};

/**
 * /monitor: the system monitor for an admin in admin mode; 'Access denied' for anyone else
 * signed in. The server is the guard: every /api/monitor call answers 403 to them.
 */
export default function MonitorRoute() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const allowed = user?.role === 'admin';
  useDocumentTitle(allowed ? t('systemMonitor.pageTitle') : t('systemMonitor.accessDenied'));
  if (!user) return null;
  if (!allowed) return <MonitorAccessDenied userMode={user.originalRole === 'admin'} />;
  return <MonitorPage email={user.email} />;
}

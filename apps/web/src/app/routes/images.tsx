import { useTranslation } from 'react-i18next';
import { AccessDenied } from '@/features/admin/components/admin-fallbacks';
import { ImagesPage } from '@/features/images/components/images-page';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { useDocumentTitle } from '@/hooks/use-document-title';
import type { TextLoaders } from '@/lib/i18n';

/** This page's texts, loaded with it (app/router.tsx withPageTexts). */
export const texts: TextLoaders = {
  'pt-BR': () => import('@/locales/images/pt-BR.json'),
  'en-US': () => import('@/locales/images/en-US.json'),
  'es-ES': () => import('@/locales/images/es-ES.json'),
};

/**
 * /images: the image library for an admin in admin mode; 'Access denied' for anyone else signed
 * in, as /admin says it. The server is the guard: every image management call answers 403 to them.
 */
export default function ImagesRoute() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const allowed = user?.role === 'admin';
  useDocumentTitle(allowed ? t('images.pageTitle') : t('panel.accessDenied'));
  if (!user) return null;
  if (!allowed) return <AccessDenied userMode={user.originalRole === 'admin'} />;
  return <ImagesPage />;
}

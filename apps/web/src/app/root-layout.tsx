import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { useAuth } from '@/features/auth/hooks/use-auth';

/**
 * Holds every route until the stored token has been checked, so a signed-in user never sees the
 * login page flash by; then waits for the lazily loaded page.
 */
export function RootLayout() {
  const { t } = useTranslation();
  const { isLoading } = useAuth();
  const loading = <LoadingScreen label={t('app.loading')} />;
  if (isLoading) return loading;
  return (
    <Suspense fallback={loading}>
      <Outlet />
    </Suspense>
  );
}

import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AuthLayout } from '@/features/auth/components/auth-layout';
import { ForgotPasswordFlow } from '@/features/auth/components/forgot-password-flow';
import { LoginFeatures } from '@/features/auth/components/login-features';
import type { NavigationMessage } from '@/features/auth/navigation-message';
import { useDocumentTitle } from '@/hooks/use-document-title';

/** Forgotten password: its own chunk, so nothing of it weighs on /login. */
export default function ForgotPasswordRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('forgotPassword.pageTitle'));
  const navigate = useNavigate();

  // Every session ended: back to /login with the server's message.
  const handleReset = (message: string) => {
    const state: NavigationMessage = { message };
    void navigate('/login', { replace: true, state });
  };

  return (
    <AuthLayout aside={<LoginFeatures />}>
      <ForgotPasswordFlow onReset={handleReset} />
    </AuthLayout>
  );
}

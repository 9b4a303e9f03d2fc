import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AuthLayout } from '@/features/auth/components/auth-layout';
import { RegisterFeatures } from '@/features/auth/components/register-features';
import { RegistrationFlow } from '@/features/auth/components/registration-flow';
import type { NavigationMessage } from '@/features/auth/navigation-message';
import { useDocumentTitle } from '@/hooks/use-document-title';

export default function RegisterRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('register.pageTitle'));
  const navigate = useNavigate();

  // To `/`, which sends a signed-out user on to /login with the message (spec §4).
  const handleRegistered = () => {
    const state: NavigationMessage = { message: t('auth.registered') };
    void navigate('/', { state });
  };

  return (
    <AuthLayout aside={<RegisterFeatures />}>
      <RegistrationFlow onRegistered={handleRegistered} />
    </AuthLayout>
  );
}

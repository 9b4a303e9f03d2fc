import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { AuthHeading, AuthLayout } from '@/features/auth/components/auth-layout';
import { LoginFeatures } from '@/features/auth/components/login-features';
import { RegisterFeatures } from '@/features/auth/components/register-features';
import { RegistrationFlow } from '@/features/auth/components/registration-flow';
import type { NavigationMessage } from '@/features/auth/navigation-message';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { usePublicSettings } from '@/hooks/use-public-settings';

export default function RegisterRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('register.pageTitle'));
  const navigate = useNavigate();
  const registrationEnabled = usePublicSettings().data?.registrationEnabled;

  // To `/`, which sends a signed-out user on to /login with the message and the address, filled in
  // there.
  const handleRegistered = (email: string) => {
    const state: NavigationMessage = { message: t('auth.registered'), email };
    void navigate('/', { state });
  };

  // Closed by the admin: said before anyone fills the form in (the server refuses it anyway),
  // and nothing on the page invites to sign up: the sign-in page's feature blurbs instead.
  if (registrationEnabled === false) {
    return (
      <AuthLayout aside={<LoginFeatures />}>
        <AuthHeading title={t('register.closedTitle')}>{t('register.closed')}</AuthHeading>
        <p className="auth-switch">
          {t('register.haveAccount')} <Link to="/login">{t('register.signIn')}</Link>
        </p>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout aside={<RegisterFeatures />}>
      <RegistrationFlow onRegistered={handleRegistered} />
    </AuthLayout>
  );
}

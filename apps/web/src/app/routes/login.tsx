import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { signedInHome } from '@/app/home';
import { AuthLayout } from '@/features/auth/components/auth-layout';
import { LoginFeatures } from '@/features/auth/components/login-features';
import { LoginForm } from '@/features/auth/components/login-form';
import { readNavigationEmail, readNavigationMessage } from '@/features/auth/navigation-message';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { SUCCESS_MESSAGE_MS, useTimedMessage } from '@/hooks/use-timed-message';

export default function LoginRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('login.pageTitle'));
  const navigate = useNavigate();
  const { pathname, search, hash, state } = useLocation();
  const { message: notice, show: showNotice } = useTimedMessage(SUCCESS_MESSAGE_MS);
  // Read before the state is dropped below: the address of an account just registered.
  const [registeredEmail] = useState(() => readNavigationEmail(state));

  // Show a message handed over by the previous page, then drop it from history so a reload or Back
  // does not show it again.
  useEffect(() => {
    const message = readNavigationMessage(state);
    if (!message) return;
    showNotice(message);
    void navigate({ pathname, search, hash }, { replace: true, state: null });
  }, [state, pathname, search, hash, navigate, showNotice]);

  return (
    <AuthLayout aside={<LoginFeatures />}>
      <LoginForm
        notice={notice}
        identifier={registeredEmail}
        onSignedIn={(user) => void navigate(signedInHome(user), { replace: true })}
      />
    </AuthLayout>
  );
}

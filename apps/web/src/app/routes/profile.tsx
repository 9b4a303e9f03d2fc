import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LiveMessage } from '@/components/ui/live-message';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { useProfile } from '@/features/auth/api/profile';
import { AccountData } from '@/features/auth/components/account-data';
import { ChangePasswordForm } from '@/features/auth/components/change-password-form';
import { ProfileForm } from '@/features/auth/components/profile-form';
import { SessionsList } from '@/features/auth/components/sessions-list';
import type { NavigationMessage } from '@/features/auth/navigation-message';
import { useDocumentTitle } from '@/hooks/use-document-title';
import '@/features/auth/profile.css';

/** "Your account": name and language, password, sessions, the LGPD data actions. */
export default function ProfileRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('profile.pageTitle'));
  const navigate = useNavigate();
  const profile = useProfile();

  const handleDeleted = (message: string) => {
    const state: NavigationMessage = { message };
    void navigate('/login', { replace: true, state });
  };

  return (
    <div className="profile">
      <h1 className="profile__title">{t('profile.title')}</h1>
      <div className="profile__grid">
        <div className="profile-card">
          {profile.data ? (
            <ProfileForm
              defaultValues={{ name: profile.data.user.name, language: profile.data.language }}
            />
          ) : profile.isError ? (
            <LiveMessage tone="error" message={t('profile.failed')} />
          ) : (
            <LoadingScreen inline label={t('app.loading')} />
          )}
        </div>
        <div className="profile-card">
          <ChangePasswordForm />
        </div>
        <div className="profile-card">
          <SessionsList />
        </div>
        <div className="profile-card">
          <AccountData onDeleted={handleDeleted} />
        </div>
      </div>
    </div>
  );
}

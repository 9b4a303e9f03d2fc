import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { LanguageSelector } from '@/components/language-selector';
import { LogoutButton } from '@/features/auth/components/logout-button';
import { ModeBadge } from '@/features/auth/components/mode-badge';
import { RoleSwitcher } from '@/features/auth/components/role-switcher';
import { useAuth } from '@/features/auth/hooks/use-auth';
import '@/app/app-layout.css';

/** The signed-in shell: header with the account, mode, language and logout; the page below. */
export default function AppLayout() {
  const { t } = useTranslation();
  const { user } = useAuth();
  // RequireAuth renders this only with a user; the check narrows the type.
  if (!user) return null;

  return (
    <div className="app-shell">
      <header className="app-header">
        <div className="app-header__inner">
          <Link to="/dashboard" className="app-header__brand">
            <img src="/favicon.svg" alt="" width="28" height="28" />
            {t('app.name')}
          </Link>
          <div className="app-header__account">
            <span className="app-header__name">
              {user.name}
              {user.originalRole === 'admin' && <ModeBadge role={user.role} />}
            </span>
            <span className="app-header__email">{user.email}</span>
          </div>
          <div className="app-header__actions">
            {user.originalRole === 'admin' && <RoleSwitcher user={user} />}
            <LanguageSelector variant="dropdown" />
            <LogoutButton />
          </div>
        </div>
      </header>
      <main className="app-main">
        <Outlet />
      </main>
    </div>
  );
}

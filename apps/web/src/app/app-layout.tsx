import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useId, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { AdminMenu, navClass } from '@/app/admin-menu';
import { signedInHome } from '@/app/home';
import { LanguageSelector } from '@/components/language-selector';
import { CloseIcon, MenuIcon } from '@/components/ui/action-icons';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { Logo } from '@/components/ui/logo';
import { useUserAgents } from '@/features/agents/api/get-user-agents';
import { agentPagePath, agentsWithPages } from '@/features/agents/hired-agent-pages';
import { useAgentsFollowLanguage } from '@/features/agents/hooks/use-agents-follow-language';
import { LogoutButton } from '@/features/auth/components/logout-button';
import { ModeBadge } from '@/features/auth/components/mode-badge';
import { RoleSwitcher } from '@/features/auth/components/role-switcher';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { useLiveSettings } from '@/hooks/use-live-settings';
import { useAppTexts } from '@/hooks/use-public-settings';
import { cx } from '@/lib/cx';
import { withTexts } from '@/lib/i18n';
import '@/app/app-layout.css';

// Shown only while the admin has the system in maintenance: downloaded (with the admin texts)
// only then.
const maintenance = () => withTexts('admin', import('@/features/admin/components/maintenance'));
const MaintenanceScreen = lazy(() =>
  maintenance().then((module) => ({ default: module.MaintenanceScreen })),
);
const MaintenanceBanner = lazy(() =>
  maintenance().then((module) => ({ default: module.MaintenanceBanner })),
);

/**
 * The signed-in shell: the brand, navigation to the dashboard, each hired agent's page and the
 * account's own agents (and,
 * for an admin in admin mode, the Administration menu: the admin panel, the image library, the
 * system monitor and the logs), the account, mode, language and logout; the page below. An account made for one agent
 * sees that agent alone: no dashboard (its hiring lists are not for it), the brand leads to the
 * agent. On phones all but the brand fold into a Menu button, so a chat keeps the screen.
 *
 * While the admin has the system in maintenance (the public settings, followed live and read
 * again on any 503), anyone but an admin sees the maintenance page instead; admins see a banner.
 */
export default function AppLayout() {
  const { t, i18n } = useTranslation();
  const { user } = useAuth();
  const { data } = useUserAgents();
  useAgentsFollowLanguage();
  const inMaintenance = useLiveSettings().data?.maintenanceMode === true;
  // Over: what failed meanwhile (every call answered 503) is read again.
  const queryClient = useQueryClient();
  const wasInMaintenance = useRef(inMaintenance);
  useEffect(() => {
    if (wasInMaintenance.current && !inMaintenance) void queryClient.invalidateQueries();
    wasInMaintenance.current = inMaintenance;
  }, [inMaintenance, queryClient]);
  const { logoText, appSubtitle } = useAppTexts();
  const panelId = useId();
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const headerRef = useRef<HTMLElement>(null);
  const [menuOpen, setMenuOpen] = useState(false);

  // A choice closes the menu: a new page, a language, a mode (adjusting state while rendering).
  const { pathname } = useLocation();
  const choice = `${pathname} ${i18n.language} ${user?.role ?? ''}`;
  const [lastChoice, setLastChoice] = useState(choice);
  if (lastChoice !== choice) {
    setLastChoice(choice);
    setMenuOpen(false);
  }

  // While open: Escape anywhere closes it (focus back on Menu), and so does a tap outside it.
  useEffect(() => {
    if (!menuOpen) return;
    const handleKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      setMenuOpen(false);
      menuButtonRef.current?.focus();
    };
    const handlePointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && !headerRef.current?.contains(event.target)) {
        setMenuOpen(false);
      }
    };
    document.addEventListener('keydown', handleKeyDown);
    document.addEventListener('pointerdown', handlePointerDown);
    return () => {
      document.removeEventListener('keydown', handleKeyDown);
      document.removeEventListener('pointerdown', handlePointerDown);
    };
  }, [menuOpen]);

  // RequireAuth renders this only with a user; the check narrows the type.
  if (!user) return null;

  if (inMaintenance && user.originalRole !== 'admin') {
    return (
      <Suspense fallback={<LoadingScreen label={t('app.loading')} />}>
        <MaintenanceScreen />
      </Suspense>
    );
  }

  // Choosing a link closes the menu even when it is the page already shown.
  const handlePanelClick = (event: MouseEvent) => {
    if (event.target instanceof Element && event.target.closest('a[href]')) setMenuOpen(false);
  };

  const single = user.singleAgentName;
  const agents = !data
    ? []
    : single
      ? data.agents.filter((agent) => agent.name === single)
      : agentsWithPages(data.agents);

  return (
    <div className="app-shell">
      <header ref={headerRef} className="app-header">
        <div className="app-header__inner">
          <Link to={signedInHome(user)} className="app-header__brand">
            <Logo size={28} />
            <span className="app-header__brand-text">
              {logoText}
              <span className="app-header__subtitle">{appSubtitle}</span>
            </span>
          </Link>
          <button
            ref={menuButtonRef}
            type="button"
            className="app-header__menu-button"
            aria-expanded={menuOpen}
            aria-controls={panelId}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <CloseIcon /> : <MenuIcon />}
            {t('nav.menu')}
          </button>
          <div
            id={panelId}
            className={cx('app-header__panel', menuOpen && 'app-header__panel--open')}
            onClick={handlePanelClick}
          >
            <nav className="app-nav" aria-label={t('nav.label')}>
              <ul className="app-nav__list">
                {!single && (
                  <li>
                    <NavLink to="/dashboard" className={navClass}>
                      {t('nav.dashboard')}
                    </NavLink>
                  </li>
                )}
                {agents.map((agent) => (
                  <li key={agent.id}>
                    <NavLink to={agentPagePath(agent.name)} className={navClass}>
                      {agent.displayName}
                    </NavLink>
                  </li>
                ))}
                {!single && (
                  <li>
                    <NavLink to="/my-agents" className={navClass}>
                      {t('nav.myAgents')}
                    </NavLink>
                  </li>
                )}
                <li>
                  <NavLink to="/whatsapp" end className={navClass}>
                    {t('nav.whatsapp')}
                  </NavLink>
                </li>
                <li>
                  <NavLink to="/whatsapp-enhanced" className={navClass}>
                    {t('nav.whatsappEnhanced')}
                  </NavLink>
                </li>
                <li>
                  <NavLink to="/profile" className={navClass}>
                    {t('nav.profile')}
                  </NavLink>
                </li>
              </ul>
              {user.role === 'admin' && <AdminMenu />}
            </nav>
            <div className="app-header__account">
              <span className="app-header__name">
                {user.name}
                {user.originalRole === 'admin' && <ModeBadge role={user.role} />}
              </span>
              <span className="app-header__email" title={user.email}>
                {user.email}
              </span>
            </div>
            <div className="app-header__actions">
              {user.originalRole === 'admin' && <RoleSwitcher user={user} />}
              <LanguageSelector variant="dropdown" />
              <LogoutButton />
            </div>
          </div>
        </div>
      </header>
      {inMaintenance && (
        <Suspense fallback={null}>
          <MaintenanceBanner canOpenSettings={user.role === 'admin'} />
        </Suspense>
      )}
      <main className="app-main">
        {/* Here, not only at the root, so the header stays while a page's chunk downloads. */}
        <Suspense fallback={<LoadingScreen inline label={t('app.loading')} />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}

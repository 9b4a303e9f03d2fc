import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageSelector } from '@/components/language-selector';
import { Button } from '@/components/ui/button';
import { LogoutButton } from '@/features/auth/components/logout-button';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useAppTexts, usePublicSettings } from '@/hooks/use-public-settings';
import '@/features/admin/maintenance.css';

/**
 * What a signed-in user who is not an admin sees while the admin has the system in maintenance,
 * instead of the app (every call of theirs is refused with 503 meanwhile, and their realtime
 * connection too). The shell follows the settings (use-live-settings: its connection, tried again
 * every few seconds, comes back once maintenance is over; now and then; on focus) and shows the
 * app again without a reload; the button asks at once.
 */
export function MaintenanceScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('maintenance.pageTitle'));
  const { logoText } = useAppTexts();
  const settings = usePublicSettings();
  return (
    <div className="maintenance-page">
      <main className="maintenance-card">
        <div className="maintenance-card__top">
          <p className="maintenance-card__brand">
            <img src="/favicon.svg" alt="" width="28" height="28" />
            {logoText}
          </p>
          <LanguageSelector variant="dropdown" />
        </div>
        <h1 className="maintenance-card__title">{t('maintenance.title')}</h1>
        <p>{t('maintenance.text')}</p>
        <div className="maintenance-card__actions">
          <Button disabled={settings.isFetching} onClick={() => void settings.refetch()}>
            {settings.isFetching ? t('maintenance.checking') : t('maintenance.checkAgain')}
          </Button>
          <LogoutButton />
        </div>
      </main>
    </div>
  );
}

/**
 * The admins' reminder while maintenance is on (they keep working); a link to the setting for an
 * admin in admin mode (in user mode the panel is closed to them).
 */
export function MaintenanceBanner({ canOpenSettings }: { canOpenSettings: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="maintenance-banner" role="status">
      <p className="maintenance-banner__inner">
        <span>{t('maintenance.banner')}</span>
        {canOpenSettings && <Link to="/admin?tab=system">{t('maintenance.bannerLink')}</Link>}
      </p>
    </div>
  );
}

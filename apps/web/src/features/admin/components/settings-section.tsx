import type { AdminSettingsResponse } from '@contrateia/shared/settings/settings.schemas';
import { useCallback, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LiveMessage } from '@/components/ui/live-message';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { useAdminSettings } from '@/features/admin/api/get-admin-settings';
import { SUCCESS_MESSAGE_MS, useTimedMessage } from '@/hooks/use-timed-message';
import { ApiError, NetworkError } from '@/lib/api-client';

/** A settings tab's form once the settings are in; meanwhile, loading, or the failure and a retry. */
export function WithSettings({
  children,
}: {
  children: (settings: AdminSettingsResponse) => ReactNode;
}) {
  const { t } = useTranslation();
  const settings = useAdminSettings();
  if (settings.data) return children(settings.data);
  if (settings.isError) {
    return (
      <div className="admin-load-failed">
        <LiveMessage tone="error" message={t('panel.loadFailed')} />
        <Button
          variant="secondary"
          disabled={settings.isFetching}
          onClick={() => void settings.refetch()}
        >
          {t('panel.retry')}
        </Button>
      </div>
    );
  }
  return <LoadingScreen inline label={t('panel.loading')} />;
}

/**
 * A form's save states: the success message clears itself after 3 s; the failure stays until the
 * next try, saying why when the server or the network did.
 */
export function useSaveStatus() {
  const { t } = useTranslation();
  const saved = useTimedMessage(SUCCESS_MESSAGE_MS);
  const [error, setError] = useState<string | null>(null);
  const { show, clear } = saved;

  const start = useCallback(() => {
    clear();
    setError(null);
  }, [clear]);

  /** `failed` is the form's own text ('Failed to save theme settings'); `error`, what happened. */
  const fail = useCallback(
    (failed: string, error?: unknown) => {
      const reason =
        error instanceof ApiError
          ? error.message
          : error instanceof NetworkError
            ? t('panel.networkError')
            : '';
      setError(reason ? t('panel.failedReason', { failed, reason }) : failed);
    },
    [t],
  );

  return { saved: saved.message, error, start, succeed: show, fail };
}

/** The save states' live regions, above the form's fields. */
export function SaveStatus({ saved, error }: { saved: string | null; error: string | null }) {
  return (
    <>
      <LiveMessage tone="success" message={saved} />
      <LiveMessage tone="error" message={error} />
    </>
  );
}

/** A settings tab: its title for screen readers (the tab shows it), its intro, its form. */
export function SettingsTab({
  title,
  intro,
  children,
}: {
  title: string;
  intro: string;
  children: ReactNode;
}) {
  return (
    <div className="admin-section">
      <h2 className="visually-hidden">{title}</h2>
      <p className="admin-section__intro">{intro}</p>
      {children}
    </div>
  );
}

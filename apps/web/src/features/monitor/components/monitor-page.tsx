import { MONITOR_REFRESH_SECONDS } from '@contrateia/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { RefreshIcon } from '@/components/ui/action-icons';
import { Button } from '@/components/ui/button';
import { LiveMessage } from '@/components/ui/live-message';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { useMonitorStatus } from '@/features/monitor/api/get-monitor-status';
import { PerformanceMeters } from '@/features/monitor/components/performance-meters';
import { QueuesList } from '@/features/monitor/components/queues-list';
import { QuickActions } from '@/features/monitor/components/quick-actions';
import { ServicesList } from '@/features/monitor/components/services-list';
import { SystemStatusCard } from '@/features/monitor/components/system-status';
import { monitorFailureText } from '@/features/monitor/failure-text';
import { useMonitorFormat } from '@/features/monitor/hooks/use-monitor-format';
import { useRefreshInterval } from '@/features/monitor/hooks/use-refresh-interval';
import { SAMPLE_STATUS } from '@/features/monitor/sample-status';
import { cx } from '@/lib/cx';
import '@/features/monitor/monitor.css';

/**
 * The system monitor: the system's status, each service, CPU, memory, disk and network as bars,
 * the background jobs' queues, refreshed every 10 s, 30 s (default), 1 min or 5 min (the choice
 * kept in the browser) or at once with Refresh Now, and the quick actions. When the status cannot
 * be fetched it says why and shows sample data, marked as such everywhere, until the next fetch
 * succeeds.
 */
export function MonitorPage({ email }: { email: string }) {
  const { t } = useTranslation();
  const format = useMonitorFormat();
  const intervalId = useId();
  const [refreshSeconds, setRefreshSeconds] = useRefreshInterval();
  const status = useMonitorStatus(refreshSeconds);
  const sample = status.isError;
  const shown = sample ? SAMPLE_STATUS : status.data;
  // The last real figures' time, even while a failed fetch shows the sample.
  const lastUpdate = status.data ? format.time(status.data.lastUpdate) : '';
  const refreshing = status.isFetching;

  const handleRefresh = () => {
    // aria-disabled rather than disabled while it runs: the button keeps the keyboard focus.
    if (refreshing) return;
    void status.refetch();
  };

  return (
    <div className="monitor">
      <header className="monitor__header">
        <div className="monitor__heading">
          <h1 className="monitor__title">{t('systemMonitor.title')}</h1>
          <p className="monitor-muted">{t('systemMonitor.intro')}</p>
        </div>
        <div className="monitor__toolbar">
          <p className="monitor__last-update">
            {lastUpdate
              ? t('systemMonitor.toolbar.lastUpdate', { time: lastUpdate })
              : t('systemMonitor.toolbar.neverUpdated')}
          </p>
          <div className="monitor__interval">
            <label htmlFor={intervalId} className="field__label">
              {t('systemMonitor.toolbar.interval')}
            </label>
            <select
              id={intervalId}
              className="field__input monitor__select"
              value={refreshSeconds}
              onChange={(event) => setRefreshSeconds(Number(event.target.value))}
            >
              {MONITOR_REFRESH_SECONDS.map((seconds) => (
                <option key={seconds} value={seconds}>
                  {format.duration(seconds)}
                </option>
              ))}
            </select>
          </div>
          <Button
            variant="secondary"
            className={cx('monitor__refresh', refreshing && 'is-refreshing')}
            aria-disabled={refreshing || undefined}
            onClick={handleRefresh}
          >
            <RefreshIcon />
            {refreshing
              ? t('systemMonitor.toolbar.refreshing')
              : t('systemMonitor.toolbar.refreshNow')}
          </Button>
        </div>
      </header>

      <LiveMessage
        tone="error"
        message={
          sample ? monitorFailureText(t, status.error, t('systemMonitor.fetchFailed')) : null
        }
      />
      {sample && <p className="monitor-sample-banner">{t('systemMonitor.sample.banner')}</p>}

      {status.isPending ? (
        <LoadingScreen inline label={t('systemMonitor.loading')} />
      ) : (
        shown && (
          <div className="monitor__grid">
            <SystemStatusCard status={shown} sample={sample} />
            <PerformanceMeters status={shown} sample={sample} />
            <ServicesList services={shown.services} sample={sample} />
            <QueuesList queues={shown.queues} sample={sample} />
          </div>
        )
      )}

      <QuickActions email={email} />
    </div>
  );
}

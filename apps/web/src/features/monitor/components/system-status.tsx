import type { MonitorStatus, SystemStatus } from '@contrateia/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { HealthIcon, SampleBadge, type Health } from '@/features/monitor/components/status-icon';
import { useMonitorFormat } from '@/features/monitor/hooks/use-monitor-format';

const HEALTH: Record<SystemStatus, Health> = { healthy: 'good', degraded: 'warning', down: 'bad' };

/** The system's status in a word, an icon and a colour, what it means, and the server's uptime. */
export function SystemStatusCard({ status, sample }: { status: MonitorStatus; sample: boolean }) {
  const { t } = useTranslation();
  const format = useMonitorFormat();
  const headingId = useId();
  const health = HEALTH[status.systemStatus];
  return (
    <section className="monitor-card" aria-labelledby={headingId}>
      <h2 id={headingId} className="monitor-card__title">
        {t('systemMonitor.status.title')}
        {sample && <SampleBadge label={t('systemMonitor.sample.badge')} />}
      </h2>
      <p className={`monitor-system monitor-system--${health}`}>
        <HealthIcon health={health} />
        <span className="monitor-system__word">
          {t(`systemMonitor.status.${status.systemStatus}`)}
        </span>
      </p>
      <p>{t(`systemMonitor.status.${status.systemStatus}Text`)}</p>
      <p className="monitor-muted">
        {t('systemMonitor.status.serverUptime', {
          duration: format.duration(status.figures.processUptimeSeconds),
        })}
      </p>
    </section>
  );
}

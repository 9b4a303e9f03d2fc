import type { MonitorQueue } from '@contrateia/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SampleBadge } from '@/features/monitor/components/status-icon';

/** The server's queues the page has words for; another is shown by its name. */
const NAMED = [
  'whatsapp-reply',
  'whatsapp-send',
  'whatsapp-sandbox-offline',
  'whatsapp-media-retention',
  'whatsapp-relay',
  'logs-retention',
  'sessions-cleanup',
] as const;
type Named = (typeof NAMED)[number];
const isNamed = (name: string): name is Named => (NAMED as readonly string[]).includes(name);

/**
 * The server's background jobs (WhatsApp auto-replies, the log's retention, the clean-up of
 * sessions and codes), on every instance together: how many wait, run now, and failed for good in
 * the last hour (in the warning colour, with its words, when any did).
 */
export function QueuesList({ queues, sample }: { queues: MonitorQueue[]; sample: boolean }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <section className="monitor-card monitor-queues" aria-labelledby={headingId}>
      <h2 id={headingId} className="monitor-card__title">
        {t('systemMonitor.queues.title')}
      </h2>
      {queues.length === 0 ? (
        <p className="monitor-muted">{t('systemMonitor.queues.none')}</p>
      ) : (
        <ul className="monitor-services__list">
          {queues.map((queue) => {
            const nameId = `${headingId}-${queue.name}`;
            return (
              <li key={queue.name} className="monitor-service" aria-labelledby={nameId}>
                <div className="monitor-service__head">
                  <h3 id={nameId} className="monitor-service__name">
                    {isNamed(queue.name)
                      ? t(`systemMonitor.queues.names.${queue.name}`)
                      : queue.name}
                  </h3>
                  {sample && <SampleBadge label={t('systemMonitor.sample.badge')} />}
                </div>
                <p className="monitor-service__details">
                  {t('systemMonitor.queues.waiting', { count: queue.waiting })} ·{' '}
                  {t('systemMonitor.queues.active', { count: queue.active })}
                </p>
                <p
                  className={
                    queue.failedLastHour > 0
                      ? 'monitor-service__details monitor-status--warning'
                      : 'monitor-service__details monitor-muted'
                  }
                >
                  {t('systemMonitor.queues.failed', { count: queue.failedLastHour })}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

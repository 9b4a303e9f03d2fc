import type { MonitorStatus } from '@contrateia/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SampleBadge, type Health } from '@/features/monitor/components/status-icon';
import { useMonitorFormat } from '@/features/monitor/hooks/use-monitor-format';

/** A bar's colour from its level; the percent is always written beside it too. */
function healthOf(percent: number): Health {
  if (percent >= 90) return 'bad';
  if (percent >= 75) return 'warning';
  return 'good';
}

/**
 * One figure as a bar (role="meter", 0–100): its name, the percent, and the figures behind it,
 * which are also its value text for screen readers. With no percent (a network whose link speed
 * is unknown) there is no bar: the figures say it.
 */
function Meter({
  label,
  percent,
  figures,
  sampleLabel,
}: {
  label: string;
  percent: number | null;
  figures: string;
  sampleLabel: string | null;
}) {
  const { t } = useTranslation();
  const format = useMonitorFormat();
  const labelId = useId();
  const figuresId = useId();
  const value = percent === null ? null : Math.min(100, Math.max(0, percent));
  const percentText = value === null ? '' : format.percent(value);
  return (
    <li className="monitor-meter">
      <div className="monitor-meter__head">
        <span id={labelId} className="monitor-meter__label">
          {label}
          {sampleLabel && <SampleBadge label={sampleLabel} />}
        </span>
        {value !== null && (
          <span className="monitor-meter__percent" aria-hidden="true">
            {percentText}
          </span>
        )}
      </div>
      {value !== null && (
        <div
          role="meter"
          aria-labelledby={labelId}
          aria-describedby={figuresId}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={value}
          aria-valuetext={t('systemMonitor.performance.valueText', {
            percent: percentText,
            figures,
          })}
          className="monitor-meter__track"
        >
          <div
            className={`monitor-meter__fill monitor-meter__fill--${healthOf(value)}`}
            style={{ inlineSize: `${value}%` }}
          />
        </div>
      )}
      <p id={figuresId} className="monitor-meter__figures">
        {figures}
      </p>
    </li>
  );
}

/**
 * CPU, memory, disk and network as bars, each with the figures behind its percent, and the
 * WhatsApp files kept (no bar: a share of nothing in particular), as the server counted them.
 */
export function PerformanceMeters({ status, sample }: { status: MonitorStatus; sample: boolean }) {
  const { t } = useTranslation();
  const format = useMonitorFormat();
  const headingId = useId();
  const { performance, figures, storage } = status;
  const sampleLabel = sample ? t('systemMonitor.sample.badge') : null;
  const container = figures.containerLimits
    ? ` (${t('systemMonitor.performance.containerLimits')})`
    : '';
  // A percent of an unknown link speed says nothing: both or neither.
  const linkSpeed = performance.network === null ? null : figures.networkLinkBitsPerSecond;
  const throughput = t('systemMonitor.performance.throughput', {
    received: format.bytesPerSecond(figures.networkRxBytesPerSecond),
    sent: format.bytesPerSecond(figures.networkTxBytesPerSecond),
  });
  return (
    <section className="monitor-card monitor-performance" aria-labelledby={headingId}>
      <h2 id={headingId} className="monitor-card__title">
        {t('systemMonitor.performance.title')}
      </h2>
      <ul className="monitor-meters">
        <Meter
          label={t('systemMonitor.performance.cpu')}
          percent={performance.cpu}
          figures={
            t('systemMonitor.performance.cores', {
              count: figures.cpuCores,
              load: format.decimal(figures.loadAverage),
            }) + container
          }
          sampleLabel={sampleLabel}
        />
        <Meter
          label={t('systemMonitor.performance.memory')}
          percent={performance.memory}
          figures={
            t('systemMonitor.performance.used', {
              used: format.bytes(figures.memoryUsedBytes),
              total: format.bytes(figures.memoryTotalBytes),
            }) + container
          }
          sampleLabel={sampleLabel}
        />
        <Meter
          label={t('systemMonitor.performance.disk')}
          percent={performance.disk}
          figures={t('systemMonitor.performance.used', {
            used: format.bytes(figures.diskUsedBytes),
            total: format.bytes(figures.diskTotalBytes),
          })}
          sampleLabel={sampleLabel}
        />
        <Meter
          label={t('systemMonitor.performance.network')}
          percent={linkSpeed === null ? null : performance.network}
          figures={
            linkSpeed === null
              ? t('systemMonitor.performance.linkUnknown', { throughput })
              : `${throughput}; ${t('systemMonitor.performance.linkSpeed', {
                  speed: format.bitsPerSecond(linkSpeed),
                })}`
          }
          sampleLabel={sampleLabel}
        />
        <Meter
          label={t('systemMonitor.performance.media')}
          percent={null}
          figures={
            storage
              ? t('systemMonitor.performance.mediaStored', {
                  count: storage.mediaFiles,
                  files: format.decimal(storage.mediaFiles),
                  size: format.bytes(storage.mediaBytes),
                })
              : t('systemMonitor.performance.mediaUncounted')
          }
          sampleLabel={sampleLabel}
        />
      </ul>
    </section>
  );
}

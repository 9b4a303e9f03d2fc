import type { MonitorService, ServiceStatus } from '@contrateia/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { HealthIcon, SampleBadge, type Health } from '@/features/monitor/components/status-icon';
import { useMonitorFormat } from '@/features/monitor/hooks/use-monitor-format';

const HEALTH: Record<ServiceStatus, Health> = { up: 'good', degraded: 'warning', down: 'bad' };

const KINDS = ['pglite', 'postgres', 'smtp', 'log', 'builtin', 'openai'] as const;
type Kind = (typeof KINDS)[number];
const isKind = (kind: string): kind is Kind => (KINDS as readonly string[]).includes(kind);

const PROBLEMS = [
  'timeout',
  'refused',
  'unreachable',
  'auth',
  'tls',
  'dns',
  'closed',
  'redirect',
] as const;
type Problem = (typeof PROBLEMS)[number];
/** Node's own codes, which a check may pass on, in the same words. */
const NODE_CODES: Record<string, Problem> = {
  ETIMEDOUT: 'timeout',
  ECONNREFUSED: 'refused',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  ECONNRESET: 'closed',
};
function problemOf(code: string): Problem | undefined {
  return (PROBLEMS as readonly string[]).includes(code) ? (code as Problem) : NODE_CODES[code];
}

/**
 * Mail without SMTP, as the default install has it: configured that way, not failing, so its
 * status names the mode rather than a bare "Up".
 */
const inLogMode = ({ name, status, details }: MonitorService) =>
  name === 'mail' && status === 'up' && details.kind === 'log';

/** What a service's check found, in words: its kind, latency, connections, or why it is down. */
function useServiceDetails() {
  const { t } = useTranslation();
  const format = useMonitorFormat();
  return ({ name, details }: MonitorService): string[] => {
    const parts: string[] = [];
    if (details.kind !== undefined) {
      parts.push(
        isKind(details.kind) ? t(`systemMonitor.services.kinds.${details.kind}`) : details.kind,
      );
    }
    if (details.latencyMs !== undefined) {
      parts.push(
        t('systemMonitor.services.latency', { latency: format.latency(details.latencyMs) }),
      );
    }
    if (name === 'whatsapp' && details.linked !== undefined) {
      parts.push(
        details.linked === 0
          ? t('systemMonitor.services.noLinked')
          : t('systemMonitor.services.whatsapp', {
              connected: details.connected ?? 0,
              linked: details.linked,
            }),
      );
    }
    if (details.connections !== undefined) {
      parts.push(t('systemMonitor.services.sockets', { count: details.connections }));
    }
    if (details.error !== undefined) {
      const problem = problemOf(details.error);
      parts.push(
        t('systemMonitor.services.error', {
          problem: problem
            ? t(`systemMonitor.services.errors.${problem}`)
            : t('systemMonitor.services.errors.other', { code: details.error }),
        }),
      );
    }
    return parts;
  };
}

/** Each of our services: its name and status in words, how long it has been up, what was found. */
export function ServicesList({
  services,
  sample,
}: {
  services: MonitorService[];
  sample: boolean;
}) {
  const { t } = useTranslation();
  const format = useMonitorFormat();
  const detailsOf = useServiceDetails();
  const headingId = useId();
  return (
    <section className="monitor-card monitor-services" aria-labelledby={headingId}>
      <h2 id={headingId} className="monitor-card__title">
        {t('systemMonitor.services.title')}
      </h2>
      <ul className="monitor-services__list">
        {services.map((service) => {
          const health = HEALTH[service.status];
          const nameId = `${headingId}-${service.name}`;
          const details = detailsOf(service);
          return (
            <li key={service.name} className="monitor-service" aria-labelledby={nameId}>
              <div className="monitor-service__head">
                <h3 id={nameId} className="monitor-service__name">
                  {t(`systemMonitor.services.names.${service.name}`)}
                </h3>
                {sample && <SampleBadge label={t('systemMonitor.sample.badge')} />}
              </div>
              <p className={`monitor-service__status monitor-status--${health}`}>
                <HealthIcon health={health} />
                {inLogMode(service)
                  ? t('systemMonitor.services.status.logMode')
                  : t(`systemMonitor.services.status.${service.status}`)}
              </p>
              {/* A service down has no uptime: its status says so already. */}
              {service.uptime !== null && (
                <p className="monitor-muted">
                  {t('systemMonitor.services.uptime', {
                    duration: format.duration(service.uptime),
                  })}
                </p>
              )}
              {details.length > 0 && (
                <p className="monitor-service__details">{details.join(' · ')}</p>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

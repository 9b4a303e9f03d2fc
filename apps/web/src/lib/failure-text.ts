import i18next from 'i18next';

/**
 * A failure followed by its reason ("Failed to fetch logs: <the server's message>"), when there is
 * a reason that says more than the failure itself; else the failure alone.
 */
export function withReason(failed: string, reason: string | undefined): string {
  return reason && reason !== failed
    ? i18next.t('app.withReason', { failure: failed, reason })
    : failed;
}

import type { MonitorStatus } from '@contrateia/shared';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export const monitorKeys = {
  status: ['monitor', 'status'] as const,
};

/** GET /api/monitor/status: the figures the server sampled last (admins in admin mode only). */
export function getMonitorStatus(): Promise<MonitorStatus> {
  return apiRequest<MonitorStatus>('/monitor/status');
}

/**
 * The system status, fetched again every `refreshSeconds`. TanStack Query holds the interval
 * while the tab is hidden (refetchIntervalInBackground is off) and fetches at once when the tab
 * is shown again, so a monitor left open in a background tab costs the server nothing.
 */
export function useMonitorStatus(refreshSeconds: number) {
  return useQuery({
    queryKey: monitorKeys.status,
    // Without the query's abort signal: the answer is small and cached, and an aborted call
    // would only be asked again when the page comes back.
    queryFn: () => getMonitorStatus(),
    refetchInterval: refreshSeconds * 1_000,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
  });
}

import type { MonitorAction, MonitorActionResponse } from '@contrateia/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { monitorKeys } from '@/features/monitor/api/get-monitor-status';
import { apiRequest } from '@/lib/api-client';

/** POST /api/monitor/actions/{action}: one quick action, done by the server, with what it did. */
export function runMonitorAction(action: MonitorAction): Promise<MonitorActionResponse> {
  return apiRequest<MonitorActionResponse>(`/monitor/actions/${encodeURIComponent(action)}`, {
    method: 'POST',
  });
}

export function useMonitorAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runMonitorAction,
    // A reconnection (or a mail check) changes what the services show: read them again.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: monitorKeys.status }),
  });
}

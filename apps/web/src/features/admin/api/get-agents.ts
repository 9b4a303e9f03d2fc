import type { AdminAgentsResponse } from '@contrateia/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { manageKeys } from '@/features/admin/api/manage-keys';
import { apiRequest } from '@/lib/api-client';

/** GET /api/admin/agents: every agent, inactive ones too, with its hires and conversations. */
export function getAdminAgents(): Promise<AdminAgentsResponse> {
  return apiRequest<AdminAgentsResponse>('/admin/agents');
}

export const adminAgentsQueryOptions = () =>
  queryOptions({ queryKey: manageKeys.agents, queryFn: getAdminAgents });

export function useAdminAgents() {
  return useQuery(adminAgentsQueryOptions());
}

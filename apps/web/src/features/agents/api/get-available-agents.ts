import type { AgentsResponse } from '@contrateia/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { agentsQueryRoot } from '@/features/agents/api/get-user-agents';
import { apiRequest } from '@/lib/api-client';

export const availableAgentsQueryKey = [...agentsQueryRoot, 'available'] as const;

/** Active agents the caller may hire and has not hired yet. */
export function getAvailableAgents(): Promise<AgentsResponse> {
  return apiRequest<AgentsResponse>('/agents/available');
}

export function availableAgentsQueryOptions() {
  return queryOptions({
    queryKey: availableAgentsQueryKey,
    queryFn: getAvailableAgents,
    staleTime: 60_000,
  });
}

export function useAvailableAgents() {
  return useQuery(availableAgentsQueryOptions());
}

import type { AgentsResponse } from '@contrateia/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** Every agents query starts with this, so a language switch can refresh them all at once. */
export const agentsQueryRoot = ['agents'] as const;
export const userAgentsQueryKey = [...agentsQueryRoot, 'user'] as const;

/** The caller's hired agents, texts in the interface language. */
export function getUserAgents(): Promise<AgentsResponse> {
  return apiRequest<AgentsResponse>('/agents/user');
}

export function userAgentsQueryOptions() {
  return queryOptions({
    queryKey: userAgentsQueryKey,
    queryFn: getUserAgents,
    // Changed only by hiring (which writes the cache) and admin actions: a minute is fresh enough.
    staleTime: 60_000,
  });
}

export function useUserAgents() {
  return useQuery(userAgentsQueryOptions());
}

import type { MyAgentsResponse } from '@contrateia/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { myAgentKeys } from '@/features/my-agents/api/my-agent-keys';
import { apiRequest } from '@/lib/api-client';

/** GET /api/my-agents: the account's own agents, oldest first, each with all it was taught. */
export function getMyAgents(): Promise<MyAgentsResponse> {
  return apiRequest<MyAgentsResponse>('/my-agents');
}

export const myAgentsQueryOptions = () =>
  queryOptions({ queryKey: myAgentKeys.all, queryFn: getMyAgents });

export function useMyAgents() {
  return useQuery(myAgentsQueryOptions());
}

import type { MyAgentResponse } from '@contrateia/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { myAgentKeys, myAgentPath } from '@/features/my-agents/api/my-agent-keys';
import { apiRequest } from '@/lib/api-client';

/** GET /api/my-agents/{id}: one of the account's own agents; 404 for any other id. */
export function getMyAgent(id: string): Promise<MyAgentResponse> {
  return apiRequest<MyAgentResponse>(myAgentPath(id));
}

export const myAgentQueryOptions = (id: string) =>
  queryOptions({
    queryKey: myAgentKeys.one(id),
    queryFn: () => getMyAgent(id),
    // Read once for the form, which keeps its own edits: a refetch would not change what it shows.
    staleTime: Infinity,
  });

export function useMyAgent(id: string) {
  return useQuery(myAgentQueryOptions(id));
}

import type { MyAgentDocumentsResponse } from '@contrateia/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { myAgentDocumentsPath, myAgentKeys } from '@/features/my-agents/api/my-agent-keys';
import { apiRequest } from '@/lib/api-client';

/** GET /api/my-agents/{id}/documents: the agent's documents, newest first. */
export function getMyAgentDocuments(id: string): Promise<MyAgentDocumentsResponse> {
  return apiRequest<MyAgentDocumentsResponse>(myAgentDocumentsPath(id));
}

export const myAgentDocumentsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: myAgentKeys.documents(id),
    queryFn: () => getMyAgentDocuments(id),
  });

export function useMyAgentDocuments(id: string) {
  return useQuery(myAgentDocumentsQueryOptions(id));
}

import type { MyAgentDocumentsResponse } from '@contrateia/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { myAgentDocumentsPath, myAgentKeys } from '@/features/my-agents/api/my-agent-keys';
import { apiRequest } from '@/lib/api-client';

export interface DeleteMyAgentDocumentInput {
  agentId: string;
  documentId: string;
}

/** DELETE /api/my-agents/{id}/documents/{documentId}: the agent no longer answers from it. */
export async function deleteMyAgentDocument({
  agentId,
  documentId,
}: DeleteMyAgentDocumentInput): Promise<void> {
  await apiRequest<null>(`${myAgentDocumentsPath(agentId)}/${encodeURIComponent(documentId)}`, {
    method: 'DELETE',
  });
}

export function useDeleteMyAgentDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMyAgentDocument,
    onSuccess: async (_answer, { agentId, documentId }) => {
      queryClient.setQueryData<MyAgentDocumentsResponse>(myAgentKeys.documents(agentId), (old) =>
        old?.filter((d) => d.id !== documentId),
      );
      await queryClient.invalidateQueries({ queryKey: myAgentKeys.documents(agentId) });
    },
  });
}

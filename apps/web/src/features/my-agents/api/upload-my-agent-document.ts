import {
  MY_AGENT_DOCUMENT_FIELD,
  myAgentDocumentSchema,
  type MyAgentDocument,
  type MyAgentDocumentsResponse,
} from '@contrateia/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { myAgentDocumentsPath, myAgentKeys } from '@/features/my-agents/api/my-agent-keys';
import { apiUpload, type UploadProgress } from '@/lib/api-upload';

export interface UploadMyAgentDocumentInput {
  agentId: string;
  file: File;
  onProgress?: (progress: UploadProgress) => void;
}

/**
 * POST /api/my-agents/{id}/documents, multipart (the `file` part): the server reads its text
 * before it answers, so the answer may come a while after the last byte is sent.
 */
export async function uploadMyAgentDocument({
  agentId,
  file,
  onProgress,
}: UploadMyAgentDocumentInput): Promise<MyAgentDocument> {
  const body = new FormData();
  body.set(MY_AGENT_DOCUMENT_FIELD, file, file.name);
  const answer = await apiUpload<unknown>(myAgentDocumentsPath(agentId), { body, onProgress });
  return myAgentDocumentSchema.parse(answer);
}

/** An upload; once stored, it heads the agent's list. */
export function useUploadMyAgentDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadMyAgentDocument,
    onSuccess: async (document, { agentId }) => {
      queryClient.setQueryData<MyAgentDocumentsResponse>(myAgentKeys.documents(agentId), (old) =>
        old ? [document, ...old.filter((d) => d.id !== document.id)] : old,
      );
      await queryClient.invalidateQueries({ queryKey: myAgentKeys.documents(agentId) });
    },
  });
}

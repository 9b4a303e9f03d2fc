import type { RenameConversationInput, RenameConversationResponse } from '@contrateia/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { conversationsQueryRoot } from '@/features/chat/api/get-conversations';
import { apiRequest } from '@/lib/api-client';

/** PATCH /api/chat/conversations/{id}: a new title (400 with a field message when refused). */
export function renameConversation({
  id,
  input,
}: {
  id: string;
  input: RenameConversationInput;
}): Promise<RenameConversationResponse> {
  return apiRequest<RenameConversationResponse>(`/chat/conversations/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: input,
  });
}

export function useRenameConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameConversation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: conversationsQueryRoot }),
  });
}

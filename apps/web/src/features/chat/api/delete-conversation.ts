import type { DeleteConversationResponse } from '@contrateia/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { conversationsQueryRoot } from '@/features/chat/api/get-conversations';
import { apiRequest } from '@/lib/api-client';

/** DELETE /api/chat/conversations/{id}: the conversation and its messages. */
export function deleteConversation(id: string): Promise<DeleteConversationResponse> {
  return apiRequest<DeleteConversationResponse>(`/chat/conversations/${encodeURIComponent(id)}`, {
    method: 'DELETE',
  });
}

export function useDeleteConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteConversation,
    onSuccess: (_data, id) => {
      queryClient.removeQueries({ queryKey: ['chat', 'conversation', id] });
      return queryClient.invalidateQueries({ queryKey: conversationsQueryRoot });
    },
  });
}

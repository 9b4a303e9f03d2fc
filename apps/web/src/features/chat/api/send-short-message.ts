import type { ShortChatInput, ShortChatResponse } from '@contrateia/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { conversationsQueryRoot } from '@/features/chat/api/get-conversations';
import { apiRequest } from '@/lib/api-client';

/** The dashboard's short form: one reply, kept in the latest conversation with that agent. */
export function sendShortMessage(input: ShortChatInput): Promise<ShortChatResponse> {
  return apiRequest<ShortChatResponse>('/chat', { method: 'POST', body: input });
}

export function useSendShortMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendShortMessage,
    onSettled: () => queryClient.invalidateQueries({ queryKey: conversationsQueryRoot }),
  });
}

import type { ShortChatInput } from '@contrateia/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { conversationsQueryRoot } from '@/features/chat/api/get-conversations';
import { streamChat, type SendMessageOptions } from '@/features/chat/api/send-message';

/**
 * The dashboard's short form (`POST /api/chat`): one reply, kept in the latest conversation with
 * that agent, streamed as the agent pages' replies are (and so stoppable the same way).
 */
export function sendShortMessage(options: SendMessageOptions<ShortChatInput>) {
  return streamChat('/chat', options);
}

export function useSendShortMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendShortMessage,
    onSettled: () => queryClient.invalidateQueries({ queryKey: conversationsQueryRoot }),
  });
}

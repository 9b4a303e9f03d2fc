import type { ConversationResponse } from '@contrateia/shared';
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** One of the caller's conversations with its messages in order; 404 for anyone else's. */
export function getConversation(id: string): Promise<ConversationResponse> {
  return apiRequest<ConversationResponse>(`/chat/conversations/${encodeURIComponent(id)}`);
}

/** `id` null: nothing to load (a fresh chat). */
export function conversationQueryOptions(id: string | null) {
  return queryOptions({
    queryKey: ['chat', 'conversation', id],
    queryFn: id ? () => getConversation(id) : skipToken,
  });
}

export function useConversation(id: string | null) {
  return useQuery(conversationQueryOptions(id));
}

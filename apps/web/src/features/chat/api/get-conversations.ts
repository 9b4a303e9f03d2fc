import type { ConversationsResponse } from '@contrateia/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** Every conversation list starts with this key: a new message invalidates them all. */
export const conversationsQueryRoot = ['chat', 'conversations'] as const;

/** The caller's conversations with one agent, newest first. */
export function getConversations(agentName: string): Promise<ConversationsResponse> {
  return apiRequest<ConversationsResponse>(
    `/chat/conversations?${new URLSearchParams({ agentName })}`,
  );
}

export function conversationsQueryOptions(agentName: string) {
  return queryOptions({
    queryKey: [...conversationsQueryRoot, agentName],
    queryFn: () => getConversations(agentName),
  });
}

export function useConversations(agentName: string) {
  return useQuery(conversationsQueryOptions(agentName));
}

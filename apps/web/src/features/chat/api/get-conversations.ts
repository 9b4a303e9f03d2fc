import type { ConversationsResponse } from '@contrateia/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** Every conversation list starts with this key: a new message invalidates them all. */
export const conversationsQueryRoot = ['chat', 'conversations'] as const;

/**
 * The caller's conversations with one agent, newest first; `search` keeps those whose title or
 * any message contains it.
 */
export function getConversations(agentName: string, search = ''): Promise<ConversationsResponse> {
  const query = new URLSearchParams({ agentName });
  if (search) query.set('q', search);
  return apiRequest<ConversationsResponse>(`/chat/conversations?${query}`);
}

export function conversationsQueryOptions(agentName: string, search = '') {
  return queryOptions({
    queryKey: [...conversationsQueryRoot, agentName, search],
    queryFn: () => getConversations(agentName, search),
  });
}

/** A search keeps showing the previous results while the next ones load (no flash of "empty"). */
export function useConversations(agentName: string, search = '') {
  return useQuery({ ...conversationsQueryOptions(agentName, search), placeholderData: keepPreviousData });
}

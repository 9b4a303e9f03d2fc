import type { ConversationsResponse } from '@contrateia/shared';
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
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
  return useQuery({
    ...conversationsQueryOptions(agentName, search),
    placeholderData: keepPreviousData,
  });
}

/**
 * After Stop: refreshes every conversation list once the server has stored the stopped reply.
 * Refetched at once, a list could still have the old count (the server stores the reply only
 * once it notices the Stop); asked to `settle` that conversation, the server answers after it.
 */
export function useRefreshAfterStop() {
  const queryClient = useQueryClient();
  return useCallback(
    async (agentName: string, conversationId: string) => {
      const query = new URLSearchParams({ agentName, settle: conversationId });
      // A failure here only means the lists refresh without waiting.
      await apiRequest<ConversationsResponse>(`/chat/conversations?${query}`).catch(
        () => undefined,
      );
      await queryClient.invalidateQueries({ queryKey: conversationsQueryRoot });
    },
    [queryClient],
  );
}

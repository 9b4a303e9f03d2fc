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
 * After Stop: refreshes every conversation list, and resolves once the agent's list has been read
 * again. The server stores the stopped reply once it notices the Stop, and answers a list read
 * only after that, so the lists (and whatever the caller refreshes next) have the new count.
 */
export function useRefreshAfterStop() {
  const queryClient = useQueryClient();
  return useCallback(
    async (agentName: string) => {
      // A failure here only means the lists refresh without waiting.
      await getConversations(agentName).catch(() => undefined);
      await queryClient.invalidateQueries({ queryKey: conversationsQueryRoot });
    },
    [queryClient],
  );
}

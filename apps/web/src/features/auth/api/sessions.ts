import type { MessageResponse, SessionsResponse } from '@contrateia/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export const sessionsQueryKey = ['auth', 'sessions'] as const;

/** The account's live sessions, the current one marked; the server names each device. */
export function getSessions(): Promise<SessionsResponse> {
  return apiRequest<SessionsResponse>('/sessions');
}

export function useSessions() {
  return useQuery({ queryKey: sessionsQueryKey, queryFn: getSessions });
}

/** "Sign out elsewhere": every session but this one ends. */
export function revokeOtherSessions(): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('/sessions/revoke-others', { method: 'POST' });
}

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeOtherSessions,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}

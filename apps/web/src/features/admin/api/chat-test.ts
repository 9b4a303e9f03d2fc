import type { AdminChatTestInput, AdminChatTestResponse } from '@contrateia/shared';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/**
 * POST /api/admin/chat/test: one message to an agent, active or not, through the real engine;
 * the conversation is kept apart from users' conversations and stats.
 */
export function sendTestMessage(input: AdminChatTestInput): Promise<AdminChatTestResponse> {
  return apiRequest<AdminChatTestResponse>('/admin/chat/test', { method: 'POST', body: input });
}

export function useSendTestMessage() {
  return useMutation({ mutationFn: sendTestMessage });
}

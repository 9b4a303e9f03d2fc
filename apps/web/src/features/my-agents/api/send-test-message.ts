import type { SendMessageInput, SendMessageResponse } from '@contrateia/shared';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/**
 * POST /api/chat/message, answered in one piece (JSON, not a stream): the call the agent's own
 * chat page makes, so the test answers exactly as the agent answers there, from what was saved.
 * Without a conversation id it starts one of its own, which later messages continue.
 */
export function sendTestMessage(input: SendMessageInput): Promise<SendMessageResponse> {
  return apiRequest<SendMessageResponse>('/chat/message', { method: 'POST', body: input });
}

export function useSendTestMessage() {
  return useMutation({ mutationFn: sendTestMessage });
}

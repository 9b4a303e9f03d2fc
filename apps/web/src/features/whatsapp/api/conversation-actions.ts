import {
  dataResponse,
  WHATSAPP_MEDIA_FORM,
  whatsappConversationSchema,
  whatsappMessageSchema,
  type WhatsAppConversation,
} from '@contrateia/shared/whatsapp/whatsapp.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  appendMessage,
  patchMessage,
  patchConversation,
  removeConversation,
  upsertConversation,
  whatsappKeys,
} from '@/features/whatsapp/api/whatsapp-cache';
import { conversationPath, whatsappCommand } from '@/features/whatsapp/api/whatsapp-request';
import { apiUpload } from '@/lib/api-upload';

// The per-conversation calls. An answer that carries the conversation (or the message) goes into
// the cache; otherwise what was asked is.

function useConversationSetting<Input>({
  path,
  body,
  patch,
}: {
  path: string;
  body: (input: Input) => unknown;
  patch: (input: Input) => Partial<WhatsAppConversation>;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: Input }) =>
      whatsappCommand(`${conversationPath(id)}${path}`, { method: 'POST', body: body(input) }),
    onSuccess: (data, { id, input }) => {
      const answered = whatsappConversationSchema.safeParse(data);
      if (answered.success && answered.data.id === id)
        upsertConversation(queryClient, answered.data);
      else patchConversation(queryClient, id, patch(input));
      // The status counts (AI on, whitelisted, with an agent) change with these.
      return queryClient.invalidateQueries({ queryKey: whatsappKeys.status });
    },
  });
}

/** POST …/{id}/ai {enabled}: AI replies on or off for this conversation. */
export const useToggleAi = () =>
  useConversationSetting<boolean>({
    path: '/ai',
    body: (enabled) => ({ enabled }),
    patch: (enabled) => ({ ai_enabled: enabled }),
  });

/** POST …/{id}/whitelist {isWhitelisted}. */
export const useSetWhitelist = () =>
  useConversationSetting<boolean>({
    path: '/whitelist',
    body: (isWhitelisted) => ({ isWhitelisted }),
    patch: (isWhitelisted) => ({ is_whitelisted: isWhitelisted }),
  });

/** POST …/{id}/block {blocked}: the contact blocked by the owner (never answered), or unblocked. */
export const useSetBlocked = () =>
  useConversationSetting<boolean>({
    path: '/block',
    body: (blocked) => ({ blocked }),
    patch: (blocked) =>
      blocked ? { status: 'blocked', blocked_reason: 'owner', blocked_until: null } : {},
  });

/** POST …/{id}/resume: the agent answers again after the owner took the conversation over. */
export const useResumeAgent = () =>
  useConversationSetting<void>({
    path: '/resume',
    body: () => ({}),
    patch: () => ({ paused_until: null }),
  });

/** POST …/{id}/assign-agent {agentId}; null leaves the conversation to the default agent. */
export const useAssignAgent = () =>
  useConversationSetting<{ agentId: string | null; displayName: string | null }>({
    path: '/assign-agent',
    body: ({ agentId }) => ({ agentId }),
    patch: ({ agentId, displayName }) => ({ agent_id: agentId, agent_display_name: displayName }),
  });

/** DELETE /api/whatsapp/conversations/{id}. */
export function useDeleteConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => whatsappCommand(conversationPath(id), { method: 'DELETE' }),
    onSuccess: (_data, id) => {
      removeConversation(queryClient, id);
      return queryClient.invalidateQueries({ queryKey: whatsappKeys.status });
    },
  });
}

/** POST …/{id}/messages {text}: a manual message; 409 with a message when not connected. */
export function useSendMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, text }: { id: string; text: string }) =>
      whatsappCommand(`${conversationPath(id)}/messages`, { method: 'POST', body: { text } }),
    onSuccess: (data, { id }) => {
      const message = whatsappMessageSchema.safeParse(data);
      if (message.success) appendMessage(queryClient, id, message.data);
      else return queryClient.invalidateQueries({ queryKey: whatsappKeys.conversation(id) });
    },
  });
}

/**
 * POST …/{id}/media, multipart (`caption`, then `file`): a photo or a document to the contact,
 * with the typed text as its caption; answered with the message, pending, as a text is. A file
 * over the server's limit is a 413 with its message; not connected, a 409.
 */
export function useSendMedia() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, file, caption }: { id: string; file: File; caption: string }) => {
      const body = new FormData();
      if (caption) body.set(WHATSAPP_MEDIA_FORM.caption, caption);
      body.set(WHATSAPP_MEDIA_FORM.file, file, file.name);
      const answer = await apiUpload<unknown>(`/whatsapp${conversationPath(id)}/media`, { body });
      return dataResponse(whatsappMessageSchema).parse(answer).data;
    },
    onSuccess: (message, { id }) => appendMessage(queryClient, id, message),
  });
}

/** POST …/{id}/messages/{messageId}/retry: a message that could not be sent, sent again. */
export function useRetryMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, messageId }: { id: string; messageId: string }) =>
      whatsappCommand(`${conversationPath(id)}/messages/${encodeURIComponent(messageId)}/retry`, {
        method: 'POST',
        body: {},
      }),
    onSuccess: (data, { id, messageId }) => {
      const message = whatsappMessageSchema.safeParse(data);
      if (message.success)
        patchMessage(queryClient, id, messageId, { status: message.data.status });
      else return queryClient.invalidateQueries({ queryKey: whatsappKeys.conversation(id) });
    },
  });
}

import {
  whatsappConversationDetailSchema,
  whatsappConversationSchema,
} from '@contrateia/shared/whatsapp/whatsapp.schemas';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { liveRead, patchConversation, whatsappKeys } from '@/features/whatsapp/api/whatsapp-cache';
import { conversationPath, whatsappRequest } from '@/features/whatsapp/api/whatsapp-request';

/** GET /api/whatsapp/conversations: the account's conversations, newest first. */
export const getConversations = (signal?: AbortSignal) =>
  whatsappRequest('/conversations', z.array(whatsappConversationSchema), { signal });

export function useWhatsAppConversations() {
  return useQuery({ queryKey: whatsappKeys.conversations, queryFn: liveRead(getConversations) });
}

/** GET /api/whatsapp/conversations/{id}: one conversation with its messages. */
export const getConversation = (id: string, signal?: AbortSignal) =>
  whatsappRequest(conversationPath(id), whatsappConversationDetailSchema, { signal });

/** The open conversation; reading it reads its messages, so the list's unread count clears. */
export function useWhatsAppConversation(id: string | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: whatsappKeys.conversation(id ?? ''),
    queryFn: async (context) => {
      const detail = await liveRead((signal) => getConversation(id ?? '', signal))(context);
      patchConversation(queryClient, detail.id, { unread_count: 0 });
      return detail;
    },
    enabled: id !== null,
  });
}

import type {
  WhatsAppConversation,
  WhatsAppConversationDetail,
  WhatsAppMessage,
  WhatsAppStatus,
} from '@contrateia/shared/whatsapp/whatsapp.schemas';
import type { QueryClient } from '@tanstack/react-query';

/**
 * The WhatsApp query keys and the cache patches shared by the answers of the page's own calls
 * and the server's live events (hooks/use-whatsapp-live.ts), so both change the screen the same
 * way.
 */
export const whatsappKeys = {
  all: ['whatsapp'] as const,
  status: ['whatsapp', 'status'] as const,
  conversations: ['whatsapp', 'conversations'] as const,
  conversation: (id: string) => ['whatsapp', 'conversation', id] as const,
  agents: ['whatsapp', 'agents'] as const,
};

const newestFirst = (a: WhatsAppConversation, b: WhatsAppConversation) =>
  b.updated_at.localeCompare(a.updated_at);

export function patchStatus(queryClient: QueryClient, patch: Partial<WhatsAppStatus>): void {
  queryClient.setQueryData<WhatsAppStatus>(whatsappKeys.status, (old) =>
    old ? { ...old, ...patch } : old,
  );
}

/** Changes the fields of one conversation in the list and in its detail, where either is loaded. */
export function patchConversation(
  queryClient: QueryClient,
  id: string,
  patch: Partial<WhatsAppConversation>,
): void {
  queryClient.setQueryData<WhatsAppConversation[]>(whatsappKeys.conversations, (old) =>
    old?.map((conversation) =>
      conversation.id === id ? { ...conversation, ...patch } : conversation,
    ),
  );
  queryClient.setQueryData<WhatsAppConversationDetail>(whatsappKeys.conversation(id), (old) =>
    old ? { ...old, ...patch } : old,
  );
}

/** The conversation as the list shows it: replaced or added, the list kept newest first. */
export function upsertConversation(
  queryClient: QueryClient,
  conversation: WhatsAppConversation,
): void {
  queryClient.setQueryData<WhatsAppConversation[]>(whatsappKeys.conversations, (old) =>
    old ? [...old.filter((c) => c.id !== conversation.id), conversation].sort(newestFirst) : old,
  );
  const { id, ...fields } = conversation;
  queryClient.setQueryData<WhatsAppConversationDetail>(whatsappKeys.conversation(id), (old) =>
    old ? { ...old, ...fields } : old,
  );
}

/** Adds a message to a loaded conversation once (the call's answer and the event both bring it). */
export function appendMessage(
  queryClient: QueryClient,
  conversationId: string,
  message: WhatsAppMessage,
): void {
  queryClient.setQueryData<WhatsAppConversationDetail>(
    whatsappKeys.conversation(conversationId),
    (old) =>
      old && !old.messages.some((m) => m.id === message.id)
        ? { ...old, messages: [...old.messages, message] }
        : old,
  );
  queryClient.setQueryData<WhatsAppConversation[]>(whatsappKeys.conversations, (old) =>
    old
      ?.map((c) =>
        c.id === conversationId && message.timestamp >= c.updated_at
          ? { ...c, last_message: { text: message.text }, updated_at: message.timestamp }
          : c,
      )
      .sort(newestFirst),
  );
}

export function removeConversation(queryClient: QueryClient, id: string): void {
  queryClient.setQueryData<WhatsAppConversation[]>(whatsappKeys.conversations, (old) =>
    old?.filter((c) => c.id !== id),
  );
  queryClient.removeQueries({ queryKey: whatsappKeys.conversation(id) });
}

import type {
  WhatsAppConversation,
  WhatsAppConversationDetail,
  WhatsAppMessage,
  WhatsAppStatus,
} from '@contrateia/shared/whatsapp/whatsapp.schemas';
import type { QueryClient, QueryFunctionContext } from '@tanstack/react-query';

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

/**
 * What the server's live events change (every conversation's detail is under the second key):
 * read again after a gap in the events. The agents are not among them.
 */
export const liveKeys = [
  whatsappKeys.status,
  whatsappKeys.conversations,
  ['whatsapp', 'conversation'] as const,
];

/** How many live events each cache has taken in (noteLiveEvent), compared by liveRead. */
const liveEvents = new WeakMap<QueryClient, number>();

/** Counts a live event, or a new join of the live room, for the reads under way (liveRead). */
export function noteLiveEvent(queryClient: QueryClient): void {
  liveEvents.set(queryClient, (liveEvents.get(queryClient) ?? 0) + 1);
}

/**
 * The query function of a read that live events patch (the status, the list, a conversation).
 * The server sends an event once its change is stored, so a read sent before the event may have
 * been answered from before the change; landing after the event, that answer would undo what
 * the event showed (a new contact's conversation gone from the list until something read it
 * again). So an answer during whose flight an event came, or the cache was patched (by a call's
 * answer), is dropped and the read made again: the stale answer never reaches the screen. An
 * invalidation meanwhile aborts the read through the signal and starts a fresh one.
 */
export function liveRead<T>(read: (signal: AbortSignal) => Promise<T>) {
  return async ({ client, queryKey, signal }: QueryFunctionContext): Promise<T> => {
    const changes = () =>
      `${liveEvents.get(client) ?? 0}:${client.getQueryState(queryKey)?.dataUpdateCount ?? 0}`;
    // Ends with the first read that no change crossed; changes come from events and answers, so
    // it reads again only while they keep coming.
    for (;;) {
      const before = changes();
      const data = await read(signal);
      if (changes() === before) return data;
    }
  };
}

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

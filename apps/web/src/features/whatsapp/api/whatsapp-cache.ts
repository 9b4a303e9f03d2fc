import {
  whatsappPreview,
  whatsappPreviewMedia,
  type WhatsAppConversation,
  type WhatsAppConversationDetail,
  type WhatsAppMessage,
  type WhatsAppStatus,
} from '@contrateia/shared/whatsapp/whatsapp.schemas';
import type { InfiniteData, QueryClient, QueryFunctionContext } from '@tanstack/react-query';

/** A page of the list: conversations newest first, and the cursor to the ones after them. */
export type ConversationsPage = { data: WhatsAppConversation[]; nextCursor: string | null };
/** A page of a conversation: its fields, a page of messages (oldest first), the cursor to older ones. */
export type ConversationPage = { data: WhatsAppConversationDetail; nextCursor: string | null };
/** What the list's and a conversation's infinite queries hold: their pages, first to last read. */
export type ConversationsCache = InfiniteData<ConversationsPage, string | undefined>;
export type ConversationCache = InfiniteData<ConversationPage, string | undefined>;

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
export function liveRead<T>(read: (signal: AbortSignal, cursor: string | undefined) => Promise<T>) {
  return async ({ client, queryKey, signal, pageParam }: QueryFunctionContext): Promise<T> => {
    const changes = () =>
      `${liveEvents.get(client) ?? 0}:${client.getQueryState(queryKey)?.dataUpdateCount ?? 0}`;
    // Ends with the first read that no change crossed; changes come from events and answers, so
    // it reads again only while they keep coming.
    for (;;) {
      const before = changes();
      const data = await read(signal, typeof pageParam === 'string' ? pageParam : undefined);
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

/** Changes the loaded list's pages; `change` gets the list as loaded, whole, newest first. */
function changeList(
  queryClient: QueryClient,
  change: (list: WhatsAppConversation[]) => WhatsAppConversation[],
): void {
  queryClient.setQueryData<ConversationsCache>(whatsappKeys.conversations, (old) => {
    if (!old) return old;
    // Cut back into pages of the sizes they had; what the list gained goes on the first page.
    const list = change(old.pages.flatMap((page) => page.data));
    const sizes = old.pages.map((page) => page.data.length);
    sizes[0] = (sizes[0] ?? 0) + list.length - sizes.reduce((sum, size) => sum + size, 0);
    let at = 0;
    const pages = old.pages.map((page, index) => {
      const data = list.slice(at, at + Math.max(0, sizes[index] ?? 0));
      at += data.length;
      return { ...page, data };
    });
    return { ...old, pages };
  });
}

/** Changes the fields of a loaded conversation (every page carries them); `messages` changes its newest page's. */
function changeDetail(
  queryClient: QueryClient,
  id: string,
  change: (detail: WhatsAppConversationDetail, newest: boolean) => WhatsAppConversationDetail,
): void {
  queryClient.setQueryData<ConversationCache>(whatsappKeys.conversation(id), (old) =>
    old
      ? {
          ...old,
          pages: old.pages.map((page, index) => ({
            ...page,
            data: change(page.data, index === 0),
          })),
        }
      : old,
  );
}

/** Whether the loaded list holds the conversation. */
export function listHolds(queryClient: QueryClient, id: string): boolean {
  const list = queryClient.getQueryData<ConversationsCache>(whatsappKeys.conversations);
  return list?.pages.some((page) => page.data.some((c) => c.id === id)) ?? false;
}

/** Changes the fields of one conversation in the list and in its detail, where either is loaded. */
export function patchConversation(
  queryClient: QueryClient,
  id: string,
  patch: Partial<WhatsAppConversation>,
): void {
  changeList(queryClient, (list) =>
    list.map((conversation) =>
      conversation.id === id ? { ...conversation, ...patch } : conversation,
    ),
  );
  changeDetail(queryClient, id, (detail) => ({ ...detail, ...patch }));
}

/** The conversation as the list shows it: replaced or added, the list kept newest first. */
export function upsertConversation(
  queryClient: QueryClient,
  conversation: WhatsAppConversation,
): void {
  changeList(queryClient, (list) =>
    [...list.filter((c) => c.id !== conversation.id), conversation].sort(newestFirst),
  );
  const { id, ...fields } = conversation;
  changeDetail(queryClient, id, (detail) => ({ ...detail, ...fields }));
}

/** Adds a message to a loaded conversation once (the call's answer and the event both bring it). */
export function appendMessage(
  queryClient: QueryClient,
  conversationId: string,
  message: WhatsAppMessage,
): void {
  const loaded = queryClient.getQueryData<ConversationCache>(
    whatsappKeys.conversation(conversationId),
  );
  const known = loaded?.pages.some((page) => page.data.messages.some((m) => m.id === message.id));
  if (!known) {
    changeDetail(queryClient, conversationId, (detail, newest) =>
      newest ? { ...detail, messages: [...detail.messages, message] } : detail,
    );
  }
  changeList(queryClient, (list) =>
    list
      .map((c) =>
        c.id === conversationId && message.timestamp >= c.updated_at
          ? {
              ...c,
              last_message: {
                text: whatsappPreview(message.text),
                ...(message.media ? { media: whatsappPreviewMedia(message.media) } : {}),
              },
              updated_at: message.timestamp,
            }
          : c,
      )
      .sort(newestFirst),
  );
}

/** An outgoing message moved on (sent, delivered, read, failed): its ticks in a loaded conversation. */
export function patchMessage(
  queryClient: QueryClient,
  conversationId: string,
  messageId: string,
  patch: Pick<WhatsAppMessage, 'status' | 'statusError'>,
): void {
  changeDetail(queryClient, conversationId, (detail) => ({
    ...detail,
    messages: detail.messages.map((m) => {
      if (m.id !== messageId || isBehind(patch.status, m.status)) return m;
      const { statusError: _previous, ...rest } = m;
      return { ...rest, ...patch };
    }),
  }));
}

/** How far a message got: its ticks only move forward (`failed` stands apart). */
const PROGRESS = { pending: 0, sent: 1, delivered: 2, read: 3 } as const;

/**
 * Whether `status` is older news than `shown`: Retry's answer (`pending`) reaching the page after
 * the socket said the message was sent, or a receipt that took longer than a later one. A failure,
 * and Retry after one, always apply.
 */
function isBehind(status: WhatsAppMessage['status'], shown: WhatsAppMessage['status']): boolean {
  if (!status || !shown || status === 'failed' || shown === 'failed') return false;
  return PROGRESS[status] < PROGRESS[shown];
}

/** A message as it is now (edited, deleted for everyone, reacted to), in place of the one shown. */
export function replaceMessage(
  queryClient: QueryClient,
  conversationId: string,
  message: WhatsAppMessage,
): void {
  changeDetail(queryClient, conversationId, (detail) => ({
    ...detail,
    messages: detail.messages.map((m) => (m.id === message.id ? message : m)),
  }));
}

export function removeConversation(queryClient: QueryClient, id: string): void {
  changeList(queryClient, (list) => list.filter((c) => c.id !== id));
  queryClient.removeQueries({ queryKey: whatsappKeys.conversation(id) });
}

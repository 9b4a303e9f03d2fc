import {
  pageResponse,
  whatsappConversationDetailSchema,
  whatsappConversationSchema,
} from '@contrateia/shared/whatsapp/whatsapp.schemas';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  liveRead,
  patchConversation,
  whatsappKeys,
  type ConversationCache,
  type ConversationPage,
  type ConversationsCache,
  type ConversationsPage,
} from '@/features/whatsapp/api/whatsapp-cache';
import { conversationPath } from '@/features/whatsapp/api/whatsapp-request';
import { apiRequest } from '@/lib/api-client';

const conversationsPage = pageResponse(z.array(whatsappConversationSchema));
const conversationPage = pageResponse(whatsappConversationDetailSchema);

/** The query of a page: the cursor the page before it gave, if any. */
const pageQuery = (cursor: string | undefined) =>
  cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';

/**
 * GET /api/whatsapp/conversations: a page of the account's conversations, newest first (the
 * server's 50), and the cursor to the next page.
 */
export async function getConversations(
  cursor?: string,
  signal?: AbortSignal,
): Promise<ConversationsPage> {
  const body = await apiRequest<unknown>(`/whatsapp/conversations${pageQuery(cursor)}`, {
    signal,
  });
  const { data, nextCursor } = conversationsPage.parse(body);
  return { data, nextCursor };
}

/** The account's conversations as far as loaded, newest first; `fetchNextPage` loads more. */
export function useWhatsAppConversations() {
  return useInfiniteQuery({
    queryKey: whatsappKeys.conversations,
    queryFn: liveRead((signal, cursor) => getConversations(cursor, signal)),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: ConversationsPage) => last.nextCursor ?? undefined,
    select: (cache: ConversationsCache) => cache.pages.flatMap((page) => page.data),
  });
}

/**
 * GET /api/whatsapp/conversations/{id}: the conversation and a page of its messages (the newest
 * 50 older than the cursor, oldest first), and the cursor to the older ones.
 */
export async function getConversation(
  id: string,
  cursor?: string,
  signal?: AbortSignal,
): Promise<ConversationPage> {
  const body = await apiRequest<unknown>(`/whatsapp${conversationPath(id)}${pageQuery(cursor)}`, {
    signal,
  });
  const { data, nextCursor } = conversationPage.parse(body);
  return { data, nextCursor };
}

/**
 * The open conversation: its fields and its messages as far as loaded, oldest first;
 * `fetchNextPage` loads older ones. Reading it reads its messages, so the list's unread count
 * clears.
 */
export function useWhatsAppConversation(id: string | null) {
  const queryClient = useQueryClient();
  return useInfiniteQuery({
    queryKey: whatsappKeys.conversation(id ?? ''),
    queryFn: async (context) => {
      const page = await liveRead((signal, cursor) => getConversation(id ?? '', cursor, signal))(
        context,
      );
      if (context.pageParam === undefined)
        patchConversation(queryClient, page.data.id, { unread_count: 0 });
      return page;
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: ConversationPage) => last.nextCursor ?? undefined,
    // The first page is the newest: older pages go before it.
    select: (cache: ConversationCache) => ({
      conversation: cache.pages[0]?.data,
      messages: [...cache.pages].reverse().flatMap((page) => page.data.messages),
    }),
    enabled: id !== null,
  });
}

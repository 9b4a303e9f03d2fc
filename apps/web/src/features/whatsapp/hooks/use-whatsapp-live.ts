import { useQueryClient } from '@tanstack/react-query';
import { useContext, useEffect, useState, useSyncExternalStore } from 'react';
import {
  appendMessage,
  patchConversation,
  patchStatus,
  removeConversation,
  upsertConversation,
  whatsappKeys,
} from '@/features/whatsapp/api/whatsapp-cache';
import {
  connectWhatsAppLive,
  type LiveState,
  type WhatsAppLive,
} from '@/features/whatsapp/whatsapp-live';
import { RealtimeContext } from '@/hooks/use-realtime';

const noLive = { subscribe: () => () => {}, getSnapshot: () => 'connecting' as LiveState };

/**
 * Keeps the WhatsApp page live (spec §4): holds the app's real-time connection open for as long as the page
 * is shown and patches the TanStack Query cache from each event. After a reconnection (the server
 * restarted, the network came back) everything shown is read again, since events may have been
 * missed meanwhile. Returns the connection's state, the last authentication failure and the
 * reason of the last disconnection (`logged-out`, `qr-limit`…), until the next code or link.
 */
export function useWhatsAppLive(): {
  liveState: LiveState;
  authFailure: string | null;
  disconnectReason: string | null;
} {
  const client = useContext(RealtimeContext);
  const queryClient = useQueryClient();
  const [live, setLive] = useState<WhatsAppLive | null>(null);
  const [authFailure, setAuthFailure] = useState<string | null>(null);
  const [disconnectReason, setDisconnectReason] = useState<string | null>(null);

  useEffect(() => {
    const connection = connectWhatsAppLive(client);
    setLive(connection);
    const subscriptions = [
      connection.subscribe('whatsapp:qr', ({ qrCode }) => {
        setAuthFailure(null);
        setDisconnectReason(null);
        patchStatus(queryClient, { qrCode, state: 'qr', isReady: false });
      }),
      connection.subscribe('whatsapp:ready', ({ phone }) => {
        setAuthFailure(null);
        setDisconnectReason(null);
        patchStatus(queryClient, { qrCode: null, state: 'ready', isReady: true, phone });
        void queryClient.invalidateQueries({ queryKey: whatsappKeys.conversations });
      }),
      connection.subscribe('whatsapp:auth_failure', ({ message }) => {
        setAuthFailure(message);
        setDisconnectReason(null);
        patchStatus(queryClient, { qrCode: null, state: 'failed', isReady: false });
      }),
      connection.subscribe('whatsapp:disconnected', ({ reason }) => {
        setAuthFailure(null);
        setDisconnectReason(reason);
        patchStatus(queryClient, { qrCode: null, isReady: false, state: 'disconnected' });
        // The server may be reconnecting on its own: its word on the state.
        void queryClient.invalidateQueries({ queryKey: whatsappKeys.status });
      }),
      connection.subscribe('whatsapp:new_message', ({ conversation, message }) => {
        const known = queryClient
          .getQueryData<{ id: string }[]>(whatsappKeys.conversations)
          ?.some((c) => c.id === conversation.id);
        upsertConversation(queryClient, conversation);
        appendMessage(queryClient, conversation.id, message);
        // A new contact changes the counts.
        if (!known) void queryClient.invalidateQueries({ queryKey: whatsappKeys.status });
      }),
      connection.subscribe('whatsapp:message_sent', ({ conversationId, message }) =>
        appendMessage(queryClient, conversationId, message),
      ),
      connection.subscribe('whatsapp:ai_toggled', ({ conversationId, enabled }) => {
        patchConversation(queryClient, conversationId, { ai_enabled: enabled });
        // The counts of conversations with AI on.
        void queryClient.invalidateQueries({ queryKey: whatsappKeys.status });
      }),
      // Changes made in another tab or device: read again, in this page's language.
      connection.subscribe('whatsapp:conversation_changed', ({ conversationId }) => {
        void queryClient.invalidateQueries({ queryKey: whatsappKeys.conversations });
        void queryClient.invalidateQueries({ queryKey: whatsappKeys.conversation(conversationId) });
        void queryClient.invalidateQueries({ queryKey: whatsappKeys.status });
      }),
      connection.subscribe('whatsapp:conversation_deleted', ({ conversationId }) => {
        removeConversation(queryClient, conversationId);
        void queryClient.invalidateQueries({ queryKey: whatsappKeys.status });
      }),
      connection.subscribe('whatsapp:settings_changed', ({ whitelistMode }) => {
        patchStatus(queryClient, { whitelistMode });
        // Whitelist mode turns conversations pending or active.
        void queryClient.invalidateQueries({ queryKey: whatsappKeys.all });
      }),
    ];
    let joins = 0;
    const stopWatching = connection.onChange(() => {
      if (connection.joins() === joins) return;
      // The first join follows the page's first reads; a later one follows a gap.
      if (joins > 0) void queryClient.invalidateQueries({ queryKey: whatsappKeys.all });
      joins = connection.joins();
    });
    return () => {
      stopWatching();
      subscriptions.forEach((unsubscribe) => unsubscribe());
      connection.close();
      setLive(null);
    };
  }, [client, queryClient]);

  const liveState = useSyncExternalStore(
    live ? live.onChange : noLive.subscribe,
    live ? live.getState : noLive.getSnapshot,
  );
  return { liveState, authFailure, disconnectReason };
}

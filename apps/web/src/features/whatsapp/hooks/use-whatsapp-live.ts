import type {
  ServerEventName,
  ServerEventPayload,
} from '@contrateia/shared/realtime/realtime.events';
import {
  whatsappCloseReasonSchema,
  type WhatsAppCloseReason,
} from '@contrateia/shared/whatsapp/whatsapp.schemas';
import { useQueryClient } from '@tanstack/react-query';
import { useContext, useEffect, useState, useSyncExternalStore } from 'react';
import {
  appendMessage,
  patchMessage,
  replaceMessage,
  listHolds,
  liveKeys,
  noteLiveEvent,
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

/** The reason a `whatsapp:disconnected` event names; a failure the server words itself is `failed`. */
const closeReasonOf = (reason: string): WhatsAppCloseReason =>
  whatsappCloseReasonSchema.safeParse(reason).data ?? 'failed';

const noLive = { subscribe: () => () => {}, getSnapshot: () => 'connecting' as LiveState };

/**
 * Keeps the WhatsApp page live: holds the app's real-time connection open for as long as the page
 * is shown and patches the TanStack Query cache from each event. Each event also counts for the
 * reads under way, which are made again rather than undo it with an older answer (liveRead). After
 * each join of the live room what events change is read again: after a reconnection (the server
 * restarted, the network came back) events may have been missed, and the page's first reads were
 * sent before its first join, so what happened between their answers and the join was never told.
 * Returns the connection's state and the last authentication failure, until the next code or link;
 * the reason of the last disconnection is the status's (`lastCloseReason`), which the events keep
 * up to date.
 */
export function useWhatsAppLive(): {
  liveState: LiveState;
  authFailure: string | null;
  /** The last two conversations found to be one contact: an open `from` is shown as `into`. */
  lastMerge: { from: string; into: string } | null;
} {
  const client = useContext(RealtimeContext);
  const queryClient = useQueryClient();
  const [live, setLive] = useState<WhatsAppLive | null>(null);
  const [authFailure, setAuthFailure] = useState<string | null>(null);
  const [lastMerge, setLastMerge] = useState<{ from: string; into: string } | null>(null);

  useEffect(() => {
    const connection = connectWhatsAppLive(client);
    setLive(connection);
    const on = <E extends ServerEventName>(
      event: E,
      handle: (payload: ServerEventPayload<E>) => void,
    ) =>
      connection.subscribe(event, (payload) => {
        noteLiveEvent(queryClient);
        handle(payload);
      });
    const readAgain = () => {
      noteLiveEvent(queryClient);
      for (const queryKey of liveKeys) void queryClient.invalidateQueries({ queryKey });
    };
    const subscriptions = [
      on('whatsapp:qr', ({ qrCode }) => {
        setAuthFailure(null);
        patchStatus(queryClient, { qrCode, state: 'qr', isReady: false, lastCloseReason: null });
      }),
      on('whatsapp:pairing_code', ({ pairingCode }) => {
        setAuthFailure(null);
        patchStatus(queryClient, {
          pairingCode,
          state: 'qr',
          isReady: false,
          lastCloseReason: null,
        });
      }),
      on('whatsapp:ready', ({ phone }) => {
        setAuthFailure(null);
        patchStatus(queryClient, {
          qrCode: null,
          pairingCode: null,
          state: 'ready',
          isReady: true,
          phone,
          lastCloseReason: null,
        });
        void queryClient.invalidateQueries({ queryKey: whatsappKeys.conversations });
      }),
      on('whatsapp:auth_failure', ({ message }) => {
        setAuthFailure(message);
        patchStatus(queryClient, {
          qrCode: null,
          pairingCode: null,
          state: 'failed',
          isReady: false,
          lastCloseReason: message === 'banned' ? 'banned' : 'failed',
        });
      }),
      on('whatsapp:disconnected', ({ reason }) => {
        setAuthFailure(null);
        patchStatus(queryClient, {
          qrCode: null,
          pairingCode: null,
          isReady: false,
          state: 'disconnected',
          lastCloseReason: closeReasonOf(reason),
        });
        // The server may be reconnecting on its own: its word on the state.
        void queryClient.invalidateQueries({ queryKey: whatsappKeys.status });
      }),
      on('whatsapp:new_message', ({ conversation, message }) => {
        const known = listHolds(queryClient, conversation.id);
        upsertConversation(queryClient, conversation);
        appendMessage(queryClient, conversation.id, message);
        // A new contact changes the counts.
        if (!known) void queryClient.invalidateQueries({ queryKey: whatsappKeys.status });
      }),
      on('whatsapp:message_sent', ({ conversationId, message }) =>
        appendMessage(queryClient, conversationId, message),
      ),
      on('whatsapp:message_status', ({ conversationId, messageId, status, error }) =>
        patchMessage(queryClient, conversationId, messageId, {
          status,
          ...(error ? { statusError: error } : {}),
        }),
      ),
      // Edited, deleted for everyone or reacted to: the message as it is now, in place.
      on('whatsapp:message_updated', ({ conversationId, message }) => {
        replaceMessage(queryClient, conversationId, message);
        // A deleted last message changes the list's preview.
        if (message.deleted)
          void queryClient.invalidateQueries({ queryKey: whatsappKeys.conversations });
      }),
      on('whatsapp:ai_toggled', ({ conversationId, enabled }) => {
        patchConversation(queryClient, conversationId, { ai_enabled: enabled });
        // The counts of conversations with AI on.
        void queryClient.invalidateQueries({ queryKey: whatsappKeys.status });
      }),
      // Changes made in another tab or device: read again, in this page's language.
      on('whatsapp:conversation_changed', ({ conversationId }) => {
        void queryClient.invalidateQueries({ queryKey: whatsappKeys.conversations });
        void queryClient.invalidateQueries({ queryKey: whatsappKeys.conversation(conversationId) });
        void queryClient.invalidateQueries({ queryKey: whatsappKeys.status });
      }),
      on('whatsapp:conversation_deleted', ({ conversationId }) => {
        removeConversation(queryClient, conversationId);
        void queryClient.invalidateQueries({ queryKey: whatsappKeys.status });
      }),
      // One contact's two conversations became one: `from` is gone, `into` has its messages.
      on('whatsapp:conversation_merged', ({ from, into }) => {
        removeConversation(queryClient, from);
        setLastMerge({ from, into });
        void queryClient.invalidateQueries({ queryKey: whatsappKeys.conversations });
        void queryClient.invalidateQueries({ queryKey: whatsappKeys.conversation(into) });
        void queryClient.invalidateQueries({ queryKey: whatsappKeys.status });
      }),
      on('whatsapp:settings_changed', ({ whitelistMode }) => {
        patchStatus(queryClient, { whitelistMode });
        // The default agent is in the status; whitelist mode turns conversations pending or
        // active. Nothing else changes with the settings.
        void queryClient.invalidateQueries({ queryKey: whatsappKeys.status });
        void queryClient.invalidateQueries({ queryKey: whatsappKeys.conversations });
      }),
    ];
    // Joined already (another page held the connection): the page's reads follow the join.
    let joins = connection.joins();
    const stopWatching = connection.onChange(() => {
      if (connection.joins() === joins) return;
      joins = connection.joins();
      readAgain();
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
  return { liveState, authFailure, lastMerge };
}

import type {
  ServerEventName,
  ServerEventPayload,
} from '@contrateia/shared/realtime/realtime.events';
import { publicSettingsSchema } from '@contrateia/shared/settings/settings.schemas';
import {
  whatsappConversationSchema,
  whatsappDeliveryStatusSchema,
  whatsappMessageSchema,
} from '@contrateia/shared/whatsapp/whatsapp.schemas';
import { z } from 'zod';
import type { RealtimeClient, RealtimeStatus } from '@/lib/realtime';

/**
 * The WhatsApp page's view of the app's one real-time connection (lib/realtime.ts): it subscribes
 * to the server's events, checking each payload, and says how the connection is. The shared client
 * authenticates, joins the WhatsApp room on every connection and ends the session on a 401, as for
 * every other page.
 */

/** `connecting` until the first connection; `live` while connected (the room is joined on each
 * connection); `reconnecting` after a drop (the client retries on its own, e.g. while the server
 * restarts); `offline` when the server keeps refusing the connection. */
export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'offline';

export interface WhatsAppLive {
  /** Calls `listener` with each valid payload of `event`; returns the unsubscribe. */
  subscribe<E extends ServerEventName>(
    event: E,
    listener: (payload: ServerEventPayload<E>) => void,
  ): () => void;
  getState(): LiveState;
  /** Called on every state change (after a reconnection events may have been missed). */
  onChange(listener: () => void): () => void;
  /** How many times the connection was made: a rise after the first means "refetch what you show". */
  joins(): number;
  close(): void;
}

const STATES: Record<RealtimeStatus, LiveState> = {
  idle: 'connecting',
  connecting: 'connecting',
  connected: 'live',
  reconnecting: 'reconnecting',
  offline: 'offline',
};

// The payloads are checked before anyone sees them: an event the page cannot read is dropped.
const payloadSchemas: { [E in ServerEventName]: z.ZodType<ServerEventPayload<E>> } = {
  'whatsapp:qr': z.object({ qrCode: z.string() }),
  'whatsapp:pairing_code': z.object({ pairingCode: z.string() }),
  'whatsapp:ready': z.object({ phone: z.string() }),
  'whatsapp:auth_failure': z.object({ message: z.string() }),
  'whatsapp:disconnected': z.object({ reason: z.string() }),
  'whatsapp:new_message': z.object({
    conversation: whatsappConversationSchema,
    message: whatsappMessageSchema,
  }),
  'whatsapp:message_sent': z.object({ conversationId: z.string(), message: whatsappMessageSchema }),
  'whatsapp:message_status': z.object({
    conversationId: z.string(),
    messageId: z.string(),
    status: whatsappDeliveryStatusSchema,
    error: z.string().optional(),
  }),
  'whatsapp:message_updated': z.object({
    conversationId: z.string(),
    message: whatsappMessageSchema,
  }),
  'whatsapp:ai_toggled': z.object({ conversationId: z.string(), enabled: z.boolean() }),
  'whatsapp:conversation_changed': z.object({ conversationId: z.string() }),
  'whatsapp:needs_human': z.object({ conversationId: z.string() }),
  'whatsapp:conversation_deleted': z.object({ conversationId: z.string() }),
  'whatsapp:conversation_merged': z.object({ from: z.string(), into: z.string() }),
  'whatsapp:settings_changed': z.object({ whitelistMode: z.boolean() }),
  // Not the WhatsApp page's (the signed-in shell and the chat follow them), but checked like any other.
  'chat:message': z.object({ conversationId: z.string() }),
  'settings:changed': publicSettingsSchema,
};

/** Holds the shared connection open (and so in the WhatsApp room) until `close`. */
export function connectWhatsAppLive(client: RealtimeClient): WhatsAppLive {
  const release = client.retain();
  let state = STATES[client.getStatus()];
  let joinCount = state === 'live' ? 1 : 0;
  const listeners = new Set<() => void>();
  const stopWatching = client.onStatus(() => {
    const next = STATES[client.getStatus()];
    if (next === state) return;
    state = next;
    if (next === 'live') joinCount += 1;
    listeners.forEach((listener) => listener());
  });
  const subscriptions = new Set<() => void>();

  return {
    subscribe(event, listener) {
      const schema = payloadSchemas[event];
      const unsubscribe = client.subscribe(event, (payload: unknown) => {
        const parsed = schema.safeParse(payload);
        if (parsed.success) listener(parsed.data);
      });
      subscriptions.add(unsubscribe);
      return () => {
        subscriptions.delete(unsubscribe);
        unsubscribe();
      };
    },
    getState: () => state,
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    joins: () => joinCount,
    close() {
      listeners.clear();
      stopWatching();
      subscriptions.forEach((unsubscribe) => unsubscribe());
      subscriptions.clear();
      release();
    },
  };
}

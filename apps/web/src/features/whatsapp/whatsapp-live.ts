import type {
  ClientToServerEvents,
  ServerEventName,
  ServerEventPayload,
  ServerToClientEvents,
} from '@contrateia/shared/realtime/realtime.events';
import {
  whatsappConversationSchema,
  whatsappMessageSchema,
} from '@contrateia/shared/whatsapp/whatsapp.schemas';
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { z } from 'zod';
import { getToken } from '@/lib/session';

/**
 * The WhatsApp page's one door to the real-time server (Socket.IO, spec §7): it subscribes to
 * the server's events and says how the connection is. Everything else in the feature goes
 * through `subscribe`/`getState`, so pointing this at the app's shared socket client later
 * changes only this file.
 */

/** `connecting` until the first join; `live` while joined; `reconnecting` after a drop (the
 * client retries on its own, e.g. while the server restarts); `offline` when it gave up. */
export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'offline';

export interface LiveOptions {
  /** Where the Socket.IO server is; the page's own origin when absent. */
  url?: string;
  /** Passed to socket.io-client (tests ask for the WebSocket transport and quick retries). */
  socketOptions?: Partial<ManagerOptions & SocketOptions>;
}

export interface WhatsAppLive {
  /** Calls `listener` with each valid payload of `event`; returns the unsubscribe. */
  subscribe<E extends ServerEventName>(
    event: E,
    listener: (payload: ServerEventPayload<E>) => void,
  ): () => void;
  getState(): LiveState;
  /** Called on every state change, and after every join (events may have been missed before). */
  onChange(listener: () => void): () => void;
  /** How many times the room was joined: a rise after the first means "refetch what you show". */
  joins(): number;
  close(): void;
}

// The payloads are checked before anyone sees them: an event the page cannot read is dropped.
const payloadSchemas: { [E in ServerEventName]: z.ZodType<ServerEventPayload<E>> } = {
  'whatsapp:qr': z.object({ qrCode: z.string() }),
  'whatsapp:ready': z.object({ phone: z.string() }),
  'whatsapp:auth_failure': z.object({ message: z.string() }),
  'whatsapp:disconnected': z.object({ reason: z.string() }),
  'whatsapp:new_message': z.object({
    conversation: whatsappConversationSchema,
    message: whatsappMessageSchema,
  }),
  'whatsapp:message_sent': z.object({ conversationId: z.string(), message: whatsappMessageSchema }),
  'whatsapp:ai_toggled': z.object({ conversationId: z.string(), enabled: z.boolean() }),
};

/** Opens the connection (authenticated with the stored token) and joins the WhatsApp room. */
export function connectWhatsAppLive({ url, socketOptions }: LiveOptions = {}): WhatsAppLive {
  const options: Partial<ManagerOptions & SocketOptions> = {
    // A function, so each reconnection reads the token stored then.
    auth: (send) => send({ token: getToken() ?? '' }),
    ...socketOptions,
  };
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> =
    url === undefined ? io(options) : io(url, options);
  let state: LiveState = 'connecting';
  let joinCount = 0;
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());
  const setState = (next: LiveState) => {
    if (next === state) return;
    state = next;
    notify();
  };
  // Dropped by the server or refused at connect: the client retries unless it was told not to
  // (`active` false: a refused handshake, e.g. a token no longer valid).
  const dropped = () => setState(socket.active ? 'reconnecting' : 'offline');

  socket.on('connect', () => {
    socket.emit('join-whatsapp', (result) => {
      if (!result.ok) return setState('offline');
      joinCount += 1;
      state = 'live';
      notify();
    });
  });
  socket.on('disconnect', dropped);
  socket.on('connect_error', dropped);

  return {
    subscribe(event, listener) {
      const schema = payloadSchemas[event];
      const handler = (payload: unknown) => {
        const parsed = schema.safeParse(payload);
        if (parsed.success) listener(parsed.data);
      };
      // socket.io's typed `on` cannot follow a generic event name; the handler is checked above.
      const untyped = socket as unknown as Socket;
      const name: string = event;
      untyped.on(name, handler);
      return () => void untyped.off(name, handler);
    },
    getState: () => state,
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    joins: () => joinCount,
    close() {
      listeners.clear();
      if (socket.connected) socket.emit('leave-whatsapp');
      socket.close();
    },
  };
}

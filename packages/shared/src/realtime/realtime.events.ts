import type { PublicSettings } from '../settings/settings.schemas';
import type {
  WhatsAppConversation,
  WhatsAppDeliveryStatus,
  WhatsAppMessage,
} from '../whatsapp/whatsapp.schemas';

/**
 * The Socket.IO events, typed once for the server (`new Server<ClientToServerEvents,
 * ServerToClientEvents>`) and the web (`io()` as `Socket<ServerToClientEvents,
 * ClientToServerEvents>`). The client authenticates in the handshake (`auth: {token}`); every
 * server event reaches only the sockets of the account it is about, but `settings:changed`, which
 * every open socket gets.
 */
export interface ServerToClientEvents {
  'whatsapp:qr': (payload: { qrCode: string }) => void;
  /** The code to type on the phone while linking by number; it replaces the last one. */
  'whatsapp:pairing_code': (payload: { pairingCode: string }) => void;
  'whatsapp:ready': (payload: { phone: string }) => void;
  'whatsapp:auth_failure': (payload: { message: string }) => void;
  'whatsapp:disconnected': (payload: { reason: string }) => void;
  /** A message in or out of a conversation, with the conversation as the list shows it. */
  'whatsapp:new_message': (payload: {
    conversation: WhatsAppConversation;
    message: WhatsAppMessage;
  }) => void;
  'whatsapp:message_sent': (payload: { conversationId: string; message: WhatsAppMessage }) => void;
  /** An outgoing message moved on: sent, delivered, read, or failed (`error`, in the page's language). */
  'whatsapp:message_status': (payload: {
    conversationId: string;
    messageId: string;
    status: WhatsAppDeliveryStatus;
    error?: string;
  }) => void;
  /** A message changed in place: its author edited it or deleted it for everyone, or someone reacted to it. */
  'whatsapp:message_updated': (payload: {
    conversationId: string;
    message: WhatsAppMessage;
  }) => void;
  'whatsapp:ai_toggled': (payload: { conversationId: string; enabled: boolean }) => void;
  /**
   * Beyond the seven above, so that every open page follows a change made in another: a
   * conversation's whitelist or agent changed (read it again, in the page's own language)…
   */
  'whatsapp:conversation_changed': (payload: { conversationId: string }) => void;
  /** …a contact asked for a person: the agent handed the conversation over to the owner… */
  'whatsapp:needs_human': (payload: { conversationId: string }) => void;
  /**
   * …two conversations turned out to be one contact (WhatsApp told that its LID and its phone
   * number are the same person): `from`'s messages are in `into` now and `from` is gone…
   */
  'whatsapp:conversation_merged': (payload: { from: string; into: string }) => void;
  /** …a conversation was deleted… */
  'whatsapp:conversation_deleted': (payload: { conversationId: string }) => void;
  /** …or the account's settings (whitelist mode, default agent) changed, and with them statuses and counts. */
  'whatsapp:settings_changed': (payload: { whitelistMode: boolean }) => void;
  /**
   * A web conversation got turns from elsewhere: its Sync Agent chat on WhatsApp was answered
   * (read it again, as `GET /api/chat/conversations/{id}` answers).
   */
  'chat:message': (payload: { conversationId: string }) => void;
  /**
   * The admin changed what every page shows (`GET /api/settings/public`, as it now answers): sent
   * to every open socket, admins' too. When maintenance starts, a non-admin's socket gets it just
   * before it is dropped, so the page shows maintenance at once.
   */
  'settings:changed': (payload: PublicSettings) => void;
}

export interface ClientToServerEvents {
  /** Joins the caller's own WhatsApp room; the acknowledgement says whether it was joined. */
  'join-whatsapp': (ack?: (result: { ok: boolean }) => void) => void;
  'leave-whatsapp': (ack?: (result: { ok: boolean }) => void) => void;
}

export type ServerEventName = keyof ServerToClientEvents;
export type ServerEventPayload<E extends ServerEventName> = Parameters<ServerToClientEvents[E]>[0];

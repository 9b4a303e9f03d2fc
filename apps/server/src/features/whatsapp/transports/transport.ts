import type { WhatsAppMediaKind } from '@contrateia/shared';

/**
 * How the WhatsApp feature talks to WhatsApp, whatever carries it: Baileys (the real protocol)
 * or the sandbox (WhatsApp simulated in this process). A leaf module: types only. Chosen by
 * WHATSAPP_TRANSPORT and wired in one place (whatsapp.module.ts); the service never knows which
 * it has.
 *
 * One connection per account. The transport reports what happens on each through the `onEvent`
 * sink it was made with, in order per account; the service turns those into stored state, socket
 * events and replies.
 */

/** Why a connection ended for good (it does not reconnect by itself after any of these). */
export type CloseReason =
  /** The phone unlinked the device (Baileys 401): the stored auth state is gone. */
  | { kind: 'logged-out' }
  /** WhatsApp banned the number (403). */
  | { kind: 'banned' }
  /** Another session replaced this one, again and again (440): stopped rather than fight it. */
  | { kind: 'replaced' }
  /** The QR code was refreshed its last time without a scan; connect again for new ones. */
  | { kind: 'qr-limit' }
  /** The account disconnected (logout), or the server is shutting down. */
  | { kind: 'requested' }
  /** Anything else that ends it: unreachable for too long, a watchdog that fired… */
  | { kind: 'failed'; message: string };

/**
 * What a message carries besides text, as the sender's phone described it (nothing here is
 * trusted: the service reads the file's real type from its bytes).
 */
export type InboundMedia = {
  kind: WhatsAppMediaKind;
  /** An audio recorded in the chat (a voice note). */
  voice?: boolean;
  /** The media type the sender's phone gave. */
  mimetype?: string;
  fileName?: string;
  /** The file's size in bytes, as the sender declared it. */
  declaredSize?: number;
  seconds?: number;
  latitude?: number;
  longitude?: number;
  place?: string;
  contactName?: string;
  contactNumber?: string;
  /** A video's still, as the sender's phone attached it (WhatsApp's thumbnail): unchecked bytes. */
  poster?: Buffer;
  /**
   * Fetches the file's bytes (absent for a location or a contact card), `maxBytes` at most: past
   * them it stops and throws MediaTooLarge (whatsapp.media.ts); a download that fails or comes
   * damaged throws anything else, and so does one `signal` ends (it took too long).
   */
  download?: (limits: { maxBytes: number; signal: AbortSignal }) => Promise<Buffer>;
};

/** What describes a message's media, without its bytes: what is kept with the message. */
export type MediaDescription = Omit<
  InboundMedia,
  'voice' | 'declaredSize' | 'download' | 'poster'
> & {
  voice?: true;
  size?: number;
};

/**
 * The description of `media`, only with what it says (no empty name, no `voice: false`), its
 * declared size as `size`: one place for what a sandbox message and a stored one keep.
 */
export function describeMedia(media: Omit<InboundMedia, 'download' | 'poster'>): MediaDescription {
  return {
    kind: media.kind,
    ...(media.voice ? { voice: true as const } : {}),
    ...(media.mimetype ? { mimetype: media.mimetype } : {}),
    ...(media.declaredSize !== undefined ? { size: media.declaredSize } : {}),
    ...(media.fileName ? { fileName: media.fileName } : {}),
    ...(media.seconds !== undefined ? { seconds: media.seconds } : {}),
    ...(media.latitude !== undefined ? { latitude: media.latitude } : {}),
    ...(media.longitude !== undefined ? { longitude: media.longitude } : {}),
    ...(media.place ? { place: media.place } : {}),
    ...(media.contactName ? { contactName: media.contactName } : {}),
    ...(media.contactNumber ? { contactNumber: media.contactNumber } : {}),
  };
}

/**
 * A file the account sends: a photo (shown in the chat) or a document (downloaded), its real type
 * read from its bytes, with its caption and, for a document, the name the contact sees.
 */
export type OutgoingMedia = {
  kind: 'image' | 'document';
  /** Where its bytes are: a stored file of the account. */
  path: string;
  mimetype: string;
  /** Its size in bytes. */
  size: number;
  fileName?: string;
  caption?: string;
};

/** A message as it reached the linked number, before the service decides what it is. */
export type InboundMessage = {
  /** WhatsApp's id of the message: the same id again is the same message. */
  id: string;
  /** The chat it belongs to, exactly as received (`…@s.whatsapp.net`, `…@lid`, `…@g.us`…). */
  remoteJid: string;
  /** The same contact's other address (Baileys 7's `remoteJidAlt`): its phone JID for a `@lid`, or the reverse. */
  remoteJidAlt?: string;
  /** In a group, who wrote it. */
  participant?: string;
  /** Written by the account's owner from the phone itself (or another of their devices). */
  fromMe: boolean;
  /** The name the contact gave WhatsApp. */
  pushName?: string;
  /** The text of a text message, or a file's caption; undefined for reactions and protocol messages. */
  text?: string;
  /** A photo, voice note, video, document, sticker, location or contact card it carries. */
  media?: InboundMedia;
  /** A protocol message (revoke, ephemeral setting, history sync…): never stored or answered. */
  protocol?: boolean;
  timestamp: Date;
};

/** A message an edit, a deletion for everyone or a reaction is about: its chat and WhatsApp id. */
export type MessageRef = {
  /** The chat, exactly as received (`…@s.whatsapp.net`, `…@lid`…). */
  remoteJid: string;
  /** The same contact's other address, when told. */
  remoteJidAlt?: string;
  /** WhatsApp's id of the message referred to. */
  id: string;
  /** Whether that message is the account's (sent from here or the phone), not the contact's. */
  fromMe: boolean;
};

export type TransportEvent =
  | { type: 'connecting' }
  /** A QR code to show; `qr` is its text (the service draws it). Each new one replaces the last. */
  | { type: 'qr'; qr: string }
  /**
   * The code to type on the phone to link it by number (asked with requestPairingCode): valid
   * until linked, or until this connection attempt ends; a new one replaces it.
   */
  | { type: 'pairing-code'; code: string }
  /** Linked and open on the number with these digits. */
  | { type: 'ready'; phone: string }
  /** Lost, and trying again after `delayMs`. */
  | { type: 'reconnecting'; attempt: number; delayMs: number }
  | { type: 'closed'; reason: CloseReason }
  | { type: 'message'; message: InboundMessage }
  /**
   * Messages that waited for the number while it was not connected (the server down, restarting
   * or reconnecting), delivered on connect, in the order they were sent; the ones a transport
   * received together come in one event, so that a contact's are answered once, together. A
   * hand-over too long for one event comes in several: each but the last says `more` follows,
   * each but the first that it `continued` one, and the replies wait for the last (a contact's
   * messages split over two events are still answered once, together).
   */
  | { type: 'offline-messages'; messages: InboundMessage[]; more?: true; continued?: true }
  /**
   * What WhatsApp said of messages the account sent (their ids): the contact's phone received
   * them (`delivered`), the contact read them (`read`), or WhatsApp refused them (`failed`, with
   * its error code as `reason`).
   */
  | { type: 'receipt'; ids: string[]; status: 'delivered' | 'read' | 'failed'; reason?: string }
  /** Its author edited a message: `text` is its new text. Never answered. */
  | { type: 'message-edited'; message: MessageRef; text: string; timestamp: Date }
  /** Its author deleted a message for everyone. Never answered. */
  | { type: 'message-revoked'; message: MessageRef; timestamp: Date }
  /**
   * A party of the chat reacted to a message with `emoji` (the contact, or the owner from their
   * phone when `byMe`); an empty `emoji` takes their reaction away. Never answered.
   */
  | { type: 'reaction'; message: MessageRef; emoji: string; byMe: boolean }
  /**
   * WhatsApp told that a contact's LID (`<digits>@lid`) is the phone number `pn`
   * (`<digits>@s.whatsapp.net`): Baileys' `lid-mapping.update`.
   */
  | { type: 'lid-mapping'; lid: string; pn: string };

/**
 * Where a transport reports. It may return a promise that settles once the event is handled (an
 * inbound message stored): a transport that can wait (the sandbox, answering its control API)
 * waits for it; one that cannot (Baileys' socket) may ignore it, the order per account is kept
 * by the sink.
 */
export type TransportEventSink = (accountId: string, event: TransportEvent) => void | Promise<void>;

export interface WhatsAppTransport {
  readonly name: 'baileys' | 'sandbox';
  /**
   * Starts the account's connection: resumes with its stored auth state, or asks for a QR.
   * Idempotent while connecting or open. Resolves once started, not once ready.
   */
  connect(accountId: string): Promise<void>;
  /**
   * Links by number instead of the QR: starts the connection like `connect` when it is not under
   * way, and asks for the code to type on the phone `phone` (digits, country code first), which
   * comes as a `pairing-code` event. Resolves once asked, not once the code has come.
   */
  requestPairingCode(accountId: string, phone: string): Promise<void>;
  /**
   * Sends text to `jid` exactly as it was received, as WhatsApp's message `id`: the same id sent
   * again is the same message, never a second one. Resolves with the id. Throws when not open,
   * or when WhatsApp refused it (`error <code>` in the message). `read`: received messages of
   * `jid` that it answers, marked read once it is sent (as `markRead`, in the same call: a
   * person reads, then answers; a failure to mark them is not the send's).
   */
  sendText(
    accountId: string,
    jid: string,
    text: string,
    options: { id: string; read?: string[] },
  ): Promise<{ id: string }>;
  /**
   * Sends a file to `jid` as WhatsApp's message `id`, like `sendText`: the same id sent again is
   * the same message. The file is read from `media.path` (under DATA_DIR/media, which every
   * instance shares: the instance that holds the connection may be another one).
   */
  sendMedia(
    accountId: string,
    jid: string,
    media: OutgoingMedia,
    options: { id: string },
  ): Promise<{ id: string }>;
  sendPresence(accountId: string, jid: string, state: 'composing' | 'paused'): Promise<void>;
  /** Marks these received messages of `jid` as read. */
  markRead(accountId: string, jid: string, ids: string[]): Promise<void>;
  /** Unlinks the device and deletes the account's stored auth state; ends with `closed: requested`. */
  logout(accountId: string): Promise<void>;
  /**
   * The account was deleted, its stored link with it: a connection of it still open, here or on
   * another instance, unlinks the device from the phone and ends. An account with none is left
   * alone (nothing is loaded or written for it).
   */
  forget(accountId: string): Promise<void>;
  /** The accounts to resume at start: stored auth state, and not stopped for good (banned, replaced, failed). */
  linkedAccounts(): Promise<string[]>;
  /** Closes every connection, keeping auth state (shutdown). */
  close(): Promise<void>;
}

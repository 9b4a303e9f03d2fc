import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type {
  SandboxMedia,
  SandboxPhoneEvent,
  WhatsAppReaction,
  WhatsAppCloseReason,
  WhatsAppDeliveryStatus,
  WhatsAppMedia,
  WhatsAppState,
} from '@contrateia/shared';
import { agents } from '@/features/agents/agents.table';
import { users } from '@/features/auth/auth.table';
import { conversations } from '@/features/chat/chat.table';

/**
 * One row per account that has used WhatsApp: its settings and its connection as last reported by
 * the transport (kept here, not in a process, so every instance answers GET /status alike).
 */
export const whatsappAccounts = pgTable('whatsapp_accounts', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  whitelistMode: boolean('whitelist_mode').notNull().default(false),
  /** null: the account's guia answers conversations with no agent of their own. */
  defaultAgentId: uuid('default_agent_id').references(() => agents.id, { onDelete: 'set null' }),
  state: text('state').$type<WhatsAppState>().notNull().default('disconnected'),
  /** The QR code waiting to be scanned, as a PNG data URL. */
  qrCode: text('qr_code'),
  /** The pairing code to type on the phone (linking by number instead of the QR), while it is valid. */
  pairingCode: text('pairing_code'),
  /** The linked number's digits. */
  phone: text('phone'),
  /** Why the connection last ended, until the next QR code or link (the page says it after a reload). */
  lastCloseReason: text('last_close_reason').$type<WhatsAppCloseReason>(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** One per contact of an account: the JID it wrote from first (replies go there) and its other one. */
export const whatsappConversations = pgTable(
  'whatsapp_conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    contactJid: text('contact_jid').notNull(),
    /** The same contact's other address (`@lid` ↔ phone JID), once WhatsApp told it. */
    contactAltJid: text('contact_alt_jid'),
    contactName: text('contact_name').notNull(),
    contactNumber: text('contact_number').notNull(),
    aiEnabled: boolean('ai_enabled').notNull().default(true),
    isWhitelisted: boolean('is_whitelisted').notNull().default(false),
    unreadCount: integer('unread_count').notNull().default(0),
    agentId: uuid('agent_id').references(() => agents.id, { onDelete: 'set null' }),
    /** Blocked by the owner (status `blocked`: stored and shown, never answered) until unblocked. */
    blockedByOwner: boolean('blocked_by_owner').notNull().default(false),
    /**
     * Until when the contact is blocked (status `blocked`: not answered) for writing too fast; the
     * owner's unblock sets it to that moment, so that what came before is never answered.
     */
    blockedUntil: timestamp('blocked_until', { withTimezone: true }),
    /**
     * Until when the agent is paused in this conversation because the owner wrote to the contact
     * (from the web or the phone: a person took over, WHATSAPP_TAKEOVER_MINUTES); null when it is
     * not paused. What the contact writes meanwhile is stored and shown, never answered.
     */
    pausedUntil: timestamp('paused_until', { withTimezone: true }),
    /**
     * The contact asked for a person and the agent handed over ("precisa de você"): its handoff
     * message went once, and it stays set until the owner writes to the contact.
     */
    needsHuman: boolean('needs_human').notNull().default(false),
    /** The contact's messages counted but not stored: while blocked, beyond a day's allowance. */
    droppedCount: integer('dropped_count').notNull().default(0),
    /**
     * On the platform's number only: the web conversation (auxtrat's) this chat continues, once
     * the contact sent its Sync Agent code. Its own agent answers it with that conversation's
     * history, and the number's owner does not see it among their conversations. It goes with
     * that conversation (deleted, or its user's account): the owner never gets it as theirs.
     */
    pairedConversationId: uuid('paired_conversation_id').references(() => conversations.id, {
      onDelete: 'cascade',
    }),
    /**
     * On the platform's number only: a chat with someone indirect relayed a message to. What they
     * write goes to the senders' indirect chats (STOP opts them out), never to an agent, and the
     * number's owner does not see it among their conversations: its texts are the senders'.
     */
    relay: boolean('relay').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('whatsapp_conversations_contact_idx').on(t.userId, t.contactJid),
    index('whatsapp_conversations_alt_idx').on(t.userId, t.contactAltJid),
    index('whatsapp_conversations_updated_idx').on(t.userId, t.updatedAt),
  ],
);

export const whatsappMessages = pgTable(
  'whatsapp_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Insertion order: a conversation reads back in the order it was written. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => whatsappConversations.id, { onDelete: 'cascade' }),
    /** WhatsApp's id: the same id again in a conversation is the same message. Null for a failed reply. */
    waId: text('wa_id'),
    sender: text('sender', { enum: ['contact', 'user'] }).notNull(),
    text: text('text').notNull(),
    /** The agent that wrote this reply. */
    agentName: text('agent_name'),
    /** A reply that could not be made or sent: the message key saying why (`text` is empty). */
    error: text('error'),
    /**
     * A contact's message that reached the number on connect, from longer ago than the catch-up
     * window (WHATSAPP_CATCHUP_MINUTES): stored and shown, and deliberately not answered.
     */
    unanswered: boolean('unanswered').notNull().default(false),
    /**
     * A contact's message that came while the agent was paused (the owner took over): never
     * answered, not even with the next message after the pause.
     */
    held: boolean('held').notNull().default(false),
    /**
     * Where an outgoing message stands: stored (`pending`) and sent by its job, then as WhatsApp's
     * receipts tell, or `failed` after its last try. Null for the contact's messages and for the
     * owner's messages stored before the outbox (they were sent).
     */
    status: text('status').$type<WhatsAppDeliveryStatus>(),
    /** Why the last try to send it failed (`463`, `not-open`, `unknown`…), kept while it is `failed`. */
    sendError: text('send_error'),
    /** When its author last edited it in WhatsApp (`text` is the edited text); null if never. */
    editedAt: timestamp('edited_at', { withTimezone: true }),
    /** When its author deleted it for everyone: `text` is emptied then, and it shows as deleted. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** The emoji reactions on it, one per party of the chat (the contact, the account's owner). */
    reactions: jsonb('reactions').$type<WhatsAppReaction[]>().notNull().default([]),
    /**
     * What it carries besides text (a photo, voice note, document, location…): its description,
     * with why its file is not kept when it is not (its caption is `text`).
     */
    media: jsonb('media').$type<Omit<WhatsAppMedia, 'url' | 'caption'>>(),
    /** The name of its stored file under DATA_DIR/media/<account>, while it is kept. */
    mediaFile: text('media_file'),
    /**
     * A file the account sent, as WhatsApp carries it (the `proto.Message` Baileys sent, base64):
     * what a contact's device that could not decrypt it is sent again (a retry receipt), the
     * uploaded file's address and key with it. Let go of with the file.
     */
    sentContent: text('sent_content'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('whatsapp_messages_conversation_idx').on(t.conversationId, t.seq),
    // The files kept, by age: the retention finds those past WHATSAPP_MEDIA_RETENTION_DAYS.
    index('whatsapp_messages_media_file_idx')
      .on(t.createdAt)
      .where(sql`${t.mediaFile} is not null`),
    // The outgoing messages alone, and those still to send: a reply finds the last answer and an
    // earlier message still waiting without reading the whole conversation, however long it is.
    index('whatsapp_messages_outgoing_idx')
      .on(t.conversationId, t.seq)
      .where(sql`${t.sender} = 'user'`),
    index('whatsapp_messages_pending_idx')
      .on(t.conversationId, t.seq)
      .where(sql`${t.status} = 'pending'`),
    // NULLs are distinct: failed replies (no id) never clash.
    uniqueIndex('whatsapp_messages_wa_id_idx').on(t.conversationId, t.waId),
  ],
);

/**
 * What WhatsApp told an account of a contact's two addresses: its LID (`<digits>@lid`, how
 * WhatsApp names many contacts now) is the phone number `pn` (`<digits>@s.whatsapp.net`). Fed by
 * Baileys' `lid-mapping.update`, by the other address a message carries, and by the sandbox; read
 * so that a contact is one conversation whichever address a message comes from.
 */
export const whatsappLidMappings = pgTable(
  'whatsapp_lid_mappings',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lid: text('lid').notNull(),
    pn: text('pn').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('whatsapp_lid_mappings_lid_idx').on(t.userId, t.lid),
    index('whatsapp_lid_mappings_pn_idx').on(t.userId, t.pn),
  ],
);

// ---- The sandbox transport's own state (WHATSAPP_TRANSPORT=sandbox): in the database, so that
// every instance sees the same links, pairing codes and phones, and a restart keeps them. ----

/** An account's device linked to a sandbox phone: the sandbox's "auth state". */
export const whatsappSandboxLinks = pgTable('whatsapp_sandbox_links', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  phone: text('phone').notNull().unique(),
  linkedAt: timestamp('linked_at', { withTimezone: true }).notNull(),
  /** False while the phone's link is down: contacts' messages for it wait in whatsapp_sandbox_offline. */
  online: boolean('online').notNull().default(true),
  /** How many of the number's next sends fail (the control API's `fail-sends`), and with what code. */
  failSends: integer('fail_sends').notNull().default(0),
  failCode: text('fail_code'),
});

/**
 * Contacts' messages that reached a sandbox number while its link was down, in order: delivered
 * as offline messages when it comes back or the server starts again, then deleted.
 */
export const whatsappSandboxOffline = pgTable(
  'whatsapp_sandbox_offline',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * The message as the transport reports it (its timestamp: when the contact sent it), or a
     * contact's change to one of its chat's messages.
     */
    message: jsonb('message').$type<SandboxQueued>().notNull(),
  },
  (t) => [index('whatsapp_sandbox_offline_user_idx').on(t.userId, t.seq)],
);

/** A queued sandbox message: an InboundMessage with its timestamp as ISO 8601. */
export type SandboxQueuedMessage = {
  id: string;
  remoteJid: string;
  remoteJidAlt?: string;
  participant?: string;
  pushName?: string;
  /** Its text, or its file's caption. */
  text?: string;
  /** A file (as base64), a location or a contact card, as the control API was given it. */
  media?: SandboxMedia;
  timestamp: string;
};

/** What a sandbox contact does to a message of its chat: edits it, deletes it for everyone, or reacts to it. */
export type SandboxChange =
  { kind: 'edit'; text: string } | { kind: 'revoke' } | { kind: 'react'; emoji: string };

/** A queued change: to the message `id` of the chat `remoteJid`, made at `timestamp` (ISO 8601). */
export type SandboxQueuedChange = {
  change: SandboxChange;
  remoteJid: string;
  id: string;
  fromMe: boolean;
  timestamp: string;
};

/** What waits for a sandbox phone's link, in the order it came. */
export type SandboxQueued = SandboxQueuedMessage | SandboxQueuedChange;

/** The pairing code of the QR an account shows now (a hash): the next QR replaces it. */
export const whatsappSandboxPairings = pgTable('whatsapp_sandbox_pairings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/**
 * The pairing code an account shows to link by number (a hash), and the number it is for: typing
 * it on that phone links it. The next code, the end of the QR cycle or a link removes it.
 */
export const whatsappSandboxPairingCodes = pgTable('whatsapp_sandbox_pairing_codes', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  phone: text('phone').notNull(),
  codeHash: text('code_hash').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/** What a linked sandbox phone sent out, in order. */
export const whatsappSandboxEvents = pgTable(
  'whatsapp_sandbox_events',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    phone: text('phone').notNull(),
    event: jsonb('event').$type<SandboxPhoneEvent>().notNull(),
  },
  (t) => [
    index('whatsapp_sandbox_events_phone_idx').on(t.phone, t.seq),
    // A send looks for the same message id already delivered to the phone (recordSend): found by
    // its id, not by reading every event the phone ever had.
    index('whatsapp_sandbox_events_sent_idx')
      .on(t.userId, t.phone, sql`(${t.event} ->> 'id')`)
      .where(sql`${t.event} ->> 'type' = 'message' and ${t.event} ->> 'failed' is null`),
  ],
);

export type WhatsAppAccountRow = typeof whatsappAccounts.$inferSelect;
export type WhatsAppConversationRow = typeof whatsappConversations.$inferSelect;
export type WhatsAppMessageRow = typeof whatsappMessages.$inferSelect;

/**
 * indirect's relay threads: one web conversation per (sender, recipient). The recipient's
 * replies to the platform's number reach it; the sender's messages in it go to the recipient.
 */
export const relayThreads = pgTable(
  'relay_threads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The recipient's number in E.164 digits, without `+` ("5511988887777"). */
    recipient: text('recipient').notNull(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    /** The language of the sender's chat: the recipient's replies are introduced in it. */
    language: text('language', { enum: ['pt-BR', 'en-US', 'es-ES'] }).notNull(),
    /** When a message last went either way: a reply goes to the recipient's latest thread. */
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('relay_threads_pair_idx').on(t.senderId, t.recipient),
    uniqueIndex('relay_threads_conversation_idx').on(t.conversationId),
    index('relay_threads_recipient_idx').on(t.recipient, t.lastAt),
  ],
);

/**
 * Each message indirect was asked to relay: `pending` while the sender has not confirmed it,
 * `sent` once queued in the platform number's outbox, `cancelled` when the sender said no or
 * asked for another. The day's sent ones are what the limits count.
 */
export const relays = pgTable(
  'relays',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    recipient: text('recipient').notNull(),
    text: text('text').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'cancelled'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('relays_sender_idx').on(t.senderId, t.sentAt),
    index('relays_recipient_idx').on(t.recipient, t.sentAt),
    index('relays_conversation_idx').on(t.conversationId, t.createdAt),
  ],
);

/** Numbers that answered STOP to a relay: nobody relays to them again. */
export const relayOptOuts = pgTable('relay_opt_outs', {
  recipient: text('recipient').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

export type RelayThreadRow = typeof relayThreads.$inferSelect;
export type RelayRow = typeof relays.$inferSelect;

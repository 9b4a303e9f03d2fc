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
  SandboxPhoneEvent,
  WhatsAppCloseReason,
  WhatsAppDeliveryStatus,
  WhatsAppState,
} from '@contrateia/shared';
import { agents } from '@/features/agents/agents.table';
import { users } from '@/features/auth/auth.table';

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
    /** Until when the contact is blocked (status `blocked`: not answered) for writing too fast. */
    blockedUntil: timestamp('blocked_until', { withTimezone: true }),
    /** The contact's messages counted but not stored: while blocked, beyond a day's allowance. */
    droppedCount: integer('dropped_count').notNull().default(0),
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
     * Where an outgoing message stands: stored (`pending`) and sent by its job, then as WhatsApp's
     * receipts tell, or `failed` after its last try. Null for the contact's messages and for the
     * owner's messages stored before the outbox (they were sent).
     */
    status: text('status').$type<WhatsAppDeliveryStatus>(),
    /** Why the last try to send it failed (`463`, `not-open`, `unknown`…), kept while it is `failed`. */
    sendError: text('send_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('whatsapp_messages_conversation_idx').on(t.conversationId, t.seq),
    // NULLs are distinct: failed replies (no id) never clash.
    uniqueIndex('whatsapp_messages_wa_id_idx').on(t.conversationId, t.waId),
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
  /** How many of the number's next sends fail (the control API's `fail-sends`), and with what code. */
  failSends: integer('fail_sends').notNull().default(0),
  failCode: text('fail_code'),
});

/** The pairing code of the QR an account shows now (a hash): the next QR replaces it. */
export const whatsappSandboxPairings = pgTable('whatsapp_sandbox_pairings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
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
  (t) => [index('whatsapp_sandbox_events_phone_idx').on(t.phone, t.seq)],
);

export type WhatsAppAccountRow = typeof whatsappAccounts.$inferSelect;
export type WhatsAppConversationRow = typeof whatsappConversations.$inferSelect;
export type WhatsAppMessageRow = typeof whatsappMessages.$inferSelect;

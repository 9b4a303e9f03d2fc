import {
  users
} from "./chunk-NSF64HGU.js";

// src/features/agents/agents.table.ts
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
var agents = pgTable(
  "agents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    displayName: jsonb("display_name").$type().notNull(),
    description: jsonb("description").$type().notNull(),
    isActive: boolean("is_active").notNull().default(true),
    /** Offered to and hireable by admins only (administrador). */
    adminOnly: boolean("admin_only").notNull().default(false),
    configuration: jsonb("configuration").$type().notNull(),
    /**
     * The version of the seed file (features/agents/seed/) the row was last written from; null for
     * agents an admin created, and for seeded rows written before versions existed.
     */
    seedVersion: integer("seed_version"),
    /** When an admin last edited the agent (markAgentEdited); from then on seeds leave it alone. */
    editedAt: timestamp("edited_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [uniqueIndex("agents_name_key").on(t.name)]
);
var agentHires = pgTable(
  "agent_hires",
  {
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    agentId: uuid("agent_id").notNull().references(() => agents.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [primaryKey({ columns: [t.userId, t.agentId] }), index("agent_hires_agent_id_idx").on(t.agentId)]
);

// src/features/chat/chat.table.ts
import { bigserial, boolean as boolean2, index as index2, pgTable as pgTable2, text as text2, timestamp as timestamp2, uuid as uuid2 } from "drizzle-orm/pg-core";
var conversations = pgTable2(
  "conversations",
  {
    id: uuid2("id").primaryKey(),
    userId: uuid2("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    agentId: uuid2("agent_id").notNull().references(() => agents.id, { onDelete: "cascade" }),
    /** Set by a rename; null: the title shown is taken from the first message. */
    title: text2("title"),
    createdAt: timestamp2("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp2("updated_at", { withTimezone: true }).notNull()
  },
  (t) => [index2("conversations_user_agent_idx").on(t.userId, t.agentId, t.createdAt)]
);
var messages = pgTable2(
  "messages",
  {
    id: uuid2("id").primaryKey().defaultRandom(),
    /** Insertion order: a conversation reads back in the order it was written. */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    conversationId: uuid2("conversation_id").notNull().references(() => conversations.id, { onDelete: "cascade" }),
    sender: text2("sender", { enum: ["user", "bot"] }).notNull(),
    text: text2("text").notNull(),
    /** A reply the user stopped: `text` is what had arrived by then. */
    stopped: boolean2("stopped").notNull().default(false),
    createdAt: timestamp2("created_at", { withTimezone: true }).notNull()
  },
  (t) => [index2("messages_conversation_idx").on(t.conversationId, t.seq)]
);
var pairings = pgTable2(
  "pairings",
  {
    id: uuid2("id").primaryKey().defaultRandom(),
    userId: uuid2("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    conversationId: uuid2("conversation_id").notNull().references(() => conversations.id, { onDelete: "cascade" }),
    tokenHash: text2("token_hash").notNull(),
    createdAt: timestamp2("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp2("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp2("revoked_at", { withTimezone: true }),
    usedAt: timestamp2("used_at", { withTimezone: true })
  },
  (t) => [index2("pairings_token_hash_idx").on(t.tokenHash), index2("pairings_conversation_idx").on(t.conversationId)]
);

// src/features/whatsapp/whatsapp.table.ts
import { bigserial as bigserial2, boolean as boolean3, index as index3, integer as integer2, jsonb as jsonb2, pgTable as pgTable3, text as text3, timestamp as timestamp3, uniqueIndex as uniqueIndex2, uuid as uuid3 } from "drizzle-orm/pg-core";
var whatsappAccounts = pgTable3("whatsapp_accounts", {
  userId: uuid3("user_id").primaryKey().references(() => users.id, { onDelete: "cascade" }),
  whitelistMode: boolean3("whitelist_mode").notNull().default(false),
  /** null: the account's guia answers conversations with no agent of their own. */
  defaultAgentId: uuid3("default_agent_id").references(() => agents.id, { onDelete: "set null" }),
  state: text3("state").$type().notNull().default("disconnected"),
  /** The QR code waiting to be scanned, as a PNG data URL. */
  qrCode: text3("qr_code"),
  /** The linked number's digits. */
  phone: text3("phone"),
  updatedAt: timestamp3("updated_at", { withTimezone: true }).notNull()
});
var whatsappConversations = pgTable3(
  "whatsapp_conversations",
  {
    id: uuid3("id").primaryKey().defaultRandom(),
    userId: uuid3("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    contactJid: text3("contact_jid").notNull(),
    /** The same contact's other address (`@lid` ↔ phone JID), once WhatsApp told it. */
    contactAltJid: text3("contact_alt_jid"),
    contactName: text3("contact_name").notNull(),
    contactNumber: text3("contact_number").notNull(),
    aiEnabled: boolean3("ai_enabled").notNull().default(true),
    isWhitelisted: boolean3("is_whitelisted").notNull().default(false),
    unreadCount: integer2("unread_count").notNull().default(0),
    agentId: uuid3("agent_id").references(() => agents.id, { onDelete: "set null" }),
    /** Until when the contact is blocked (status `blocked`: not answered) for writing too fast. */
    blockedUntil: timestamp3("blocked_until", { withTimezone: true }),
    createdAt: timestamp3("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp3("updated_at", { withTimezone: true }).notNull()
  },
  (t) => [
    uniqueIndex2("whatsapp_conversations_contact_idx").on(t.userId, t.contactJid),
    index3("whatsapp_conversations_alt_idx").on(t.userId, t.contactAltJid),
    index3("whatsapp_conversations_updated_idx").on(t.userId, t.updatedAt)
  ]
);
var whatsappMessages = pgTable3(
  "whatsapp_messages",
  {
    id: uuid3("id").primaryKey().defaultRandom(),
    /** Insertion order: a conversation reads back in the order it was written. */
    seq: bigserial2("seq", { mode: "number" }).notNull(),
    conversationId: uuid3("conversation_id").notNull().references(() => whatsappConversations.id, { onDelete: "cascade" }),
    /** WhatsApp's id: the same id again in a conversation is the same message. Null for a failed reply. */
    waId: text3("wa_id"),
    sender: text3("sender", { enum: ["contact", "user"] }).notNull(),
    text: text3("text").notNull(),
    /** The agent that wrote this reply. */
    agentName: text3("agent_name"),
    /** A reply that could not be made or sent: the message key saying why (`text` is empty). */
    error: text3("error"),
    createdAt: timestamp3("created_at", { withTimezone: true }).notNull()
  },
  (t) => [
    index3("whatsapp_messages_conversation_idx").on(t.conversationId, t.seq),
    // NULLs are distinct: failed replies (no id) never clash.
    uniqueIndex2("whatsapp_messages_wa_id_idx").on(t.conversationId, t.waId)
  ]
);
var whatsappSandboxLinks = pgTable3("whatsapp_sandbox_links", {
  userId: uuid3("user_id").primaryKey().references(() => users.id, { onDelete: "cascade" }),
  phone: text3("phone").notNull().unique(),
  linkedAt: timestamp3("linked_at", { withTimezone: true }).notNull()
});
var whatsappSandboxPairings = pgTable3("whatsapp_sandbox_pairings", {
  userId: uuid3("user_id").primaryKey().references(() => users.id, { onDelete: "cascade" }),
  tokenHash: text3("token_hash").notNull().unique(),
  createdAt: timestamp3("created_at", { withTimezone: true }).notNull()
});
var whatsappSandboxEvents = pgTable3(
  "whatsapp_sandbox_events",
  {
    seq: bigserial2("seq", { mode: "number" }).primaryKey(),
    userId: uuid3("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    phone: text3("phone").notNull(),
    event: jsonb2("event").$type().notNull()
  },
  (t) => [index3("whatsapp_sandbox_events_phone_idx").on(t.phone, t.seq)]
);

export {
  agents,
  agentHires,
  conversations,
  messages,
  pairings,
  whatsappAccounts,
  whatsappConversations,
  whatsappMessages,
  whatsappSandboxLinks,
  whatsappSandboxPairings,
  whatsappSandboxEvents
};
//# sourceMappingURL=chunk-YQ3A2WUH.js.map

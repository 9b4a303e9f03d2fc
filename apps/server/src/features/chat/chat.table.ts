import { bigserial, boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { agents } from '@/features/agents/agents.table';
import { users } from '@/features/auth/auth.table';

export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    /** Set by a rename; null: the title shown is taken from the first message. */
    title: text('title'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('conversations_user_agent_idx').on(t.userId, t.agentId, t.createdAt)],
);

export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Insertion order: a conversation reads back in the order it was written. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    sender: text('sender', { enum: ['user', 'bot'] }).notNull(),
    text: text('text').notNull(),
    /** A reply the user stopped: `text` is what had arrived by then. */
    stopped: boolean('stopped').notNull().default(false),
    /** A reply that waits for the user's answer (see ChatMessage.awaits). */
    awaits: text('awaits', { enum: ['relayConfirm'] }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('messages_conversation_idx').on(t.conversationId, t.seq)],
);

/**
 * One-time links that pair a conversation with a WhatsApp chat (used by the WhatsApp feature).
 * Only a hash of the token is kept; a new code for a conversation revokes the previous one.
 */
export const pairings = pgTable(
  'pairings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** Who used it (a WhatsApp chat's id): the same chat using it again is the same pairing. */
    usedBy: text('used_by'),
  },
  (t) => [
    index('pairings_token_hash_idx').on(t.tokenHash),
    index('pairings_conversation_idx').on(t.conversationId),
  ],
);

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

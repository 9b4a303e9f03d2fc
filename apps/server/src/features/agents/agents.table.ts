import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { AgentConfiguration, LocalizedText, MyAgentContent } from '@contrateia/shared';
import { users } from '@/features/auth/auth.table';

export const agents = pgTable(
  'agents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    displayName: jsonb('display_name').$type<LocalizedText>().notNull(),
    description: jsonb('description').$type<LocalizedText>().notNull(),
    isActive: boolean('is_active').notNull().default(true),
    /** Offered to and hireable by admins only (administrador). */
    adminOnly: boolean('admin_only').notNull().default(false),
    configuration: jsonb('configuration').$type<AgentConfiguration>().notNull(),
    /**
     * The version of the seed file (features/agents/seed/) the row was last written from; null for
     * agents an admin created, and for seeded rows written before versions existed.
     */
    seedVersion: integer('seed_version'),
    /** When an admin last edited the agent (markAgentEdited); from then on seeds leave it alone. */
    editedAt: timestamp('edited_at', { withTimezone: true }),
    /**
     * When an admin deleted the agent (a custom one). The row stays, inactive, so that its users'
     * past conversations (which reference it) stay readable; it is out of every list, its hires
     * are gone, and its name stays taken.
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The account whose own agent this is (features/agents/my-agents.ts): private to it, out of
     * the catalogue. Null for the catalogue's agents (seeded or an admin's).
     */
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    /** An own agent's content as its owner wrote it; its `configuration` is made from it. */
    profile: jsonb('profile').$type<MyAgentContent>(),
    /** When an own agent was last saved by its owner. */
    updatedAt: timestamp('updated_at', { withTimezone: true }),
  },
  (t) => [
    // A catalogue agent's name is unique among the catalogue's; an own agent's within its account.
    uniqueIndex('agents_name_key')
      .on(t.name)
      .where(sql`${t.ownerId} is null`),
    uniqueIndex('agents_owner_name_key')
      .on(t.ownerId, t.name)
      .where(sql`${t.ownerId} is not null`),
  ],
);

/** Which agents each user has hired. */
export const agentHires = pgTable(
  'agent_hires',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.agentId] }),
    index('agent_hires_agent_id_idx').on(t.agentId),
  ],
);

export type AgentRow = typeof agents.$inferSelect;

/** A passage of a document's text: what one knowledge entry of its agent is made from. */
export type DocumentPassage = {
  text: string;
  /** The PDF page it starts on; none for the kinds without pages. */
  page?: number;
  /** The nearest heading above it, when the document has any. */
  heading?: string;
};

/**
 * The documents an account gave its own agents (my-agent-documents.ts): the text read from each,
 * in passages; the file itself is not kept. They go with their agent's deletion (removed then)
 * and with their account's (by cascade).
 */
export const agentDocuments = pgTable(
  'agent_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    /** Who gave it: the account's documents are counted together (MY_AGENT_DOCUMENTS_MAX). */
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    /** A PDF's pages; null for the kinds that have none. */
    pages: integer('pages'),
    characters: integer('characters').notNull(),
    passages: jsonb('passages').$type<DocumentPassage[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('agent_documents_agent_id_idx').on(t.agentId, t.createdAt),
    index('agent_documents_owner_id_idx').on(t.ownerId),
  ],
);

export type AgentDocumentRow = typeof agentDocuments.$inferSelect;

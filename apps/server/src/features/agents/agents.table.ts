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
import type { AgentConfiguration, LocalizedText } from '@contrateia/shared';
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
  },
  (t) => [uniqueIndex('agents_name_key').on(t.name)],
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

import { sql } from 'drizzle-orm';
import {
  boolean,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  index,
} from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** As the person typed it; uniqueness and look-ups are case-insensitive. */
    email: text('email').notNull(),
    username: text('username').notNull(),
    avatar: text('avatar'),
    role: text('role', { enum: ['admin', 'user'] }).notNull(),
    originalRole: text('original_role', { enum: ['admin', 'user'] }).notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Set for accounts an admin made for one agent only: they cannot hire others. */
    singleAgentName: text('single_agent_name'),
    /** An admin deactivated the account: its sessions were ended and it cannot sign in. */
    isActive: boolean('is_active').notNull().default(true),
    /** The language the person chose (or registered in): mails to them are written in it. */
    language: text('language', { enum: ['pt-BR', 'en-US', 'es-ES'] }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_key').on(t.username),
  ],
);

/** One row per signed-in session; the token names it, so signing out or switching role revokes it. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** The browser's User-Agent at sign-in, trimmed and capped: the sessions list names the device. */
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

/**
 * The current e-mail code for an address and purpose: one row, replaced by each new code, so a
 * new code kills the old one. The code itself is never stored, only its keyed hash.
 */
export const emailCodes = pgTable(
  'email_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Lower-cased. */
    email: text('email').notNull(),
    purpose: text('purpose', { enum: ['registration', 'password-reset'] }).notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('email_codes_email_purpose_key').on(t.email, t.purpose)],
);

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type EmailCodeRow = typeof emailCodes.$inferSelect;

import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Language } from '@contrateia/shared';
import { users } from '@/features/auth/auth.table';

/** A target's name as it was at the change: one text, or one per language (an agent's display name). */
export type AuditTargetName = string | Partial<Record<Language, string>>;

/** What a field was and became; a secret's values are never recorded, only that it changed. */
export type AuditChanges = Record<string, { before: unknown; after: unknown }>;

/** Every change an admin made: who, what, to which target, the fields changed, from where and when. */
export const adminAudit = pgTable(
  'admin_audit',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** Null once the admin's account is deleted; the record stays. */
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** e.g. `settings.theme`, `agent.create`, `user.role`. */
    action: text('action').notNull(),
    /** What was changed: a settings section, an agent's or a user's id. */
    target: text('target').notNull(),
    /** What the target was called at the change, so that one since deleted is still named; null for settings. */
    targetName: jsonb('target_name').$type<AuditTargetName>(),
    changes: jsonb('changes').$type<AuditChanges>().notNull(),
    ip: text('ip'),
  },
  (t) => [index('admin_audit_at_idx').on(t.at)],
);

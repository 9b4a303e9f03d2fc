import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { SettingsSection } from '@contrateia/shared';
import { users } from '@/features/auth/auth.table';

/**
 * A row's section: the settings' (content, theme, system), or `ai`, the language model's provider
 * (the ai feature's ai.settings.ts), which holds a sealed API key and is never part of the settings anyone reads.
 */
export type StoredSection = SettingsSection | 'ai';

/** One row per settings section an admin has saved; a section without a row has its defaults. */
export const appSettings = pgTable('app_settings', {
  section: text('section').$type<StoredSection>().primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
});

import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { LogCategory, LogLevel } from '@contrateia/shared';
import type { EventContextValue } from '@/lib/event-log';

/**
 * The stored log (the Logs page): the server's warnings and errors, and the events features
 * record. Kept LOG_RETENTION_DAYS. No foreign key to the accounts: an event outlives the account
 * it names, until its retention ends.
 */
export const logEvents = pgTable(
  'log_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** To the millisecond, as JavaScript's dates: a page's cursor holds it exactly. */
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
    level: text('level').$type<LogLevel>().notNull(),
    category: text('category').$type<LogCategory>().notNull(),
    /** e.g. `auth.sign_in`; null for a server line. */
    event: text('event'),
    message: text('message').notNull(),
    userId: text('user_id'),
    requestId: text('request_id'),
    /** The event's other fields: plain values only, neutralised and capped by the writer. */
    context: jsonb('context').$type<Record<string, EventContextValue>>().notNull(),
    /**
     * The event's message in the three languages (and an admin change's field names), as the page
     * shows them: written with the row (logs.messages.ts), so that a search finds the words an
     * admin reads, whichever language they read in. Empty for a server line.
     */
    translations: text('translations').notNull().default(''),
    /**
     * What a search looks in, folded: the event, message, translations, ids and context's text without accents
     * and in lower case (log_events_fold, an immutable wrapper of unaccent made by the migration).
     * The trigram index below finds a word anywhere in it, in any language.
     */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        sql`log_events_fold(coalesce("event", '') || ' ' || "message" || ' ' || "translations" || ' ' || coalesce("user_id", '') || ' ' || coalesce("request_id", '') || ' ' || "context"::text)`,
      ),
  },
  (t) => [
    // Newest first, a page at a time (keyset on at, id), with or without one of the filters.
    index('log_events_at_idx').on(t.at, t.id),
    index('log_events_level_at_idx').on(t.level, t.at, t.id),
    index('log_events_category_at_idx').on(t.category, t.at, t.id),
    index('log_events_search_idx').using('gin', t.searchText.op('gin_trgm_ops')),
  ],
);

export type LogEventRow = typeof logEvents.$inferSelect;
export type NewLogEventRow = typeof logEvents.$inferInsert;

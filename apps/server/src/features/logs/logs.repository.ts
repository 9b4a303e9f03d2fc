import { and, desc, eq, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { LogCategory, LogLevel } from '@contrateia/shared';
import type { Db } from '@/db/client';
import { containing } from '@/lib/like';
import { logEvents, type LogEventRow, type NewLogEventRow } from './logs.table';

/** Writes a batch of events in one statement. */
export async function insertEvents({
  db,
  rows,
}: {
  db: Db;
  rows: NewLogEventRow[];
}): Promise<void> {
  if (rows.length > 0) await db.insert(logEvents).values(rows);
}

export type EventFilter = {
  level?: LogLevel;
  category?: LogCategory;
  from?: Date;
  to?: Date;
  /** Each must appear somewhere in the event, accents and case aside. */
  words: string[];
  /** The last event of the previous page: this page starts after it. */
  after?: { at: Date; id: string };
  limit: number;
};

/**
 * Events newest first (by time, then id, so a page boundary between events of one millisecond
 * neither repeats nor skips one). A word is folded as the stored text is (log_events_fold) and
 * matched anywhere in it, LIKE's wildcards taken literally, through the trigram index.
 */
export async function listEvents({
  db,
  level,
  category,
  from,
  to,
  words,
  after,
  limit,
}: EventFilter & { db: Db }): Promise<LogEventRow[]> {
  const conditions: (SQL | undefined)[] = [
    level ? eq(logEvents.level, level) : undefined,
    category ? eq(logEvents.category, category) : undefined,
    from ? gte(logEvents.at, from) : undefined,
    to ? lte(logEvents.at, to) : undefined,
    ...words.map((word) => sql`${logEvents.searchText} like log_events_fold(${containing(word)})`),
    after
      ? sql`(${logEvents.at}, ${logEvents.id}) < (${after.at.toISOString()}::timestamptz, ${after.id}::uuid)`
      : undefined,
  ];
  return db
    .select()
    .from(logEvents)
    .where(and(...conditions))
    .orderBy(desc(logEvents.at), desc(logEvents.id))
    .limit(limit);
}

/**
 * Deletes up to `batch` events older than `before`, oldest first; how many it deleted. Called
 * again until it deletes fewer than a batch, so no statement holds the table long.
 */
export async function deleteEventsBefore({
  db,
  before,
  batch,
}: {
  db: Db;
  before: Date;
  batch: number;
}): Promise<number> {
  const oldest = db
    .select({ id: logEvents.id })
    .from(logEvents)
    .where(lt(logEvents.at, before))
    .orderBy(logEvents.at)
    .limit(batch);
  const deleted = await db
    .delete(logEvents)
    .where(inArray(logEvents.id, oldest))
    .returning({ id: logEvents.id });
  return deleted.length;
}

/**
 * Refreshes the planner's statistics of the table. PostgreSQL's autovacuum does it by itself, but
 * the embedded database has no background workers: without them, a search for a rare word was
 * planned as a walk through every event by time (40 ms over 100,000) instead of the trigram index
 * (1 ms).
 */
export async function analyzeEvents({ db }: { db: Db }): Promise<void> {
  await db.execute(sql`analyze log_events`);
}

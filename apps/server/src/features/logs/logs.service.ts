import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Language, listLogsQuerySchema, ListLogsResponse, LogEntry } from '@contrateia/shared';
import type { Db } from '@/db/client';
import type { Clock } from '@/lib/clock';
import type { EventLog, LogEvent } from '@/lib/event-log';
import { createTranslator, type Translate } from '@/lib/i18n';
import { defineQueue, type Jobs } from '@/lib/jobs';
import type { SharedState } from '@/lib/shared-state';
import * as repo from './logs.repository';
import type { LogEventRow, NewLogEventRow } from './logs.table';
import { changesOf, messageOf, wordsOf } from './logs.messages';
import { createRefusalCounter } from './logs.refusals';
import { rowOfEvent } from './logs.sanitize';
import { createEventWriter, DEFAULT_WRITER_LIMITS, type WriterLimits } from './logs.writer';
import { isUuid } from '@/lib/uuid';
import { logsCursorInvalid } from './logs.errors';

export type LogsService = ReturnType<typeof createLogsService>;

export type LogsQuery = z.output<typeof listLogsQuerySchema>;

export type RetentionOptions = {
  /** LOG_RETENTION_DAYS: events older than this many days are deleted. */
  days: number;
  /** The most rows one DELETE removes. */
  batchRows: number;
};

export const DEFAULT_RETENTION: RetentionOptions = {
  days: 30,
  batchRows: 5000,
};

/**
 * The retention's queue (made by migration 0017): stately, so one run at a time on every
 * instance, and a run asked while one waits is that one.
 */
export const RETENTION_QUEUE = defineQueue<Record<string, never>>({
  name: 'logs-retention',
  tries: 2,
  retryDelaySeconds: 60,
  expireSeconds: 15 * 60,
  concurrency: 1,
  pollMs: 30_000,
});

/** The retention runs every hour on the hour, and at each start. */
const EVERY_HOUR = '0 * * * *';

/** The most words of a search that count (each must appear). */
const SEARCH_WORDS_MAX = 16;
const DAY_MS = 24 * 60 * 60_000;
/** The first and last instants a timestamp of both databases holds written as an ISO time. */
const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * The stored log: the events features record (`events`, the EventLog they are given) and the
 * warnings and errors the server's logger writes (`capture`, for lib/logger's tapWarnings), written
 * in batches off the request path (logs.writer.ts); the admin's search over them, newest first a
 * page at a time; and the retention, which deletes what is older than LOG_RETENTION_DAYS: a
 * durable job, every hour and at start, on one instance at a time.
 */
export function createLogsService({
  db,
  clock,
  state,
  logger,
  secret,
  translate,
  writer: writerLimits,
  retention: retentionOptions,
  jobs,
}: {
  db: Db;
  clock: Clock;
  state: SharedState;
  logger: FastifyBaseLogger;
  /** Signs the page cursors (the app's secret; a key of their own is derived from it). */
  secret: string;
  /** The app's translator: messages are put into words in the reader's language, and in all three for the search. */
  translate: (language: Language) => Translate;
  writer?: Partial<WriterLimits>;
  retention?: Partial<RetentionOptions>;
  jobs: Jobs;
}) {
  const writer = createEventWriter({
    db,
    clock,
    logger,
    limits: { ...DEFAULT_WRITER_LIMITS, ...writerLimits },
    rowOf: (event, at) => storedRow(translate, event, at),
  });
  const refusals = createRefusalCounter({ state, clock, eventLog: writer, logger });
  const retention = { ...DEFAULT_RETENTION, ...retentionOptions };
  const cursors = cursorCodec(createHmac('sha256', secret).update('log-cursor').digest());
  jobs.work(RETENTION_QUEUE, async ({ signal }) => purgeExpired(signal));
  jobs.schedule(RETENTION_QUEUE, EVERY_HOUR);

  /** One page of events, newest first, and the cursor of the next (null on the last). */
  async function list(query: LogsQuery, language: Language): Promise<ListLogsResponse> {
    const after = query.cursor === undefined ? undefined : cursors.decode(query.cursor);
    const words = [...new Set(query.search.toLowerCase().split(/\s+/).filter(Boolean))].slice(
      0,
      SEARCH_WORDS_MAX,
    );
    // A valid ISO time may lie outside what the database's timestamps hold (year 0, or past 9999
    // once its offset is applied): such a bound either excludes nothing or everything.
    const from = query.from === undefined ? undefined : Date.parse(query.from);
    const to = query.to === undefined ? undefined : Date.parse(query.to);
    if ((from !== undefined && from > LATEST) || (to !== undefined && to < EARLIEST))
      return { logs: [], nextCursor: null };
    const rows = await repo.listEvents({
      db,
      level: query.level,
      category: query.category,
      from: from === undefined || from < EARLIEST ? undefined : new Date(from),
      to: to === undefined || to > LATEST ? undefined : new Date(to),
      words,
      after,
      // One more than asked: whether there is a next page, without counting.
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const t = translate(language);
    return {
      logs: page.map((row) => toEntry(row, t, language)),
      nextCursor: rows.length > query.limit && last ? cursors.encode(last) : null,
    };
  }

  /**
   * Deletes the events older than the retention, in batches, and refreshes the table's statistics:
   * the retention job's run (one at a time, see RETENTION_QUEUE). A stop ends it after its batch
   * under way; the next run deletes the rest.
   */
  async function purgeExpired(signal: AbortSignal): Promise<{ deleted: number }> {
    const before = new Date(clock.now().getTime() - retention.days * DAY_MS);
    let deleted = 0;
    for (;;) {
      const count = await repo.deleteEventsBefore({ db, before, batch: retention.batchRows });
      deleted += count;
      if (count < retention.batchRows || signal.aborted) break;
    }
    // Once a run, as the table's contents change (see analyzeEvents).
    await repo.analyzeEvents({ db });
    if (deleted > 0)
      logger.info({ deleted, before: before.toISOString() }, 'old log events deleted');
    return { deleted };
  }

  return {
    /** What features record their events through. */
    events: { record: writer.record } satisfies EventLog,
    /** Where the logger's warnings and errors go (lib/logger's tapWarnings). */
    capture: writer.capture,
    /** Counts a request refused for maintenance (plugins/errors.ts): one summary a minute, never an error each. */
    maintenanceRefused: refusals.refused,
    list,

    /** Once the database is ready: batches are written, and old events deleted now (as every hour). */
    async start(): Promise<void> {
      writer.start();
      // A failure is logged (and so stored, once writing works); the hour's run is still due.
      await jobs
        .send(RETENTION_QUEUE, {})
        .catch((error: unknown) =>
          logger.error({ err: error }, 'old log events could not be deleted'),
        );
    },

    /** Writes what is left (the jobs, the retention's among them, are stopped before). */
    async close(): Promise<void> {
      await writer.close();
    },
  };
}

/**
 * An event as the stored log keeps it: its row (neutralised, capped: logs.sanitize.ts) with its
 * words in every language, for the search (logs.messages.ts).
 */
function storedRow(
  translate: (language: Language) => Translate,
  event: LogEvent,
  at: Date,
): NewLogEventRow {
  const row = rowOfEvent(event, at);
  const { message, context } = row;
  return {
    ...row,
    translations: wordsOf(translate, { event: row.event ?? null, message, context }),
  };
}

/**
 * The shared catalogue's words, for the events stored with a change (storeEvent): the texts the
 * app's translator has too, which never change while the process runs, so one serves every app.
 */
const catalogue = createTranslator();

/**
 * Stores one event in `db` at once, made as the writer makes its rows. Given the transaction of a
 * change, the event is kept with the change or not at all, and is there the moment it commits
 * (the admin audit's `admin.<action>`, audit.service.ts recordAudit).
 */
export async function storeEvent({
  db,
  event,
  at,
}: {
  db: Db;
  event: LogEvent;
  at: Date;
}): Promise<void> {
  await repo.insertEvents({ db, rows: [storedRow(catalogue, event, at)] });
}

/** An event as the API answers it, in the reader's words: its columns are part of its context. */
function toEntry(row: LogEventRow, t: Translate, language: Language): LogEntry {
  const changes = row.event?.startsWith('admin.') ? changesOf(t, row.context) : [];
  return {
    id: row.id,
    timestamp: row.at.toISOString(),
    level: row.level,
    message: messageOf(t, row, language),
    ...(changes.length > 0 ? { changes } : {}),
    context: {
      ...row.context,
      category: row.category,
      ...(row.event === null ? {} : { event: row.event }),
      userId: row.userId,
      requestId: row.requestId,
    },
  };
}

/**
 * Page cursors: the last event's time and id, signed, so that a cursor changed by hand is refused
 * (400) rather than read. Opaque to the client: `<payload>.<signature>`, both base64url.
 */
function cursorCodec(key: Buffer) {
  const sign = (payload: string) =>
    createHmac('sha256', key).update(payload).digest().subarray(0, 16);
  return {
    encode(row: Pick<LogEventRow, 'at' | 'id'>): string {
      const payload = Buffer.from(JSON.stringify([row.at.toISOString(), row.id])).toString(
        'base64url',
      );
      return `${payload}.${sign(payload).toString('base64url')}`;
    },
    decode(cursor: string): { at: Date; id: string } {
      const [payload, signature, extra] = cursor.split('.');
      if (!payload || !signature || extra !== undefined) throw logsCursorInvalid();
      const given = Buffer.from(signature, 'base64url');
      const expected = sign(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        throw logsCursorInvalid();
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        throw logsCursorInvalid();
      }
      if (!Array.isArray(parsed) || parsed.length !== 2) throw logsCursorInvalid();
      const [time, id] = parsed as unknown[];
      const at = typeof time === 'string' ? new Date(time) : undefined;
      if (!at || Number.isNaN(at.getTime()) || typeof id !== 'string' || !isUuid(id))
        throw logsCursorInvalid();
      return { at, id };
    },
  };
}

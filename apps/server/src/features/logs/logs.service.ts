import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Language, listLogsQuerySchema, ListLogsResponse, LogEntry } from '@contrateia/shared';
import type { Db } from '@/db/client';
import type { Clock } from '@/lib/clock';
import type { EventLog } from '@/lib/event-log';
import type { Translate } from '@/lib/i18n';
import type { SharedState } from '@/lib/shared-state';
import * as repo from './logs.repository';
import type { LogEventRow } from './logs.table';
import { changesOf, messageOf, wordsOf } from './logs.messages';
import { createRefusalCounter } from './logs.refusals';
import { createEventWriter, DEFAULT_WRITER_LIMITS, type WriterLimits } from './logs.writer';
import { isUuid } from '@/lib/uuid';
import { logsCursorInvalid } from './logs.errors';

export type LogsService = ReturnType<typeof createLogsService>;

export type LogsQuery = z.output<typeof listLogsQuerySchema>;

export type RetentionOptions = {
  /** LOG_RETENTION_DAYS: events older than this many days are deleted. */
  days: number;
  /** How often the old events are looked for (and once at start). */
  everyMs: number;
  /** The most rows one DELETE removes. */
  batchRows: number;
};

export const DEFAULT_RETENTION: RetentionOptions = {
  days: 30,
  everyMs: 60 * 60_000,
  batchRows: 5000,
};

/** The most words of a search that count (each must appear). */
const SEARCH_WORDS_MAX = 16;
const DAY_MS = 24 * 60 * 60_000;
/** The first and last instants a timestamp of both databases holds written as an ISO time. */
const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');
/** Held while one instance deletes; the others skip their turn. */
const RETENTION_LOCK = 'logs-retention';
/** Set once an instance has deleted, until the next turn is due: the others skip theirs meanwhile. */
const RETENTION_DONE = 'logs-retention-done';

/**
 * The stored log: the events features record (`events`, the EventLog they are given) and the
 * warnings and errors the server's logger writes (`capture`, for lib/logger's tapWarnings), written
 * in batches off the request path (logs.writer.ts); the admin's search over them, newest first a
 * page at a time; and the retention, which deletes what is older than LOG_RETENTION_DAYS, one
 * instance at a time.
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
}) {
  const writer = createEventWriter({
    db,
    clock,
    logger,
    limits: { ...DEFAULT_WRITER_LIMITS, ...writerLimits },
    wordsOf: (row) =>
      wordsOf(translate, { event: row.event ?? null, message: row.message, context: row.context }),
  });
  const refusals = createRefusalCounter({ state, clock, eventLog: writer, logger });
  const retention = { ...DEFAULT_RETENTION, ...retentionOptions };
  const cursors = cursorCodec(createHmac('sha256', secret).update('log-cursor').digest());
  let retentionTimer: NodeJS.Timeout | undefined;
  let purging: Promise<unknown> | undefined;
  let closing = false;

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
   * Deletes the events older than the retention, in batches, and refreshes the table's statistics,
   * unless another instance is doing it or did it less than a turn ago (the shared state says
   * which). Undefined when it skipped.
   */
  async function purgeExpired(): Promise<{ deleted: number } | undefined> {
    if (await state.getValue(RETENTION_DONE)) return undefined;
    const lock = await state.tryLock(RETENTION_LOCK, { ttlMs: 30_000 });
    if (!lock) return undefined;
    try {
      // Done by another instance between the look above and the lock.
      if (await state.getValue(RETENTION_DONE)) return undefined;
      const before = new Date(clock.now().getTime() - retention.days * DAY_MS);
      let deleted = 0;
      for (;;) {
        const count = await repo.deleteEventsBefore({ db, before, batch: retention.batchRows });
        deleted += count;
        if (count < retention.batchRows || closing) break;
      }
      // Once a turn, as the table's contents change (see analyzeEvents).
      await repo.analyzeEvents({ db });
      // The next turn is due a little before `everyMs`, so that some instance's timer takes it.
      await state.setValue(
        RETENTION_DONE,
        before.toISOString(),
        Math.max(1000, Math.floor(retention.everyMs * 0.9)),
      );
      if (deleted > 0)
        logger.info({ deleted, before: before.toISOString() }, 'old log events deleted');
      return { deleted };
    } finally {
      await lock.release();
    }
  }

  /** Runs the retention in the background; a failure is logged (and so stored, once writing works). */
  function purgeInBackground(): void {
    if (purging || closing) return;
    purging = purgeExpired()
      .catch((error: unknown) =>
        logger.error({ err: error }, 'old log events could not be deleted'),
      )
      .finally(() => {
        purging = undefined;
      });
  }

  return {
    /** What features record their events through. */
    events: { record: writer.record } satisfies EventLog,
    /** Where the logger's warnings and errors go (lib/logger's tapWarnings). */
    capture: writer.capture,
    /** Counts a request refused for maintenance (plugins/errors.ts): one summary a minute, never an error each. */
    maintenanceRefused: refusals.refused,
    list,

    /** Once the database is ready: batches are written, and old events deleted now and every turn. */
    start(): void {
      writer.start();
      purgeInBackground();
      retentionTimer = setInterval(purgeInBackground, retention.everyMs);
      retentionTimer.unref();
    },

    /** Stops the retention (after its batch under way) and writes what is left. */
    async close(): Promise<void> {
      closing = true;
      clearInterval(retentionTimer);
      await purging;
      await writer.close();
    },
  };
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

import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '@/db/client';
import type { Clock } from '@/lib/clock';
import type { LogEvent } from '@/lib/event-log';
import { firstDatabaseError, type WarningSink } from '@/lib/logger';
import * as repo from './logs.repository';
import { rowOfLine } from './logs.sanitize';
import type { NewLogEventRow } from './logs.table';

export type WriterLimits = {
  /** How often what gathered is written. */
  flushMs: number;
  /** The most rows one INSERT writes; a buffer this full is written at once. */
  batchRows: number;
  /**
   * The most events waiting while the database does not take them (the oldest go first), besides
   * the batch being written.
   */
  bufferedRows: number;
};

export const DEFAULT_WRITER_LIMITS: WriterLimits = {
  flushMs: 1000,
  batchRows: 500,
  bufferedRows: 10_000,
};

/** An event as recorded, made into a row only when written (off the path that recorded it). */
type Pending = { at: Date; event: LogEvent } | { at: Date; line: string; level: number };

/**
 * Gathers events in memory and writes them in batches, one multi-row INSERT each, every
 * `flushMs` or as soon as a batch is full, and once more on close. Recording costs a push: the
 * row is made (neutralised, capped) when the batch is written. While the database refuses them
 * the events wait, at most `bufferedRows` (the oldest are dropped and counted; a warning says how
 * many once writing works again). What the writer itself logs about a failure is never captured
 * back into the buffer.
 */
export function createEventWriter({
  db,
  clock,
  logger,
  limits,
  rowOf,
}: {
  db: Db;
  clock: Clock;
  logger: FastifyBaseLogger;
  limits: WriterLimits;
  /** An event's row, its words in every language kept with it for the search (logs.service.ts). */
  rowOf: (event: LogEvent, at: Date) => NewLogEventRow;
}) {
  const buffer: Pending[] = [];
  let dropped = 0;
  let failing = false;
  /** True while the writer logs about itself: what the logger tap hands back then is ignored. */
  let quiet = false;
  let started = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> | undefined;

  function push(pending: Pending): void {
    if (closed) return;
    buffer.push(pending);
    if (buffer.length > limits.bufferedRows)
      dropped += buffer.splice(0, buffer.length - limits.bufferedRows).length;
    if (started && !flushing && buffer.length >= limits.batchRows) void flush();
  }

  /** Logs about the writer itself, on the server's log only. */
  function say(
    level: 'info' | 'warn' | 'error',
    fields: Record<string, unknown>,
    message: string,
  ): void {
    quiet = true;
    try {
      logger[level](fields, message);
    } finally {
      quiet = false;
    }
  }

  /** Writes the oldest batch; false when the database refused it (it waits in the buffer again). */
  async function writeBatch(): Promise<boolean> {
    const batch = buffer.splice(0, limits.batchRows);
    const rows = batch.flatMap((pending) => {
      if (!('event' in pending)) return rowOfLine(pending.line, pending.level, pending.at) ?? [];
      return [rowOf(pending.event, pending.at)];
    });
    try {
      await repo.insertEvents({ db, rows });
    } catch (error) {
      if (isDataError(error)) {
        // The rows themselves are refused: trying them again would refuse them again.
        dropped += batch.length;
        say(
          'error',
          { err: error, rows: batch.length },
          'log events refused by the database: dropped',
        );
        return true;
      }
      buffer.unshift(...batch);
      if (buffer.length > limits.bufferedRows)
        dropped += buffer.splice(0, buffer.length - limits.bufferedRows).length;
      if (!failing) {
        failing = true;
        say(
          'error',
          { err: error, buffered: buffer.length },
          'log events could not be stored: kept in memory and tried again',
        );
      }
      return false;
    }
    if (failing) {
      failing = false;
      say('info', { buffered: buffer.length }, 'log events are stored again');
    }
    if (dropped > 0) {
      const count = dropped;
      dropped = 0;
      push({
        at: clock.now(),
        event: {
          level: 'warn',
          category: 'server',
          event: 'logs.dropped',
          message: `${count} log events were dropped: the database did not take them in time`,
          context: { dropped: count },
        },
      });
    }
    return true;
  }

  async function drain(): Promise<void> {
    while (buffer.length > 0 && (await writeBatch()));
  }

  /** Writes everything gathered (in batches); the one write under way if there is one. */
  function flush(): Promise<void> {
    flushing ??= drain().finally(() => {
      flushing = undefined;
    });
    return flushing;
  }

  return {
    /** Records a feature's event (the EventLog interface). */
    record(event: LogEvent): void {
      push({
        at: clock.now(),
        event: { ...event, context: event.context && { ...event.context } },
      });
    },

    /** Records a line the server's logger wrote at warning level or above (lib/logger's tapWarnings). */
    capture: ((line, level) => {
      if (!quiet) push({ at: clock.now(), line, level });
    }) satisfies WarningSink,

    /** Starts writing: once the database is ready (its migration may still run before). */
    start(): void {
      if (started || closed) return;
      started = true;
      timer = setInterval(() => void flush(), limits.flushMs);
      timer.unref();
      if (buffer.length > 0) void flush();
    },

    flush,

    /** Writes what is left; what the database does not take now is given up (and said so). */
    async close(): Promise<void> {
      clearInterval(timer);
      started = true;
      await flush();
      // A write that was under way may have stopped at a failure before the last events came.
      if (buffer.length > 0) await flush();
      closed = true;
      if (buffer.length > 0 || dropped > 0)
        say('warn', { lost: buffer.length + dropped }, 'log events not stored before closing');
      buffer.length = 0;
    },
  };
}

/** Whether the database refused the rows themselves (a data exception, a limit), not the connection. */
function isDataError(error: unknown): boolean {
  return /^(22|54)[0-9A-Z]{3}$/.test(String(firstDatabaseError(error)?.code ?? ''));
}

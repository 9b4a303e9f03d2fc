import os from 'node:os';
import pg from 'pg';

/** Any fixed number apart from the migration's (client.ts): the lock that marks a live instance. */
export const INSTANCE_LOCK_KEY = 7_243_612_002;
/** Where an instance kept out says so, for the instances running to log it. */
export const INSTANCE_CHANNEL = 'contrateia_instances';
/** Names the mark's connection in pg_stat_activity, for an operator (and the tests) to find. */
export const MARK_APPLICATION_NAME = 'contrateia instance mark';
/** The first wait before taking the mark again after its connection died; it doubles up to… */
const RETRY_MS = 1_000;
/** …this much. */
const MAX_RETRY_MS = 30_000;

/**
 * PostgreSQL ends the session of a client whose machine vanished (power cut, network gone) once
 * its keepalive probes go unanswered: about 16 s with these (10 s idle, then 3 probes 2 s apart),
 * against the two hours of the usual system default. Until then the dead instance's mark stands
 * and a start elsewhere is refused. A process that dies on a machine that lives (SIGKILL, a crash)
 * has its socket closed by the kernel, and its mark goes at once.
 */
const SERVER_KEEPALIVES =
  'set tcp_keepalives_idle = 10; set tcp_keepalives_interval = 2; set tcp_keepalives_count = 3';

/** A start refused because of another instance; its message names what to do. */
export class InstanceRefusedError extends Error {}

export type GuardLogger = {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
};

/** What an instance kept out tells the running ones (JSON on INSTANCE_CHANNEL). */
type Notice = {
  /** `refused`: it did not start; `unmarked`: it runs, its mark taken while its connection was down. */
  event: 'refused' | 'unmarked';
  host: string;
  pid: number;
  /** Whether it has REDIS_URL. */
  redis: boolean;
};

export type InstanceGuard = {
  /** Drops the mark (ends its connection): call it last, once the instance has stopped serving. */
  close: () => Promise<void>;
};

/**
 * Makes sure that instances sharing a PostgreSQL database also share their state. Without
 * REDIS_URL, locks, throttles and caches live in each process's memory: a second instance would
 * keep its own, and both would own every WhatsApp account. So each instance marks itself live
 * with a session-level advisory lock on a connection of its own, held for the life of the
 * process: exclusive without Redis (the instance must be alone), shared with it (any number of
 * instances with Redis, none without). A start that cannot take its lock is refused with an
 * InstanceRefusedError naming REDIS_URL, before it migrates or listens, and says so on a channel
 * the running instances LISTEN on, so each logs one warning per refused start.
 *
 * PostgreSQL drops the lock when the session ends, so the mark vanishes with its process (see
 * SERVER_KEEPALIVES for a machine that dies). If the connection dies while the instance runs (a
 * database restart), the mark is taken again, logged; if another instance took it meanwhile, that
 * is logged as an error and told to the other, and the mark is tried again now and then.
 *
 * Rejects with the driver's error if the database cannot be reached.
 */
export async function guardInstance({
  url,
  sharedState,
  logger,
  retryMs = RETRY_MS,
}: {
  url: string;
  /** Whether this instance keeps its shared state in Redis (REDIS_URL). */
  sharedState: boolean;
  logger: GuardLogger;
  /** The first wait before taking the mark again after its connection died (tests shorten it). */
  retryMs?: number;
}): Promise<InstanceGuard> {
  const me = { host: os.hostname(), pid: process.pid, redis: sharedState };
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  /** Set once an `unmarked` notice went out, until the mark is held again: one per loss. */
  let toldUnmarked = false;

  async function connect(): Promise<pg.Client> {
    const connection = new pg.Client({
      connectionString: url,
      application_name: MARK_APPLICATION_NAME,
      // The client's side of the same: a database that vanished is noticed, and the mark retaken.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    // A connection that fails also ends ('end' below); an unhandled 'error' would crash the process.
    connection.on('error', () => {});
    try {
      await connection.connect();
      await connection.query(SERVER_KEEPALIVES);
      return connection;
    } catch (error) {
      await connection.end().catch(() => {});
      throw error;
    }
  }

  async function takeMark(connection: pg.Client): Promise<boolean> {
    const take = sharedState ? 'pg_try_advisory_lock_shared' : 'pg_try_advisory_lock';
    const { rows } = await connection.query<{ taken: boolean }>(`select ${take}($1) as taken`, [
      INSTANCE_LOCK_KEY,
    ]);
    return rows[0]?.taken === true;
  }

  async function tell(connection: pg.Client, event: Notice['event']): Promise<void> {
    const notice: Notice = { event, ...me };
    await connection.query('select pg_notify($1, $2)', [INSTANCE_CHANNEL, JSON.stringify(notice)]);
  }

  /** Holds the mark on `connection` (taken): hears the notices, and takes it again if it dies. */
  async function hold(connection: pg.Client): Promise<void> {
    connection.on('notification', (message) => {
      if (message.channel === INSTANCE_CHANNEL) heard(message.payload);
    });
    connection.once('end', () => {
      if (closed || client !== connection) return;
      client = undefined;
      logger.warn(
        {},
        'the connection that marks this instance as running on the database ended; taking the mark again',
      );
      scheduleRetry(0);
    });
    await connection.query(`listen ${INSTANCE_CHANNEL}`);
    client = connection;
  }

  function heard(payload: string | undefined): void {
    const other = parseNotice(payload);
    if (!other) return;
    const fields = { other: { host: other.host, pid: other.pid, redis: other.redis } };
    if (other.event === 'refused')
      logger.warn(
        fields,
        'another ContrateIA instance tried to start on this database and was refused: instances sharing a database need REDIS_URL (shared state), set on every one',
      );
    else
      logger.error(
        fields,
        'another ContrateIA instance runs on this database without its mark (it lost its connection and this one started meanwhile): their locks, throttles and caches are apart; stop one, or set REDIS_URL on every instance',
      );
  }

  function scheduleRetry(attempt: number): void {
    const wait = attempt === 0 ? 0 : Math.min(MAX_RETRY_MS, retryMs * 2 ** (attempt - 1));
    retry = setTimeout(() => void retake(attempt), wait);
    // The server keeps the process alive; a pending retry must not hold its exit.
    retry.unref();
  }

  async function retake(attempt: number): Promise<void> {
    let connection: pg.Client | undefined;
    try {
      connection = await connect();
      if (!closed && (await takeMark(connection))) {
        await hold(connection);
        if (closed) {
          // Closed while this turn took the mark: close() found nothing to end.
          client = undefined;
          await connection.end();
          return;
        }
        toldUnmarked = false;
        logger.info({}, 'took the mark of this instance on the database again');
        return;
      }
      if (closed) {
        await connection.end();
        return;
      }
      if (!toldUnmarked) {
        toldUnmarked = true;
        logger.error(
          {},
          'another ContrateIA instance took this database while the connection that marked this one was down: their locks, throttles and caches are apart; stop one, or set REDIS_URL on every instance',
        );
        await tell(connection, 'unmarked');
      }
      await connection.end();
    } catch {
      // The database is still away: the next turn tries again.
      await connection?.end().catch(() => {});
    }
    if (!closed) scheduleRetry(attempt + 1);
  }

  const first = await connect();
  try {
    if (!(await takeMark(first))) {
      await tell(first, 'refused');
      throw new InstanceRefusedError(
        sharedState
          ? 'A ContrateIA instance without REDIS_URL is running on this database; instances sharing a database need REDIS_URL (shared state): set it on that one too.'
          : 'Another ContrateIA instance is running on this database; several instances need REDIS_URL (shared state): set it on every instance.',
      );
    }
    await hold(first);
  } catch (error) {
    await first.end().catch(() => {});
    throw error;
  }

  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      const connection = client;
      client = undefined;
      await connection?.end().catch(() => {});
    },
  };
}

function parseNotice(payload: string | undefined): Notice | undefined {
  try {
    const notice = JSON.parse(payload ?? '') as Partial<Notice>;
    if (
      (notice.event === 'refused' || notice.event === 'unmarked') &&
      typeof notice.host === 'string' &&
      typeof notice.pid === 'number' &&
      typeof notice.redis === 'boolean'
    )
      return notice as Notice;
  } catch {
    // not one of ours
  }
  return undefined;
}

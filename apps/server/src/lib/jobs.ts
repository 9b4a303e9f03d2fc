import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import { grouped } from './grouped';
import type { JobCompletionParams, JobInsertParams } from './job-statements';
import { hasSqlState, SQL_STATE } from './sql-state';

/**
 * Durable jobs: work that must happen later, again or once, kept in the app's own database
 * (pg-boss's tables, made by migration 0017), so that a restart forgets none and every instance
 * sharing a PostgreSQL database shares them. A feature defines its queue, works it with a handler,
 * and sends jobs to it (or schedules them); a job key keeps one job of that key waiting and one
 * running on every instance (the queues are stately).
 *
 * pg-boss 10 keeps the jobs: its tables and their unique indexes (one job of a key waiting and
 * one running), a failed try retried with backoff, a job whose process died expired, the cron
 * schedules run (on one instance), what is done archived. Moving the jobs is ours, in a few
 * statements of its SQL's kind over its tables:
 * - pg-boss's fetch takes the oldest jobs whatever their key, and a key already running makes its
 *   statement fail on the unique index: one conversation's second message would hold every other
 *   conversation's reply until the first reply ends. Ours passes over the keys running anywhere.
 * - Every job of a busy queue costs pg-boss a statement to send, one to fetch and one to complete,
 *   and its try starts only after the second: on the embedded database, whose one thread runs
 *   every query of the app, that slowed WhatsApp replies down measurably. A job sent here, with
 *   room for it here and no job of its key waiting or running anywhere, is inserted already
 *   running here and runs at once; the jobs sent meanwhile go in one statement; the jobs finished
 *   are marked done in the statement that fetches the next ones.
 * - Even so, a job cost its feature two round trips of its own on top of its work's: its insert,
 *   and its completion. A feature's own statement may do either (lib/job-statements.ts): insert
 *   the job its write calls for (`within`, a `JobSlot`), and mark done the job whose work its
 *   write ends (`Job.completeWithin`). The job and what it is about are then written together.
 *
 * Every queue is stately (see `Queue`).
 */

/** Rows as the database's driver answers them. */
type RawResult = { rows: Record<string, unknown>[] };

/** What the jobs need of the app's database (db/client.ts's Database is one). */
export type JobsDatabase = {
  /**
   * One statement with `$n` parameters, or, without parameters, a script of several; a `name`d
   * one is prepared once per connection (PostgreSQL).
   */
  execute: (sql: string, params?: unknown[], name?: string) => Promise<RawResult>;
  /** PostgreSQL only: a connection of its own, whose advisory locks live as long as it does. */
  openSession?: () => Promise<{
    query: (sql: string, params?: unknown[]) => Promise<RawResult>;
    onLost: (listener: (error: Error) => void) => void;
    close: () => Promise<void>;
  }>;
};

/** pg-boss's schema (migration 0017 made it, and the queues). */
const SCHEMA = 'pgboss';

export type JsonObject = Record<string, unknown>;

/** A queue and how its jobs are tried; its data's type `D` is the queue's own. */
export type Queue<D extends JsonObject> = {
  /**
   * As migration 0017 (or a later one) made it, stately: one job of each key waiting at a time
   * (a job sent meanwhile joins it) and one running (the next waits for it); without a key, one
   * of the queue.
   */
  name: string;
  /** Tries in all, the first included: a failure after the last one is final. */
  tries: number;
  /** Seconds before the second try; each next waits about twice as long (with jitter). */
  retryDelaySeconds: number;
  /**
   * How long one try may take: then its signal aborts, and past it another instance may take
   * the job again (a process that died mid-try leaves it running otherwise). Read at each send.
   */
  expireSeconds: number | (() => number | Promise<number>);
  /** The most jobs of the queue one instance runs at once. */
  concurrency: number;
  /** How often an idle instance looks for jobs sent elsewhere or due again (a local send wakes it at once). */
  pollMs: number;
  /** Only for the type of `data`. */
  readonly data?: D;
};

export function defineQueue<D extends JsonObject>(queue: Omit<Queue<D>, 'data'>): Queue<D> {
  return queue;
}

export type Job<D> = {
  id: string;
  data: D;
  /** 1 for the first try. */
  attempt: number;
  /** Whether no try follows this one if it fails. */
  lastAttempt: boolean;
  /** Aborts when the try must end: its time is up, or the server is stopping. */
  signal: AbortSignal;
  /**
   * Lets the handler's own statement mark the job done with `output` (see `JobCompletion`), in
   * the round trip of the write that ends its work; what the handler then answers is not kept.
   * `held`: what it is kept with instead if the statement's guard holds its write back.
   */
  completeWithin: (output: JsonObject, held?: JsonObject) => JobCompletion;
  /**
   * What the statement that inserted this job running here read for it (see `JobSlot.send`'s
   * `prefetched`): given to its first try in this process only, never to a try after a restart
   * or on another instance, which read it themselves.
   */
  prefetched?: unknown;
};

/**
 * A job marked done by a statement of its handler's (the SQL of `jobCompletionSql` in a CTE of
 * it, with `params`): the write that ends the job's work and the job's end are then one, and no
 * statement of the job system's follows. The statement calls `done` once it has run, with
 * whether its guard held the write back (the job is kept with its `held` output then).
 */
export type JobCompletion = { params: JobCompletionParams; done: (held?: boolean) => void };

/** What a handler answers is kept with its job (`output`). */
export type Handler<D> = (job: Job<D>) => Promise<JsonObject | void>;

/** A job sent: its id, and whether it joined a job of the same key already waiting (which will do its work). */
export type Sent = { id: string; joined: boolean };

/**
 * Room for one job of a queue that a statement of the caller's may insert itself, running here
 * (the SQL of `jobInsertSql` in a CTE of it, with `params()`), so that the job exists exactly when
 * what it is about does, in that one round trip. It does when this instance has room for it and
 * no job of its key runs anywhere; the statement tells the slot (`inserted`). Made by
 * `jobs.within`, which gives the room back when its work ends.
 */
export type JobSlot<D> = {
  /** The statement's parameters: they insert the job only while room is held for it here. */
  params: () => JobInsertParams;
  /**
   * What the statement inserted: the job (its `id`, `data` and `key`, and `running: false` when
   * it was inserted waiting, see `jobInsertOrWaitSql`), or none.
   */
  inserted: (
    job: { id: string; data: unknown; key: string | null; running?: boolean } | null | undefined,
  ) => void;
  /**
   * Sends the job: the one the statement inserted starts now, and otherwise it is sent as
   * `jobs.send` sends it (`data` is the data the statement inserted it with). `prefetched`: what
   * the statement read that the job's first try would read again, handed to that try when it
   * starts here now (see `Job.prefetched`).
   */
  send: (data: D, options?: { key?: string; prefetched?: unknown }) => Promise<Sent>;
};

export type Settled = {
  id: string;
  state: 'completed' | 'failed' | 'cancelled';
  output: JsonObject | null;
};

/** A queue's jobs now: waiting (due or not), running, and failed for good in the last hour. */
export type QueueFigures = {
  queue: string;
  waiting: number;
  active: number;
  failedLastHour: number;
};

export type Jobs = ReturnType<typeof createJobs>;

export type JobsOptions = {
  /** How often pg-boss expires jobs whose time is up and archives finished ones (one instance does it). */
  maintenanceIntervalSeconds: number;
  /**
   * How long a stop waits for the jobs running before it aborts them, and then for them to end:
   * twice this stays within the shutdown's own limit (main.ts, close-with-grace).
   */
  stopGraceMs: number;
};

export const DEFAULT_JOBS_OPTIONS: JobsOptions = {
  maintenanceIntervalSeconds: 30,
  stopGraceMs: 3_000,
};

/** The most jobs one statement sends, or fetches. */
const BATCH = 50;
/** A try is aborted at this share of its expiry, so that it ends before another may begin. */
const ABORT_AT = 0.9;
/**
 * A job due at a time is looked for this long after it: its `start_after` is the database's now
 * plus the delay, read a moment after this process's timer began.
 */
const DUE_MARGIN_MS = 50;
/** How often `settled` looks at a job finished by another instance. */
const SETTLED_POLL_MS = 25;

type Runner = {
  /** Marks the finished jobs done now and, with `fetch`, looks for jobs (a job was sent). */
  wake: (fetch?: boolean) => void;
  /** A job of `key` was sent here: once the job of that key running here ends, look again. */
  keySent: (key: string) => void;
  /**
   * A job sent here (`slot`: its key, or its id) becomes due in `ms`: looked for then, not at the
   * next poll after (a debounced reply would wait up to a poll longer than its burst asked).
   */
  dueIn: (slot: string, ms: number) => void;
  /** Holds room for a job being sent here, to be run at once; false when there is none. */
  reserve: () => boolean;
  /** Gives the room back, running in it the job sent, when it was inserted already running here. */
  settle: (row: Row | undefined) => void;
  /** Whether the job runs here now. */
  runs: (id: string) => boolean;
  stop: () => Promise<void>;
};

type Row = {
  id: string;
  data: JsonObject;
  retryCount: number;
  retryLimit: number;
  expireSeconds: number;
  key: string | null;
  /** See `Job.prefetched`. */
  prefetched?: unknown;
};

/**
 * The update that marks done, in queue `$1`, the jobs still owned by `$3` that the JSON record set
 * `records` (`id`, `output`) lists, each with its output. The jobs are found by their ids, said as
 * an array: joined to the record set alone, the planner may read every job the queue keeps (see
 * `byIds` in job-statements.ts).
 */
function completionSql(records: string): string {
  return `UPDATE ${SCHEMA}.job j SET completed_on = now(), state = 'completed', output = d.output
    FROM json_to_recordset(${records}::json) AS d(id uuid, output jsonb)
    WHERE j.name = $1
      AND j.id = ANY(ARRAY(SELECT x.id FROM json_to_recordset(${records}::json) AS x(id uuid)))
      AND j.id = d.id AND j.state = 'active' AND j.output->>'owner' = $3`;
}

/**
 * The app's job system over `database`. Features call `work`, `schedule` and `send` while the app
 * is built; `start` (once the database is migrated and the app ready) starts the work, `stop`
 * ends it.
 */
export function createJobs({
  database,
  logger,
  options: given,
}: {
  database: JobsDatabase;
  logger: FastifyBaseLogger;
  options?: Partial<JobsOptions>;
}) {
  const options = { ...DEFAULT_JOBS_OPTIONS, ...given };
  /** This process's mark on the jobs it runs (see `sweepOrphans`). */
  const owner = randomUUID();
  const workers = new Map<string, { queue: Queue<JsonObject>; handler: Handler<JsonObject> }>();
  const schedules: { queue: Queue<JsonObject>; cron: string }[] = [];
  const runners = new Map<string, Runner>();
  const sentListeners = new Set<(sent: Sent & { queue: string; data: JsonObject }) => void>();
  /** Jobs finished here: `settled` hears of them at once rather than at its next look. */
  const finishedListeners = new Set<(settled: Settled) => void>();
  let liveness: Awaited<ReturnType<NonNullable<JobsDatabase['openSession']>>> | undefined;
  let started = false;
  let stopping = false;

  const execute = (text: string, values?: unknown[], name?: string): Promise<RawResult> =>
    database.execute(text, values, name);

  // pg-boss (and the pg driver and cron parser it loads) loads while the rest of the app starts:
  // it is needed only at start.
  const loading = import('pg-boss');
  loading.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
  let boss: Promise<PgBoss> | undefined;
  function pgBoss(): Promise<PgBoss> {
    boss ??= loading.then(({ default: PgBossClass }) => {
      const instance = new PgBossClass({
        db: { executeSql: (text, values) => execute(text, values) },
        schema: SCHEMA,
        // The schema comes with the migrations; this only checks its version (and would migrate
        // it after an upgrade of pg-boss).
        migrate: true,
        supervise: true,
        maintenanceIntervalSeconds: options.maintenanceIntervalSeconds,
        // Cron schedules are minutes apart: the jobs they make are looked for every 30 s.
        schedule: true,
        cronWorkerIntervalSeconds: 30,
        // Finished jobs stay an hour (the monitor's figures), failed ones a day, in the archive a week.
        archiveCompletedAfterSeconds: 60 * 60,
        archiveFailedAfterSeconds: 24 * 60 * 60,
        deleteAfterDays: 7,
      });
      instance.on('error', (error) => logger.error({ err: error }, 'jobs: pg-boss failed'));
      return instance;
    });
    return boss;
  }

  /** How its queue has each job tried: pg-boss's options, which it keeps with the job. */
  async function tryOptions(queue: Queue<JsonObject>) {
    const expire =
      typeof queue.expireSeconds === 'function' ? await queue.expireSeconds() : queue.expireSeconds;
    return {
      retryLimit: queue.tries - 1,
      // pg-boss's backoff needs a delay of a second at least.
      retryDelay: Math.max(1, Math.round(queue.retryDelaySeconds)),
      retryBackoff: true,
      expireInSeconds: Math.max(1, Math.ceil(expire)),
    };
  }

  type Sending = {
    queue: string;
    data: JsonObject;
    key: string | null;
    options: Awaited<ReturnType<typeof tryOptions>>;
    /** Room is held for it here: inserted running here unless a job of its key runs. */
    claim: boolean;
    /** Not to start before this many ms from now (see `send`'s `startAfterMs`). */
    delayMs: number;
  };

  /** A job sent: as `Sent`, and whether it was inserted running here. */
  type Inserted = Sent & { claimed: boolean };

  /** The jobs' columns as the statements below insert them, from the JSON of `asRecords`. */
  const RECORDS = `json_to_recordset($2::json) AS x(
      n int, data jsonb, key text, retry_limit int, retry_delay int, expire int, delay int)`;
  const asRecords = (items: Sending[]) =>
    JSON.stringify(
      items.map((item, n) => ({
        n,
        data: item.data,
        key: item.key,
        retry_limit: item.options.retryLimit,
        retry_delay: item.options.retryDelay,
        expire: item.options.expireInSeconds,
        delay: item.delayMs,
      })),
    );

  /**
   * The jobs sent meanwhile (as pg-boss's insert makes a job: stately, the tries given, its other
   * columns' defaults), a statement or two per queue. Per (queue, key), the first is sent and the
   * others join it. One with room held here is inserted running here, as a fetch here would have
   * taken it: one plain INSERT, the unique index of running jobs refusing it when a job of its key
   * runs (here or elsewhere). The others, and those refused, are inserted waiting, unless a job of
   * their key waits already: they join that one. Undefined for one that found neither (a job of
   * its key inserted meanwhile by another instance, not yet seen): it is sent again.
   */
  const insertJobs = grouped(async (items: Sending[]): Promise<(Inserted | undefined)[]> => {
    const slot = (item: Sending) => `${item.queue}\n${item.key ?? ''}`;
    const firsts = new Map<string, Sending>();
    for (const item of items) if (!firsts.has(slot(item))) firsts.set(slot(item), item);
    const bySlot = new Map<string, Inserted | undefined>();
    const byQueue = new Map<string, Sending[]>();
    for (const item of firsts.values())
      byQueue.set(item.queue, [...(byQueue.get(item.queue) ?? []), item]);
    for (const [name, queued] of byQueue) {
      const claiming = queued.filter((item) => item.claim);
      if (claiming.length > 0) {
        const { rows } = await execute(
          `INSERT INTO ${SCHEMA}.job (name, data, singleton_key, retry_limit, retry_delay,
             retry_backoff, expire_in, policy, state, started_on, output)
           SELECT $1, x.data, x.key, x.retry_limit, x.retry_delay, true,
             x.expire * interval '1 second', 'stately', 'active', now(),
             jsonb_build_object('owner', $3::text)
           FROM ${RECORDS}
           ON CONFLICT DO NOTHING
           RETURNING id, COALESCE(singleton_key, '') AS key`,
          [name, asRecords(claiming), owner],
          'jobs_insert_running',
        );
        for (const item of claiming) {
          const row = rows.find((r) => r.key === (item.key ?? ''));
          if (row) bySlot.set(slot(item), { id: String(row.id), joined: false, claimed: true });
        }
      }
      const waiting = queued.filter((item) => !bySlot.has(slot(item)));
      if (waiting.length === 0) continue;
      const { rows } = await execute(
        `WITH x AS (SELECT * FROM ${RECORDS}), inserted AS (
           INSERT INTO ${SCHEMA}.job (name, data, singleton_key, retry_limit, retry_delay,
             retry_backoff, expire_in, policy, start_after)
           SELECT $1, data, key, retry_limit, retry_delay, true, expire * interval '1 second',
             'stately', now() + delay * interval '1 millisecond'
           FROM x ORDER BY n
           ON CONFLICT DO NOTHING
           RETURNING id, COALESCE(singleton_key, '') AS key
         ), before AS (
           SELECT j.id, COALESCE(j.singleton_key, '') AS key FROM ${SCHEMA}.job j
           WHERE j.name = $1 AND j.state = 'created' AND j.policy = 'stately'
             AND COALESCE(j.singleton_key, '') IN (SELECT COALESCE(key, '') FROM x)
         ), pushed AS (
           UPDATE ${SCHEMA}.job j
           SET start_after = GREATEST(j.start_after, now() + x.delay * interval '1 millisecond')
           FROM x
           WHERE x.delay > 0 AND j.name = $1 AND j.state = 'created' AND j.policy = 'stately'
             AND COALESCE(j.singleton_key, '') = COALESCE(x.key, '')
           RETURNING j.id
         )
         SELECT x.n, i.id AS inserted, b.id AS waiting FROM x
         LEFT JOIN inserted i ON i.key = COALESCE(x.key, '')
         LEFT JOIN before b ON b.key = COALESCE(x.key, '')`,
        [name, asRecords(waiting)],
        'jobs_insert_waiting_after',
      );
      waiting.forEach((item, n) => {
        const row = rows.find((r) => Number(r.n) === n);
        bySlot.set(
          slot(item),
          row?.inserted
            ? { id: String(row.inserted), joined: false, claimed: false }
            : row?.waiting
              ? { id: String(row.waiting), joined: true, claimed: false }
              : undefined,
        );
      });
    }
    return items.map((item) => {
      const sent = bySlot.get(slot(item));
      return sent && firsts.get(slot(item)) !== item
        ? { id: sent.id, joined: true, claimed: false }
        : sent;
    });
  }, BATCH);

  /**
   * Sends a job. With a key, a job of that key already waiting takes this one's place (its work
   * is the same and it has not begun, so it will see what this one would have): its id is
   * answered, `joined`. With `startAfterMs`, the job starts no sooner than that many ms from now
   * (the database's now, whatever instance), and a job of its key it joins is pushed as late:
   * a debounce that lives in the database, not in a process.
   */
  async function send<D extends JsonObject>(
    queue: Queue<D>,
    data: D,
    { key, startAfterMs = 0 }: { key?: string; startAfterMs?: number } = {},
  ): Promise<Sent> {
    const options = await tryOptions(queue as unknown as Queue<JsonObject>);
    const delayMs = Math.max(0, Math.round(startAfterMs));
    return sendWith(queue, data, key, options, delayMs === 0, delayMs);
  }

  /** `send`, with its try options read; `mayRun`: it may be inserted running here, if there is room. */
  async function sendWith<D extends JsonObject>(
    queue: Queue<D>,
    data: D,
    key: string | undefined,
    options: Awaited<ReturnType<typeof tryOptions>>,
    mayRun: boolean,
    delayMs = 0,
  ): Promise<Sent> {
    const runner = runners.get(queue.name);
    // The runner holding room for it, if it has some.
    const holder = mayRun && runner?.reserve() ? runner : undefined;
    let inserted: Inserted | undefined;
    try {
      for (let attempt = 0; attempt < 3 && !inserted; attempt += 1)
        inserted = await insertJobs({
          queue: queue.name,
          data,
          key: key ?? null,
          options,
          claim: holder !== undefined,
          delayMs,
        });
    } finally {
      holder?.settle(
        inserted?.claimed
          ? {
              id: inserted.id,
              data,
              retryCount: 0,
              retryLimit: options.retryLimit,
              expireSeconds: options.expireInSeconds,
              key: key ?? null,
            }
          : undefined,
      );
    }
    if (!inserted) throw new Error(`jobs: a job of ${queue.name} could not be sent`);
    const sent: Sent = { id: inserted.id, joined: inserted.joined };
    if (key !== undefined && !inserted.claimed) runner?.keySent(key);
    if (delayMs > 0) runner?.dueIn(key ?? sent.id, delayMs);
    else if (!sent.joined && !inserted.claimed) runner?.wake(true);
    for (const listener of sentListeners) listener({ ...sent, queue: queue.name, data });
    return sent;
  }

  /**
   * Runs `work` with a slot for one job of `queue` (see `JobSlot`), which a statement of `work`'s
   * may insert. The job starts at the slot's `send`, not before: what `work` does between its
   * statement and the send (what the job must see done) is done first. Once `work` ends, the
   * room held is given back, and a job inserted but not sent (`work` failed after its
   * statement) starts then: it exists, so it runs.
   */
  async function within<D extends JsonObject, T>(
    queue: Queue<D>,
    work: (slot: JobSlot<D>) => Promise<T>,
  ): Promise<T> {
    // Options that cannot be read now leave the job to `send`, which reports why.
    const options = await tryOptions(queue as unknown as Queue<JsonObject>).catch(() => undefined);
    const runner = options && runners.get(queue.name);
    /** Room is held here for the job. */
    let holding = false;
    /** A statement was given parameters that insert the job. */
    let tried = false;
    let done = false;
    let row: Row | undefined;
    /** The statement inserted the job waiting (no room here): it is looked for, not sent again. */
    let waiting: { id: string; data: JsonObject } | undefined;
    const release = () => {
      if (holding) runner!.settle(undefined);
      holding = false;
    };
    const start = (prefetched?: unknown): Sent => {
      holding = false;
      runner!.settle(prefetched === undefined ? row : { ...row!, prefetched });
      const sent = { id: row!.id, joined: false };
      for (const listener of sentListeners)
        listener({ ...sent, queue: queue.name, data: row!.data });
      return sent;
    };
    /** A job the statement inserted waiting: this instance looks for it at once. */
    const lookFor = (job: { id: string; data: JsonObject }): Sent => {
      runners.get(queue.name)?.wake(true);
      const sent = { id: job.id, joined: false };
      for (const listener of sentListeners)
        listener({ ...sent, queue: queue.name, data: job.data });
      return sent;
    };
    const slot: JobSlot<D> = {
      params() {
        if (!holding && !done && !row) holding = runner?.reserve() ?? false;
        const claim = holding && !row;
        tried ||= claim;
        return {
          jobQueue: queue.name,
          jobOwner: owner,
          jobClaim: claim,
          jobRetryLimit: options?.retryLimit ?? 0,
          jobRetryDelay: options?.retryDelay ?? 0,
          jobExpire: options?.expireInSeconds ?? 0,
        };
      },
      inserted(job) {
        if (job && job.running === false && !row && !waiting) {
          waiting = { id: String(job.id), data: (job.data ?? {}) as JsonObject };
          return;
        }
        if (!job || !holding || row || !options) return;
        row = {
          id: String(job.id),
          data: (job.data ?? {}) as JsonObject,
          retryCount: 0,
          retryLimit: options.retryLimit,
          expireSeconds: options.expireInSeconds,
          key: job.key ?? null,
        };
      },
      async send(data, { key, prefetched } = {}) {
        if (done) throw new Error(`jobs: a slot of ${queue.name} sends one job`);
        done = true;
        if (row) return start(prefetched);
        release();
        if (waiting) return lookFor(waiting);
        if (!options) return send(queue, data, { key });
        // A statement that could have inserted it running here inserted none: a job of its key
        // runs, so it waits; it is not tried running again.
        return sendWith(queue, data, key, options, !tried);
      },
    };
    try {
      return await work(slot);
    } finally {
      if (row && !done) {
        done = true;
        start();
      } else {
        release();
        if (waiting && !done) {
          done = true;
          lookFor(waiting);
        }
      }
    }
  }

  /** Runs `handler` for the queue's jobs on this instance, from `start` on. */
  function work<D extends JsonObject>(queue: Queue<D>, handler: Handler<D>): void {
    if (workers.has(queue.name)) throw new Error(`jobs: ${queue.name} is worked already`);
    workers.set(queue.name, {
      queue: queue as unknown as Queue<JsonObject>,
      handler: handler as Handler<JsonObject>,
    });
  }

  /**
   * Sends a job to the queue at each time of `cron` (UTC), from one instance whatever their
   * number: pg-boss keeps the schedule in the database and one instance sends each due job.
   */
  function schedule<D extends JsonObject>(queue: Queue<D>, cron: string): void {
    schedules.push({ queue: queue as unknown as Queue<JsonObject>, cron });
  }

  /** Starts pg-boss, the schedules and this instance's work (once the app is ready). */
  async function start(): Promise<void> {
    if (started) return;
    started = true;
    const instance = await pgBoss();
    await instance.start();
    for (const { queue, cron } of schedules)
      await instance.schedule(queue.name, cron, {}, { ...(await tryOptions(queue)), tz: 'UTC' });
    // A queue worked here that no migration made yet is made now (pg-boss's own function, which
    // leaves one that exists alone, made meanwhile by another instance included). Two instances
    // starting together on a new database make the same queue at once: PostgreSQL ends one of
    // them (a deadlock, or the other's row first), which looks again and finds the queue made.
    for (const name of workers.keys())
      for (let attempt = 1; ; attempt += 1) {
        try {
          await execute(
            `SELECT ${SCHEMA}.create_queue($1, $2::json)
             WHERE NOT EXISTS (SELECT 1 FROM ${SCHEMA}.queue WHERE name = $1)`,
            [name, JSON.stringify({ policy: 'stately' })],
          );
          break;
        } catch (error) {
          if (
            attempt >= 5 ||
            !(
              hasSqlState(error, SQL_STATE.deadlock) ||
              hasSqlState(error, SQL_STATE.uniqueViolation)
            )
          )
            throw error;
        }
      }
    if (database.openSession) await holdLiveness();
    await sweepOrphans();
    // On PostgreSQL, a dead instance's running jobs are looked for as often as pg-boss maintains
    // (by whichever instance does it), long before their expiry.
    if (database.openSession)
      instance.on('maintenance', () => {
        sweepOrphans().catch((error: unknown) =>
          logger.error({ err: error }, 'jobs: could not look for the jobs of stopped instances'),
        );
      });
    for (const [name, { queue, handler }] of workers) {
      const runner = createRunner(queue, handler);
      runners.set(name, runner);
      // What was sent before now (at start, or while stopped) is looked for at once.
      runner.wake(true);
    }
  }

  /**
   * Takes, for as long as this process lives, a lock named after its mark in a session of its own:
   * PostgreSQL lets it go the moment the process dies (kill -9 included), its connection with it.
   * A session that breaks while the process lives (the database restarted, the network dropped)
   * is opened again: meanwhile another instance may take this one's running jobs back, and a job
   * may then be tried twice at once.
   */
  async function holdLiveness(): Promise<void> {
    const session = await database.openSession!();
    session.onLost((error) => {
      if (stopping) return;
      logger.error({ err: error }, 'jobs: the session holding this instance’s mark broke');
      liveness = undefined;
      void holdAgain(1000);
    });
    await session.query(`SELECT pg_advisory_lock(${ownerLock('$1')})`, [owner]);
    liveness = session;
  }

  /** Opens the mark's session again after `delayMs`, waiting twice as long after each failure. */
  async function holdAgain(delayMs: number): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, delayMs).unref());
    if (stopping || liveness) return;
    try {
      await holdLiveness();
    } catch (error) {
      logger.warn({ err: error }, 'jobs: the session holding this instance’s mark cannot reopen');
      await holdAgain(Math.min(delayMs * 2, 30_000));
    }
  }

  /**
   * Gives back to their queues (as a failed try, retried after its delay) the jobs left running by
   * a process that is gone. On the embedded database only one process can have it (DATA_DIR's
   * lock), so at start every running job is one. On PostgreSQL, those whose owner's lock (see
   * holdLiveness) can be taken: its session, and so its process, is gone.
   */
  async function sweepOrphans(): Promise<void> {
    let rows: RawResult['rows'];
    if (!database.openSession) {
      rows = (await execute(`SELECT name, id FROM ${SCHEMA}.job WHERE state = 'active'`, [])).rows;
    } else {
      // Its own session broken, this instance cannot tell: the next sweep, once it is back, will.
      const session = liveness;
      if (!session) return;
      const { rows: dead } = await session.query(
        `WITH owners AS (
           SELECT DISTINCT output->>'owner' AS owner FROM ${SCHEMA}.job
           WHERE state = 'active' AND output->>'owner' IS NOT NULL AND output->>'owner' <> $1
         )
         SELECT owner FROM owners WHERE pg_try_advisory_lock(${ownerLock('owner')})`,
        [owner],
      );
      const owners = dead.map((row) => String(row.owner));
      if (owners.length === 0) return;
      // Taken only to learn it was free: let it go at once.
      for (const gone of owners)
        await session.query(`SELECT pg_advisory_unlock(${ownerLock('$1')})`, [gone]);
      rows = (
        await execute(
          `SELECT name, id FROM ${SCHEMA}.job WHERE state = 'active' AND output->>'owner' = ANY($1::text[])`,
          [owners],
        )
      ).rows;
    }
    if (rows.length === 0) return;
    const instance = await pgBoss();
    const byQueue = new Map<string, string[]>();
    for (const row of rows) {
      const list = byQueue.get(String(row.name)) ?? [];
      list.push(String(row.id));
      byQueue.set(String(row.name), list);
    }
    for (const [name, ids] of byQueue) {
      for (const id of ids)
        await instance.fail(name, id, { message: 'the process running it stopped' });
      logger.warn({ queue: name, jobs: ids.length }, 'jobs: taken back from a stopped process');
      runners.get(name)?.wake(true);
    }
  }

  /**
   * One queue's work on this instance, a statement at a time: each marks the jobs finished since
   * the last one done and, when there is reason to look, takes as many due jobs as there is room
   * for (a cycle). One runs when woken (a job ending; a local send that must wait, which looks;
   * while one runs, the next follows it), and every `pollMs` when idle, which looks (jobs sent by
   * other instances, or due again after a failed try). A job sent here with room here needs no
   * look: it was inserted running here (see `insertJobs`).
   */
  function createRunner(queue: Queue<JsonObject>, handler: Handler<JsonObject>): Runner {
    let inFlight = 0;
    /** Room held for jobs being sent here (see `reserve`). */
    let reserved = 0;
    let cycling: Promise<void> | undefined;
    /** Woken during a cycle, or more may be due: another cycle follows this one. */
    let again = false;
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    /** The looks for jobs sent here to start later, one per key (the latest send's). */
    const dueTimers = new Map<string, NodeJS.Timeout>();
    const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
    /** Keys running here, and those with a job sent meanwhile (which waits for it to end). */
    const runningKeys = new Map<string, number>();
    const waitingKeys = new Set<string>();
    /** Finished here, to be marked done by the next cycle. */
    let completions: { id: string; output: JsonObject | null }[] = [];
    /** One of those let a key's waiting job go: fetchable once they are done, so a look after. */
    let freed = false;
    /** A job may wait to be fetched: the next cycle looks. */
    let look = false;

    function wake(fetch = false): void {
      look ||= fetch;
      if (cycling) {
        again = true;
        return;
      }
      if (stopped && completions.length === 0) return;
      clearTimeout(timer);
      timer = undefined;
      again = false;
      cycling = cycle()
        .catch((error: unknown) => logger.error({ err: error, queue: queue.name }, 'jobs: failed'))
        .finally(() => {
          cycling = undefined;
          if (again) setImmediate(wake);
          else if (!stopped) poll();
        });
    }

    function poll(): void {
      if (stopped || timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        wake(true);
      }, queue.pollMs);
      timer.unref();
    }

    async function cycle(): Promise<void> {
      const done = completions;
      completions = [];
      const follow = freed;
      freed = false;
      const room = stopped
        ? 0
        : Math.max(0, Math.min(BATCH, queue.concurrency - inFlight - reserved));
      const fetching = look && room > 0;
      look = false;
      if (!fetching && done.length === 0) return;
      let rows: Row[] = [];
      try {
        if (fetching) rows = await completeAndFetch(queue.name, done, room);
        else await complete(queue.name, done);
      } catch (error) {
        // Nothing of the statement was kept: its completions go with the next one.
        completions = [...done, ...completions];
        freed ||= follow;
        look ||= fetching;
        // Another instance took a job of the same key at the same moment: look again at once.
        if (hasSqlState(error, SQL_STATE.uniqueViolation)) again = true;
        else logger.error({ err: error, queue: queue.name }, 'jobs: could not fetch');
        return;
      }
      for (const { id, output } of done) finished({ id, state: 'completed', output });
      for (const row of rows) run(row);
      // More may be due; or a key's waiting job may go now that its predecessor is marked done.
      if ((fetching && rows.length === room) || follow) {
        look = true;
        again = true;
      }
    }

    function run(row: Row): void {
      inFlight += 1;
      if (row.key !== null) runningKeys.set(row.key, (runningKeys.get(row.key) ?? 0) + 1);
      const controller = new AbortController();
      const expiry = setTimeout(
        () => controller.abort(new Error(`the job ran past ${ABORT_AT * 100}% of its expiry`)),
        row.expireSeconds * 1000 * ABORT_AT,
      );
      /** What the handler's own statement marked the job done with (see `completeWithin`). */
      let completed: { output: JsonObject } | undefined;
      const done = (async () => {
        let output: JsonObject | void;
        try {
          output = await handler({
            id: row.id,
            data: row.data,
            attempt: row.retryCount + 1,
            lastAttempt: row.retryCount >= row.retryLimit,
            signal: controller.signal,
            completeWithin: (given, held) => ({
              params: {
                jobQueue: queue.name,
                jobOwner: owner,
                jobId: row.id,
                jobOutput: JSON.stringify(given),
                jobOutputHeld: JSON.stringify(held ?? null),
              },
              done: (wasHeld = false) => {
                completed = { output: (wasHeld && held) || given };
              },
            }),
            ...(row.prefetched === undefined ? {} : { prefetched: row.prefetched }),
          });
        } catch (error) {
          if (completed) {
            // Marked done already: what failed after that is not tried again.
            logger.error(
              { err: error, queue: queue.name, job: row.id },
              'jobs: a job failed after it was marked done',
            );
            return;
          }
          const last = row.retryCount >= row.retryLimit;
          logger[last ? 'error' : 'warn'](
            { err: error, queue: queue.name, job: row.id, attempt: row.retryCount + 1 },
            last ? 'jobs: the last try failed' : 'jobs: a try failed; tried again later',
          );
          await fail(row.id, error);
          // Its next try, or a job of its key that waited, is due in a while: looked for then.
          return;
        } finally {
          clearTimeout(expiry);
          running.delete(row.id);
          inFlight -= 1;
          const freedKey = row.key !== null && endKey(row.key);
          // Marked done by the handler's statement: a job of its key that waited can go now.
          if (completed) {
            finished({ id: row.id, state: 'completed', output: completed.output });
            if (freedKey) look = true;
          } else if (freedKey) freed = true;
        }
        if (!completed) completions.push({ id: row.id, output: output ?? null });
      })().finally(wake);
      running.set(row.id, { controller, done });
    }

    /** Whether a job of `key` was sent while it ran here: it can be fetched once this one is done. */
    function endKey(key: string): boolean {
      const left = (runningKeys.get(key) ?? 1) - 1;
      if (left > 0) {
        runningKeys.set(key, left);
        return false;
      }
      runningKeys.delete(key);
      return waitingKeys.delete(key);
    }

    async function fail(id: string, error: unknown): Promise<void> {
      try {
        const instance = await pgBoss();
        await instance.fail(queue.name, id, {
          message: error instanceof Error ? error.message : String(error),
        });
        const { rows } = await execute(
          `SELECT state, output FROM ${SCHEMA}.job WHERE name = $1 AND id = $2`,
          [queue.name, id],
        );
        if (rows[0]?.state === 'failed')
          finished({ id, state: 'failed', output: (rows[0].output as JsonObject) ?? null });
      } catch (failure) {
        logger.error({ err: failure, queue: queue.name, job: id }, 'jobs: could not fail a job');
      }
    }

    return {
      wake,
      keySent(key) {
        if (runningKeys.has(key)) waitingKeys.add(key);
      },
      dueIn(slot, ms) {
        if (stopped) return;
        clearTimeout(dueTimers.get(slot));
        const due = setTimeout(() => {
          dueTimers.delete(slot);
          wake(true);
        }, ms + DUE_MARGIN_MS);
        due.unref();
        dueTimers.set(slot, due);
      },
      reserve() {
        if (stopped || inFlight + reserved >= queue.concurrency) return false;
        reserved += 1;
        return true;
      },
      runs: (id) => running.has(id),
      settle(row) {
        reserved -= 1;
        // Stopped meanwhile: left running, it is taken back as a stopped process's.
        if (row && !stopped) run(row);
      },
      async stop() {
        stopped = true;
        clearTimeout(timer);
        for (const due of dueTimers.values()) clearTimeout(due);
        dueTimers.clear();
        await cycling;
        const all = () => Promise.allSettled([...running.values()].map((r) => r.done));
        const grace = () =>
          new Promise((resolve) => setTimeout(resolve, options.stopGraceMs).unref());
        if (running.size > 0) {
          await Promise.race([all(), grace()]);
          for (const { controller } of running.values())
            controller.abort(new Error('the server is stopping'));
          // A try that does not heed its signal is left to its expiry (or the next start's sweep).
          await Promise.race([all(), grace()]);
          if (running.size > 0)
            logger.warn(
              { queue: queue.name, jobs: running.size },
              'jobs: stopped with tries under way',
            );
        }
        // The last completions (the cycle each ending job woke may have been skipped meanwhile).
        while (cycling) await cycling;
        if (completions.length > 0) wake();
        await cycling;
      },
    };
  }

  /** Marks `done` done, if still this process's (see completeAndFetch). */
  async function complete(
    name: string,
    done: { id: string; output: JsonObject | null }[],
  ): Promise<void> {
    await execute(completionSql('$2'), [name, JSON.stringify(done), owner], 'jobs_complete');
  }

  /**
   * One cycle's statement: marks `done` done, if still this process's (one taken back meanwhile,
   * this instance thought gone, is another try's now), and takes up to `limit` due jobs of the
   * queue, none of a key running anywhere and one per key, as this process's. A job of a key
   * marked done here is not seen done by the fetch of the same statement: the next cycle takes it.
   *
   * The look for a running job of the same key is written with the policy and the expression of
   * pg-boss's index of stately jobs, which serves it (any other form reads every job the queue
   * keeps, finished ones included, for each candidate).
   */
  async function completeAndFetch(
    name: string,
    done: { id: string; output: JsonObject | null }[],
    limit: number,
  ): Promise<Row[]> {
    const { rows } = await execute(
      `WITH done AS (${completionSql('$4')}), next AS (
         SELECT id, singleton_key, policy FROM ${SCHEMA}.job j
         WHERE name = $1 AND state < 'active' AND start_after < now()
           AND NOT (policy = 'stately' AND EXISTS (
             SELECT 1 FROM ${SCHEMA}.job a
             WHERE a.name = $1 AND a.state = 'active' AND a.policy = 'stately'
               AND COALESCE(a.singleton_key, '') = COALESCE(j.singleton_key, '')))
         ORDER BY priority DESC, created_on, id
         LIMIT $2
         FOR UPDATE SKIP LOCKED
       ), grouped AS (
         SELECT id, row_number() OVER (PARTITION BY CASE
           WHEN policy = 'stately' THEN COALESCE(singleton_key, '')
           ELSE id::text END) AS n
         FROM next
       )
       UPDATE ${SCHEMA}.job j SET state = 'active', started_on = now(),
         retry_count = CASE WHEN started_on IS NOT NULL THEN retry_count + 1 ELSE retry_count END,
         output = jsonb_build_object('owner', $3::text)
       FROM grouped
       WHERE j.name = $1 AND j.id = grouped.id AND grouped.n = 1
       RETURNING j.id, j.data, j.retry_count AS "retryCount", j.retry_limit AS "retryLimit",
         EXTRACT(epoch FROM j.expire_in)::float8 AS "expireSeconds", j.singleton_key AS key`,
      [name, limit, owner, JSON.stringify(done)],
      'jobs_complete_fetch',
    );
    return rows.map((row) => ({
      id: String(row.id),
      data: (row.data ?? {}) as JsonObject,
      retryCount: Number(row.retryCount),
      retryLimit: Number(row.retryLimit),
      expireSeconds: Number(row.expireSeconds),
      key: row.key === null || row.key === undefined ? null : String(row.key),
    }));
  }

  function finished(settled: Settled): void {
    for (const listener of finishedListeners) listener(settled);
  }

  /**
   * Resolves once the job has finished, here or on another instance: done, failed for good or
   * cancelled. Rejects after `timeoutMs`, saying which job it waited for and where it stood.
   */
  async function settled(
    queue: { name: string },
    id: string,
    { timeoutMs = 15_000 }: { timeoutMs?: number } = {},
  ): Promise<Settled> {
    let heard: Settled | undefined;
    let wakeUp = () => {};
    const listener = (done: Settled) => {
      if (done.id !== id) return;
      heard = done;
      wakeUp();
    };
    finishedListeners.add(listener);
    const deadline = Date.now() + timeoutMs;
    try {
      for (;;) {
        if (heard) return heard;
        // A job running here is heard of as it ends (its handler's own statement may have marked
        // it done before the handler has returned); another is looked at in the database.
        const runsHere = [...runners.values()].some((runner) => runner.runs(id));
        const row = runsHere
          ? undefined
          : (
              await execute(
                `SELECT state, output FROM ${SCHEMA}.job WHERE name = $1 AND id = $2
                 UNION ALL SELECT state, output FROM ${SCHEMA}.archive WHERE name = $1 AND id = $2`,
                [queue.name, id],
              )
            ).rows[0];
        const state = runsHere ? 'active' : String(row?.state ?? 'missing');
        if (state === 'completed' || state === 'failed' || state === 'cancelled')
          return { id, state, output: (row!.output as JsonObject | null) ?? null };
        if (Date.now() > deadline)
          throw new Error(
            `jobs: ${queue.name} job ${id} not finished within ${timeoutMs} ms (${state})`,
          );
        await new Promise<void>((resolve) => {
          wakeUp = resolve;
          setTimeout(resolve, SETTLED_POLL_MS);
        });
      }
    } finally {
      finishedListeners.delete(listener);
    }
  }

  /** Every queue's figures (the monitor's), pg-boss's own left out. */
  async function figures(): Promise<QueueFigures[]> {
    const { rows } = await execute(
      `SELECT q.name,
         count(j.id) FILTER (WHERE j.state < 'active')::int AS waiting,
         count(j.id) FILTER (WHERE j.state = 'active')::int AS active,
         count(j.id) FILTER (WHERE j.state = 'failed' AND j.completed_on > now() - interval '1 hour')::int AS failed
       FROM ${SCHEMA}.queue q LEFT JOIN ${SCHEMA}.job j ON j.name = q.name
       WHERE q.name NOT LIKE '\\_\\_pgboss\\_\\_%'
       GROUP BY q.name ORDER BY q.name`,
      [],
    );
    return rows.map((row) => ({
      queue: String(row.name),
      waiting: Number(row.waiting),
      active: Number(row.active),
      failedLastHour: Number(row.failed),
    }));
  }

  /** Stops the work here: the jobs running get `stopGraceMs` to end, then their signal aborts. */
  async function stop(): Promise<void> {
    stopping = true;
    await Promise.all([...runners.values()].map((runner) => runner.stop()));
    runners.clear();
    if (boss) {
      const instance = await boss;
      if (started) await instance.stop({ graceful: false, close: false });
    }
    await liveness?.close();
  }

  return {
    send,
    work,
    schedule,
    start,
    stop,
    within,
    settled,
    figures,
    /** Told of each job sent from this instance, as it is sent (tests follow what they cause). */
    onSent(listener: (sent: Sent & { queue: string; data: JsonObject }) => void): () => void {
      sentListeners.add(listener);
      return () => sentListeners.delete(listener);
    },
  };
}

/** The advisory lock of an owner's mark, `value` being SQL for its text. */
function ownerLock(value: string): string {
  return `hashtextextended('contrateia-jobs:' || ${value}, 0)`;
}

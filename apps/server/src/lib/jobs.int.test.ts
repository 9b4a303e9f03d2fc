import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test/eventually';
import { createTestDatabase } from '../../test/helpers';
import { createGate } from '../../test/fake-openai';
import { sql } from 'drizzle-orm';
import { jobCompletionSql, jobInsertSql } from './job-statements';
import {
  createJobs,
  defineQueue,
  type Job,
  type JobCompletion,
  type Jobs,
  type JobSlot,
  type JsonObject,
} from './jobs';

/**
 * The job system on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): what the
 * features rely on, each through queues made for the test as migrations make the app's.
 */

type Database = Awaited<ReturnType<typeof createTestDatabase>>;

let database: Database;
const logs: string[] = [];
const logger = pino(
  { level: 'info' },
  new Writable({
    write(chunk, _encoding, callback) {
      logs.push(String(chunk));
      callback();
    },
  }),
);
const started: Jobs[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  for (const jobs of started.splice(0)) await jobs.stop();
});
afterAll(async () => database?.drop());

/** A stately queue of its own (as migration 0017 makes the app's), and its spec. */
async function newQueue(spec: Partial<Parameters<typeof defineQueue>[0]> = {}) {
  const name = `test-${randomBytes(4).toString('hex')}`;
  await database.execute(`SELECT pgboss.create_queue($1, $2)`, [name, { policy: 'stately' }]);
  return defineQueue<JsonObject>({
    name,
    tries: 1,
    retryDelaySeconds: 1,
    expireSeconds: 60,
    concurrency: 10,
    // Long: a job sent here runs because the send woke the worker, not because it looked again.
    pollMs: 60_000,
    ...spec,
  });
}

function newJobs(options?: Parameters<typeof createJobs>[0]['options']): Jobs {
  const jobs = createJobs({ database, logger, options });
  started.push(jobs);
  return jobs;
}

/** A statement of the test's own (a name of its own, prepared) that also inserts the slot's job. */
async function insertWithin(slot: JobSlot<JsonObject>, data: JsonObject, key: string) {
  const { db } = database;
  const job = db.$with('job', {}).as(
    jobInsertSql({
      from: sql`(select 1) as one`,
      data: sql`${JSON.stringify(data)}::jsonb`,
      key: sql`${key}::text`,
    }),
  );
  const [row] = await db
    .with(job)
    .select({
      job: sql<{ id: string; data: unknown; key: string } | null>`(
        select json_build_object('id', id, 'data', data, 'key', key) from job)`,
    })
    .from(sql`(select 1) as written`)
    .prepare(`test_job_insert_${randomBytes(4).toString('hex')}`)
    .execute(slot.params());
  slot.inserted(row?.job);
  return row?.job ?? null;
}

/**
 * A handler's statement of its own that also marks its job done; with `held`, its guard holds its
 * write back (the job is kept with its `held` output).
 */
async function completeWithin(completion: JobCompletion, held = false): Promise<void> {
  const { db } = database;
  await db
    .with(db.$with('done', {}).as(jobCompletionSql({ held: sql`${held}::boolean` })))
    .select({ one: sql<number>`1` })
    .from(sql`(select 1) as written`)
    .prepare(`test_job_done_${randomBytes(4).toString('hex')}`)
    .execute(completion.params);
  completion.done(held);
}

async function stateOf(queue: { name: string }, id: string): Promise<string> {
  const { rows } = await database.execute(
    `SELECT state FROM pgboss.job WHERE name = $1 AND id = $2`,
    [queue.name, id],
  );
  return String(rows[0]?.state);
}

describe('jobs', () => {
  it('runs a job sent here at once, and keeps what its handler answered', async () => {
    const queue = await newQueue();
    const jobs = newJobs();
    jobs.work(queue, async ({ data }) => ({ doubled: Number(data.n) * 2 }));
    await jobs.start();
    const sent = await jobs.send(queue, { n: 21 });
    expect(sent.joined).toBe(false);
    expect(await jobs.settled(queue, sent.id, { timeoutMs: 5_000 })).toEqual({
      id: sent.id,
      state: 'completed',
      output: { doubled: 42 },
    });
  });

  it('keeps one job of a key waiting and one running; other keys go past a key that runs', async () => {
    const queue = await newQueue();
    const jobs = newJobs();
    const gate = createGate();
    const runs: string[] = [];
    let firstRunning!: () => void;
    const running = new Promise<void>((resolve) => (firstRunning = resolve));
    jobs.work(queue, async ({ data }) => {
      runs.push(String(data.label));
      if (data.label === 'a1') {
        firstRunning();
        await gate.opened;
      }
    });
    await jobs.start();
    const a1 = await jobs.send(queue, { label: 'a1' }, { key: 'a' });
    await running;
    // While a1 runs, a2 waits for it; a3 joins a2 (one job of a key waits at a time).
    const a2 = await jobs.send(queue, { label: 'a2' }, { key: 'a' });
    const a3 = await jobs.send(queue, { label: 'a3' }, { key: 'a' });
    expect(a2.joined).toBe(false);
    expect(a3).toEqual({ id: a2.id, joined: true });
    // Another key's job is not held by a2, whose key runs.
    const b1 = await jobs.send(queue, { label: 'b1' }, { key: 'b' });
    expect((await jobs.settled(queue, b1.id, { timeoutMs: 5_000 })).state).toBe('completed');
    expect(await stateOf(queue, a2.id)).toBe('created');
    gate.open();
    expect((await jobs.settled(queue, a2.id, { timeoutMs: 5_000 })).state).toBe('completed');
    expect((await jobs.settled(queue, a1.id, { timeoutMs: 5_000 })).state).toBe('completed');
    expect(runs).toEqual(['a1', 'b1', 'a2']);
  });

  it('starts a job sent with startAfterMs no sooner, and a job of its key sent meanwhile with a wait joins it and pushes it later', async () => {
    const queue = await newQueue({ pollMs: 50 });
    const jobs = newJobs();
    const runs: { label: string; at: number }[] = [];
    jobs.work(queue, async ({ data }) => {
      runs.push({ label: String(data.label), at: Date.now() });
    });
    await jobs.start();
    const sentAt = Date.now();
    const first = await jobs.send(queue, { label: 'first' }, { key: 'k', startAfterMs: 600 });
    const startAfter = async () =>
      Number(
        (
          await database.execute(
            `SELECT extract(epoch FROM start_after - now()) * 1000 AS ms FROM pgboss.job WHERE name = $1 AND id = $2`,
            [queue.name, first.id],
          )
        ).rows[0]?.ms,
      );
    expect(await stateOf(queue, first.id)).toBe('created');
    // Sent again meanwhile, with a longer wait: the same job, due that much later now.
    const second = await jobs.send(queue, { label: 'second' }, { key: 'k', startAfterMs: 1200 });
    expect(second).toEqual({ id: first.id, joined: true });
    expect(await startAfter()).toBeGreaterThan(900);
    expect((await jobs.settled(queue, first.id, { timeoutMs: 10_000 })).state).toBe('completed');
    expect(runs.map((run) => run.label)).toEqual(['first']);
    expect(runs[0]!.at - sentAt).toBeGreaterThanOrEqual(1200);
  });

  it('looks for a job sent here to start later when it is due, not at its queue’s next poll', async () => {
    // The queue looks again only after a minute: the job runs because its sender looked when due.
    const queue = await newQueue();
    const jobs = newJobs();
    const runs: string[] = [];
    jobs.work(queue, async ({ data }) => {
      runs.push(String(data.label));
    });
    await jobs.start();
    const first = await jobs.send(queue, { label: 'first' }, { key: 'k', startAfterMs: 300 });
    // Pushed later by a second of its key: looked for at the later time.
    await jobs.send(queue, { label: 'second' }, { key: 'k', startAfterMs: 600 });
    expect((await jobs.settled(queue, first.id, { timeoutMs: 10_000 })).state).toBe('completed');
    expect(runs).toEqual(['first']);
  });

  it('tries a failing job again after a delay, up to its tries; the last try knows it is the last', async () => {
    const queue = await newQueue({ tries: 3, pollMs: 200 });
    const jobs = newJobs();
    const tries: Pick<Job<JsonObject>, 'attempt' | 'lastAttempt'>[] = [];
    jobs.work(queue, async ({ attempt, lastAttempt }) => {
      tries.push({ attempt, lastAttempt });
      throw new Error(`try ${attempt} failed`);
    });
    await jobs.start();
    const sent = await jobs.send(queue, {});
    const settled = await jobs.settled(queue, sent.id, { timeoutMs: 15_000 });
    expect(settled.state).toBe('failed');
    expect(settled.output).toMatchObject({ message: 'try 3 failed' });
    expect(tries).toEqual([
      { attempt: 1, lastAttempt: false },
      { attempt: 2, lastAttempt: false },
      { attempt: 3, lastAttempt: true },
    ]);
  });

  it('aborts a try that runs past its expiry, and tries the job again', async () => {
    const queue = await newQueue({ tries: 2, expireSeconds: 1, pollMs: 200 });
    const jobs = newJobs();
    const reasons: string[] = [];
    jobs.work(queue, async ({ attempt, signal }) => {
      if (attempt > 1) return { attempt };
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
      reasons.push(String((signal.reason as Error).message));
      signal.throwIfAborted();
    });
    await jobs.start();
    const sent = await jobs.send(queue, {});
    const settled = await jobs.settled(queue, sent.id, { timeoutMs: 15_000 });
    expect(settled).toMatchObject({ state: 'completed', output: { attempt: 2 } });
    expect(reasons).toEqual(['the job ran past 90% of its expiry']);
  });

  it('takes back at start the jobs a stopped process left running, and runs them again', async () => {
    const queue = await newQueue({ tries: 2, pollMs: 200 });
    const id = await leftRunningByAGoneProcess(queue);
    const next = newJobs();
    next.work(queue, async ({ attempt }) => ({ attempt }));
    await next.start();
    expect(await next.settled(queue, id, { timeoutMs: 10_000 })).toMatchObject({
      state: 'completed',
      output: { attempt: 2 },
    });
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'on PostgreSQL, takes back the jobs of an instance that is gone, never those of one alive',
    async () => {
      const queue = await newQueue({ tries: 2, pollMs: 200 });
      const alive = newJobs();
      const gate = createGate();
      let runningNow!: () => void;
      const running = new Promise<void>((resolve) => (runningNow = resolve));
      alive.work(queue, async ({ data, attempt }) => {
        if (data.hold) {
          runningNow();
          await gate.opened;
        }
        return { attempt };
      });
      await alive.start();
      const held = await alive.send(queue, { hold: true }, { key: 'held' });
      await running;
      // Another instance, which looks for gone instances' jobs as often as pg-boss maintains.
      const other = newJobs({ maintenanceIntervalSeconds: 1 });
      other.work(queue, async ({ attempt }) => ({ attempt }));
      await other.start();
      const orphan = await leftRunningByAGoneProcess(queue);
      expect(await other.settled(queue, orphan, { timeoutMs: 10_000 })).toMatchObject({
        state: 'completed',
        output: { attempt: 2 },
      });
      // The job of the instance alive, running all along, is still its own.
      expect(await stateOf(queue, held.id)).toBe('active');
      gate.open();
      expect((await alive.settled(queue, held.id, { timeoutMs: 5_000 })).output).toEqual({
        attempt: 1,
      });
    },
  );

  it('on stop, lets the tries under way end, aborts those still running after its grace, and gives them back', async () => {
    const queue = await newQueue({ tries: 2 });
    const jobs = createJobs({ database, logger, options: { stopGraceMs: 200 } });
    const quick = createGate();
    let bothRunning!: () => void;
    let runningCount = 0;
    const running = new Promise<void>((resolve) => (bothRunning = resolve));
    jobs.work(queue, async ({ data, signal }) => {
      if (++runningCount === 2) bothRunning();
      if (data.quick) return void (await quick.opened);
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
      signal.throwIfAborted();
    });
    await jobs.start();
    const fast = await jobs.send(queue, { quick: true }, { key: 'fast' });
    const slow = await jobs.send(queue, {}, { key: 'slow' });
    await running;
    const stopping = jobs.stop();
    quick.open();
    await stopping;
    expect(await stateOf(queue, fast.id)).toBe('completed');
    // Tried again later (by this instance's next start, or another's worker).
    expect(await stateOf(queue, slow.id)).toBe('retry');
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'on PostgreSQL, holds its mark again when the session holding it breaks',
    async () => {
      const jobs = newJobs();
      await jobs.start();
      const holders = async () =>
        (
          await database.execute(
            `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted
               AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
            [],
          )
        ).rows.map((row) => Number(row.pid));
      const [pid] = await holders();
      expect(pid).toBeDefined();
      await database.execute(`SELECT pg_terminate_backend($1)`, [pid]);
      await eventually(
        async () => (await holders()).some((holder) => holder !== pid),
        'the mark held by a new session',
        10_000,
      );
    },
  );

  it('starts the job a statement of its caller inserted when the slot sends it, and its handler’s statement ends it', async () => {
    const queue = await newQueue();
    const jobs = newJobs();
    const runs: JsonObject[] = [];
    jobs.work(queue, async (job) => {
      runs.push(job.data);
      await completeWithin(job.completeWithin({ by: 'statement' }));
      return { by: 'handler' };
    });
    await jobs.start();
    const sent = await jobs.within(queue, async (slot) => {
      const inserted = await insertWithin(slot, { n: 1 }, 'k');
      // Inserted running here, and not started before the send.
      expect(inserted).toMatchObject({ data: { n: 1 }, key: 'k' });
      expect(await stateOf(queue, inserted!.id)).toBe('active');
      expect(runs).toEqual([]);
      const job = await slot.send({ n: 1 }, { key: 'k' });
      expect(job).toEqual({ id: inserted!.id, joined: false });
      return job;
    });
    expect(await jobs.settled(queue, sent.id, { timeoutMs: 5_000 })).toEqual({
      id: sent.id,
      state: 'completed',
      output: { by: 'statement' },
    });
    expect(runs).toEqual([{ n: 1 }]);
    expect(await stateOf(queue, sent.id)).toBe('completed');
  });

  it('keeps a job its handler’s statement held back with its `held` output, in the database and for `settled`', async () => {
    const queue = await newQueue();
    const jobs = newJobs();
    jobs.work(queue, async (job) => {
      await completeWithin(
        job.completeWithin({ outcome: 'written' }, { outcome: 'held' }),
        job.data.hold === true,
      );
    });
    await jobs.start();
    const held = await jobs.send(queue, { hold: true });
    const written = await jobs.send(queue, { hold: false });
    expect((await jobs.settled(queue, held.id, { timeoutMs: 5_000 })).output).toEqual({
      outcome: 'held',
    });
    expect((await jobs.settled(queue, written.id, { timeoutMs: 5_000 })).output).toEqual({
      outcome: 'written',
    });
    const { rows } = await database.execute(
      `SELECT id, output FROM pgboss.job WHERE name = $1 ORDER BY created_on`,
      [queue.name],
    );
    expect(rows.map((row) => row.output)).toEqual([{ outcome: 'held' }, { outcome: 'written' }]);
  });

  it('hands what the inserting statement read to the first try it starts here, and to no try after', async () => {
    const queue = await newQueue({ tries: 2, pollMs: 100 });
    const jobs = newJobs();
    const tries: unknown[] = [];
    jobs.work(queue, async (job) => {
      tries.push(job.prefetched);
      if (job.attempt === 1) throw new Error('the first try fails');
    });
    await jobs.start();
    const sent = await jobs.within(queue, async (slot) => {
      await insertWithin(slot, { n: 1 }, 'p');
      return slot.send({ n: 1 }, { key: 'p', prefetched: { read: 'by the statement' } });
    });
    expect((await jobs.settled(queue, sent.id, { timeoutMs: 10_000 })).state).toBe('completed');
    expect(tries).toEqual([{ read: 'by the statement' }, undefined]);
  });

  it('sends as `send` does what a statement could not insert (its key runs), and starts what it inserted if the work fails', async () => {
    const queue = await newQueue();
    const jobs = newJobs();
    const gate = createGate();
    const runs: string[] = [];
    jobs.work(queue, async ({ data }) => {
      runs.push(String(data.label));
      if (data.label === 'a1') await gate.opened;
    });
    await jobs.start();
    const a1 = await jobs.send(queue, { label: 'a1' }, { key: 'a' });
    const a2 = await jobs.within(queue, async (slot) => {
      expect(await insertWithin(slot, { label: 'a2' }, 'a')).toBeNull();
      return slot.send({ label: 'a2' }, { key: 'a' });
    });
    expect(await stateOf(queue, a2.id)).toBe('created');
    const failure = new Error('after its statement');
    let b1 = '';
    await expect(
      jobs.within(queue, async (slot) => {
        b1 = (await insertWithin(slot, { label: 'b1' }, 'b'))!.id;
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect((await jobs.settled(queue, b1, { timeoutMs: 5_000 })).state).toBe('completed');
    gate.open();
    for (const id of [a1.id, a2.id])
      expect((await jobs.settled(queue, id, { timeoutMs: 5_000 })).state).toBe('completed');
    expect(runs).toEqual(['a1', 'b1', 'a2']);
  });

  it('keeps its schedules in the database, one row a queue whatever the instances', async () => {
    const queue = await newQueue();
    for (let i = 0; i < 2; i += 1) {
      const jobs = newJobs();
      jobs.work(queue, async () => {});
      jobs.schedule(queue, '*/5 * * * *');
      await jobs.start();
    }
    const { rows } = await database.execute(
      `SELECT cron, timezone FROM pgboss.schedule WHERE name = $1`,
      [queue.name],
    );
    expect(rows).toEqual([{ cron: '*/5 * * * *', timezone: 'UTC' }]);
  });

  it('counts each queue’s jobs waiting, running, and failed in the last hour', async () => {
    const queue = await newQueue();
    const jobs = newJobs();
    const gate = createGate();
    let runningNow!: () => void;
    const running = new Promise<void>((resolve) => (runningNow = resolve));
    jobs.work(queue, async ({ data }) => {
      if (data.fail) throw new Error('no');
      runningNow();
      await gate.opened;
    });
    await jobs.start();
    const failed = await jobs.send(queue, { fail: true }, { key: 'x' });
    expect((await jobs.settled(queue, failed.id, { timeoutMs: 5_000 })).state).toBe('failed');
    await jobs.send(queue, {}, { key: 'y' });
    await running;
    await jobs.send(queue, {}, { key: 'y' });
    expect((await jobs.figures()).find((f) => f.queue === queue.name)).toEqual({
      queue: queue.name,
      waiting: 1,
      active: 1,
      failedLastHour: 1,
    });
    gate.open();
  });
});

/**
 * A job as a process killed mid-try leaves it: running, marked as taken by a process that is gone
 * (on PostgreSQL, no session holds its lock). Its id.
 */
async function leftRunningByAGoneProcess(queue: { name: string }): Promise<string> {
  const { rows } = await database.execute(
    `INSERT INTO pgboss.job (name, data, state, started_on, retry_limit, retry_delay, retry_backoff, policy, output)
     VALUES ($1, '{}', 'active', now(), 1, 1, true, 'stately',
       jsonb_build_object('owner', 'a-process-that-is-gone'))
     RETURNING id`,
    [queue.name],
  );
  return String(rows[0]!.id);
}

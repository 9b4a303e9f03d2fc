import { createHash } from 'node:crypto';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

// A feature's own statement may send the job its write calls for, or mark done the job it ends,
// in the same round trip as the write: the SQL of both, over pg-boss's job table, for the CTEs of
// such a statement (lib/jobs.ts makes their parameters, `JobSlot` and `Job.completeWithin`). The
// SQL is built from Drizzle placeholders, so that the statement is prepared once.

/** pg-boss's schema (as in lib/jobs.ts). */
const JOB = sql`pgboss.job`;

/**
 * The table of `queue`'s jobs: pg-boss keeps each queue's in a partition of pgboss.job, named as
 * its create_queue names it. A statement on it is planned for that one table; on pgboss.job,
 * PostgreSQL plans it for every partition at each run (a custom plan, to prune them), which cost
 * more than the update itself.
 */
function jobTable(queue?: string): SQL {
  if (queue === undefined) return JOB;
  const partition = `j${createHash('sha224').update(queue).digest('hex')}`;
  return sql`${sql.identifier('pgboss')}.${sql.identifier(partition)}`;
}

/** The values of `jobInsertSql`'s placeholders (a slot's `params()`). */
export type JobInsertParams = {
  jobQueue: string;
  jobOwner: string;
  /** Whether the job is to be inserted at all: room was held for it here. */
  jobClaim: boolean;
  jobRetryLimit: number;
  jobRetryDelay: number;
  jobExpire: number;
};

/** The values of `jobCompletionSql`'s placeholders (a job's `completeWithin(…).params`). */
export type JobCompletionParams = {
  jobQueue: string;
  jobOwner: string;
  /** Null: the statement marks no job done. */
  jobId: string | null;
  /** JSON: what the job is kept with once done. */
  jobOutput: string;
  /**
   * JSON: what it is kept with instead when the statement's guard held its write back (see
   * `jobCompletionSql`'s `held`); null: `jobOutput` all the same.
   */
  jobOutputHeld: string;
};

/** Parameters that insert no job: for a statement that sends none this time. */
export const NO_JOB_INSERT: JobInsertParams = {
  jobQueue: '',
  jobOwner: '',
  jobClaim: false,
  jobRetryLimit: 0,
  jobRetryDelay: 0,
  jobExpire: 0,
};

/** Parameters that mark no job done. */
export const NO_JOB_COMPLETION: JobCompletionParams = {
  jobQueue: '',
  jobOwner: '',
  jobId: null,
  jobOutput: 'null',
  jobOutputHeld: 'null',
};

/**
 * The body of a CTE inserting, for the row of `from` (none, no job), a stately job with `data`
 * and `key`, already running as this process's (as lib/jobs.ts's own insert of a job with room
 * held here), when `jobClaim`; the unique index of running jobs refuses it (nothing inserted)
 * when a job of its key runs anywhere. Returns the job's `id`, `data` and `key` (a slot's
 * `inserted`).
 */
export function jobInsertSql({ from, data, key }: { from: SQL; data: SQL; key: SQL }): SQL {
  const p = (name: keyof JobInsertParams) => sql.placeholder(name);
  return sql`insert into ${JOB} (name, data, singleton_key, retry_limit, retry_delay, retry_backoff,
      expire_in, policy, state, started_on, output)
    select ${p('jobQueue')}::text, ${data}, ${key}, ${p('jobRetryLimit')}::int, ${p('jobRetryDelay')}::int,
      true, ${p('jobExpire')}::int * interval '1 second', 'stately', 'active', now(),
      jsonb_build_object('owner', ${p('jobOwner')}::text)
    from ${from} where ${p('jobClaim')}::boolean
    on conflict do nothing
    returning id, data, singleton_key as key`;
}

/**
 * The body of a CTE marking the job `jobId` done with `jobOutput`, if it still runs as this
 * process's (one taken back meanwhile is another try's now), as lib/jobs.ts's own completion.
 * With `held`, SQL true when the statement's guard held its write back (the job's work found
 * nothing to do after all), the job is kept with `jobOutputHeld` then. Returns its `id` when it
 * did.
 */
export function jobCompletionSql({
  held,
  queue,
}: {
  held?: SQL;
  /** The queue of the jobs it ends, when it is always the same one: the statement reads its table only. */
  queue?: string;
} = {}): SQL {
  const p = (name: keyof JobCompletionParams) => sql.placeholder(name);
  const output = held
    ? sql`case when ${held} and jsonb_typeof(${p('jobOutputHeld')}::jsonb) <> 'null'
        then ${p('jobOutputHeld')}::jsonb else ${p('jobOutput')}::jsonb end`
    : sql`${p('jobOutput')}::jsonb`;
  return sql`update ${jobTable(queue)} set completed_on = now(), state = 'completed', output = ${output}
    where name = ${p('jobQueue')}::text and id = ${p('jobId')}::uuid and state = 'active'
      and output->>'owner' = ${p('jobOwner')}::text
    returning id`;
}

/**
 * As `jobCompletionSql` for several jobs of `queue` in one statement: each row of `from` (an SQL
 * relation with `job_id uuid`, `job_owner text` and `job_output jsonb`) marks its job done with
 * its output, if it still runs as that owner's. The queue is the `jobQueue` placeholder. Returns
 * the `id` of each job it did.
 */
export function jobsCompletionSql({ queue, from }: { queue: string; from: SQL }): SQL {
  return sql`update ${jobTable(queue)} as j set completed_on = now(), state = 'completed', output = d.job_output
    from ${from} as d
    where j.name = ${sql.placeholder('jobQueue')}::text and ${byIds(sql`j.id`, sql`select job_id from ${from}`)}
      and j.id = d.job_id and j.state = 'active' and j.output->>'owner' = d.job_owner
    returning j.id`;
}

/**
 * `column` among the ids `ids` (a query of one uuid column) selects: said so, the rows are looked
 * up by their key. Joined to a set of rows the planner cannot count (a JSON record set, which it
 * takes for 100 rows), a table may otherwise be read whole (every job a queue keeps, finished ones
 * too) whenever its statistics are out of date or say few rows match.
 */
export function byIds(column: SQLWrapper, ids: SQL): SQL {
  return sql`${column} = any(array(${ids}))`;
}

/**
 * As `jobInsertSql`, but the job is inserted whatever room there is here: running here when
 * `jobClaim`, else waiting for whichever instance looks first. For work that must never be left
 * without its job (a message stored to be sent): the job exists exactly when its row does. Its key
 * must be one no other job of the queue has (a fresh row's id). Returns also whether it `running`.
 */
export function jobInsertOrWaitSql({
  from,
  data,
  key,
  prefix = '',
}: {
  from: SQL;
  data: SQL;
  key: SQL;
  /** Before each placeholder's name (see `prefixed`): a statement that also ends a job needs it. */
  prefix?: string;
}): SQL {
  const p = (name: keyof JobInsertParams) => sql.placeholder(`${prefix}${name}`);
  return sql`insert into ${JOB} (name, data, singleton_key, retry_limit, retry_delay, retry_backoff,
      expire_in, policy, state, started_on, output)
    select ${p('jobQueue')}::text, ${data}, ${key}, ${p('jobRetryLimit')}::int, ${p('jobRetryDelay')}::int,
      true, ${p('jobExpire')}::int * interval '1 second', 'stately',
      (case when ${p('jobClaim')}::boolean then 'active' else 'created' end)::pgboss.job_state,
      case when ${p('jobClaim')}::boolean then now() end,
      case when ${p('jobClaim')}::boolean then jsonb_build_object('owner', ${p('jobOwner')}::text) end
    from ${from}
    on conflict do nothing
    returning id, data, singleton_key as key, state = 'active' as running`;
}

/** `params` under their names with `prefix` before each (see `jobInsertOrWaitSql`'s `prefix`). */
export function prefixed(prefix: string, params: JobInsertParams): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).map(([name, value]) => [prefix + name, value]));
}

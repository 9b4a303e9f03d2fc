import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeSignal, until } from '../../test/eventually';
import { createServerDatabase } from '../../test/helpers';
import {
  guardInstance,
  INSTANCE_CHANNEL,
  INSTANCE_LOCK_KEY,
  InstanceRefusedError,
  MARK_APPLICATION_NAME,
  type GuardLogger,
  type InstanceGuard,
} from './instance-guard';

/**
 * Instances on one PostgreSQL database: several only with Redis (REDIS_URL). Each guard here
 * stands for an instance's (main.ts takes one at start); the processes themselves are in
 * test/process.int.test.ts. PGlite needs none: its DATA_DIR lock keeps it to one process.
 */

type Entry = { level: 'info' | 'warn' | 'error'; fields: object; message: string };

/** A logger keeping what a guard logs, and a wait for a line. */
function recordingLogger() {
  const entries: Entry[] = [];
  const signal = changeSignal();
  const line =
    (level: Entry['level']) =>
    (fields: object, message: string): void => {
      entries.push({ level, fields, message });
      signal.notify();
    };
  const logger: GuardLogger = { info: line('info'), warn: line('warn'), error: line('error') };
  return {
    logger,
    entries,
    /** The first line from `since` on that `match`es. */
    next: (match: (entry: Entry) => boolean, what: string, since = 0) =>
      until(() => entries.slice(since).find(match), { changes: signal.changes, what }),
  };
}

describe.runIf(process.env.TEST_DATABASE_URL)('the instance mark on PostgreSQL', () => {
  let url: string;
  let drop: () => Promise<void>;
  let admin: pg.Client;
  const guards: InstanceGuard[] = [];

  beforeAll(async () => {
    ({ url, drop } = await createServerDatabase(
      process.env.TEST_DATABASE_URL!,
      'contrateia_guard',
    ));
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });
  afterEach(async () => {
    await Promise.all(guards.splice(0).map((guard) => guard.close()));
  });
  afterAll(async () => {
    await admin?.end();
    await drop?.();
  });

  async function start(sharedState: boolean, logger = recordingLogger().logger) {
    const guard = await guardInstance({ url, sharedState, logger, retryMs: 20 });
    guards.push(guard);
    return guard;
  }

  /** The notices sent on the instances' channel, heard by the admin's connection. */
  function recordingNotices() {
    const payloads: string[] = [];
    const signal = changeSignal();
    admin.on('notification', (message) => {
      payloads.push(message.payload ?? '');
      signal.notify();
    });
    return {
      next: (what: string) => until(() => payloads[0], { changes: signal.changes, what }),
    };
  }

  async function refusal(sharedState: boolean): Promise<string> {
    const error = await start(sharedState).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(InstanceRefusedError);
    return (error as Error).message;
  }

  /** The server process id of the connection holding the mark (one at a time here). */
  async function markBackend(): Promise<number> {
    const { rows } = await admin.query<{ pid: number }>(
      `select pid from pg_stat_activity
        where datname = current_database() and application_name = $1`,
      [MARK_APPLICATION_NAME],
    );
    expect(rows).toHaveLength(1);
    return rows[0]!.pid;
  }

  it('without Redis, a second instance is refused naming REDIS_URL, and the first logs it once', async () => {
    const first = recordingLogger();
    await start(false, first.logger);

    expect(await refusal(false)).toBe(
      'Another ContrateIA instance is running on this database; several instances need REDIS_URL (shared state): set it on every instance.',
    );
    const warning = await first.next((e) => e.level === 'warn', 'the warning of the first');
    expect(warning.message).toMatch(/another ContrateIA instance tried to start .*REDIS_URL/);
    expect(warning.fields).toEqual({
      other: { host: expect.any(String), pid: process.pid, redis: false },
    });

    // A second attempt is a second warning: one per refused start, nothing in between.
    await refusal(false);
    await first.next((e) => e.level === 'warn', 'the warning of the second attempt', 1);
    expect(first.entries.map((e) => e.level)).toEqual(['warn', 'warn']);
  });

  it('the mark goes with its connection: once the first stops, the next one starts', async () => {
    const first = await start(false);
    await refusal(false);
    await first.close();
    await start(false);
  });

  it('with Redis, any number of instances run; one without Redis is refused beside them, and they log it', async () => {
    const a = recordingLogger();
    await start(true, a.logger);
    await start(true);
    await start(true);

    expect(await refusal(false)).toMatch(/several instances need REDIS_URL/);
    const warning = await a.next(
      (e) => e.level === 'warn',
      'the warning of an instance with Redis',
    );
    expect(warning.fields).toEqual({
      other: { host: expect.any(String), pid: process.pid, redis: false },
    });
  });

  it('beside an instance without Redis, one with Redis is refused too, told to set it on the other', async () => {
    const alone = recordingLogger();
    await start(false, alone.logger);
    expect(await refusal(true)).toBe(
      'A ContrateIA instance without REDIS_URL is running on this database; instances sharing a database need REDIS_URL (shared state): set it on that one too.',
    );
    const warning = await alone.next((e) => e.level === 'warn', 'the warning of the one alone');
    expect(warning.fields).toEqual({
      other: { host: expect.any(String), pid: process.pid, redis: true },
    });
  });

  it('takes the mark again when its connection is cut (a database restart), and logs both', async () => {
    const running = recordingLogger();
    await start(false, running.logger);
    await admin.query('select pg_terminate_backend($1)', [await markBackend()]);

    const lost = await running.next((e) => e.level === 'warn', 'the loss logged');
    expect(lost.message).toMatch(/ended; taking the mark again/);
    await running.next((e) => e.level === 'info', 'the mark taken again');
    // Held again: a second instance is still refused.
    await refusal(false);
  });

  it('if another instance took the mark while the connection was down: an error on both sides, once, and the mark is taken when free', async () => {
    const running = recordingLogger();
    await start(false, running.logger);
    const notices = recordingNotices();
    await admin.query(`listen ${INSTANCE_CHANNEL}`);
    // The admin's connection plays the other instance: it asks for the lock as soon as the
    // connection holding it is cut, so it has it before the guard can connect again.
    await admin.query('select pg_terminate_backend($1)', [await markBackend()]);
    await admin.query('select pg_advisory_lock($1)', [INSTANCE_LOCK_KEY]);

    const error = await running.next((e) => e.level === 'error', 'the error of the one cut off');
    expect(error.message).toMatch(/another ContrateIA instance took this database/);
    const notice = await notices.next('the notice to the other');
    expect(JSON.parse(notice)).toEqual({
      event: 'unmarked',
      host: expect.any(String),
      pid: process.pid,
      redis: false,
    });

    await admin.query('select pg_advisory_unlock($1)', [INSTANCE_LOCK_KEY]);
    await running.next((e) => e.level === 'info', 'the mark taken once free');
    // Tried again and again while the other held it; said once.
    expect(running.entries.filter((e) => e.level === 'error')).toHaveLength(1);
    await refusal(false);
  });

  it('an instance that hears of another running without its mark logs an error', async () => {
    const running = recordingLogger();
    await start(true, running.logger);
    await admin.query('select pg_notify($1, $2)', [
      INSTANCE_CHANNEL,
      JSON.stringify({ event: 'unmarked', host: 'elsewhere', pid: 42, redis: false }),
    ]);
    // Not one of ours: ignored.
    await admin.query('select pg_notify($1, $2)', [INSTANCE_CHANNEL, 'hello']);
    const error = await running.next((e) => e.level === 'error', 'the error heard');
    expect(error.message).toMatch(/runs on this database without its mark/);
    expect(error.fields).toEqual({ other: { host: 'elsewhere', pid: 42, redis: false } });
  });
});

import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { createWorkGate } from './work-gate';

/** A piece of work that ends when the test says. */
function held() {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  let started = false;
  return { work: () => ((started = true), done), release, started: () => started };
}

describe('work gate', () => {
  it('runs at most `running` at once, queues `waiting` more, and refuses the rest with a 429 and Retry-After', async () => {
    const gate = createWorkGate({
      running: 2,
      waiting: 1,
      retryAfterSeconds: 5,
      key: 'errors.imagesBusy',
    });
    const jobs = [held(), held(), held()];
    const runs = jobs.map((job) => gate.run(job.work));
    expect(jobs.map((job) => job.started())).toEqual([true, true, false]);

    let refused: unknown;
    try {
      await gate.run(async () => 'never');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      statusCode: 429,
      key: 'errors.imagesBusy',
      headers: { 'retry-after': '5' },
      params: { count: 5 },
    });
    expect(() => gate.assertRoom()).toThrow(AppError);

    // A slot freed: the queued one starts, and there is room in line again.
    jobs[0]!.release();
    await runs[0];
    await expect.poll(() => jobs[2]!.started()).toBe(true);
    expect(() => gate.assertRoom()).not.toThrow();
    const fourth = gate.run(async () => 'ran');
    for (const job of jobs) job.release();
    await expect(fourth).resolves.toBe('ran');
    await Promise.all(runs);
  });

  it('passes a failure of the work to its caller and frees the slot', async () => {
    const gate = createWorkGate({
      running: 1,
      waiting: 0,
      retryAfterSeconds: 1,
      key: 'errors.imagesBusy',
    });
    await expect(gate.run(async () => Promise.reject(new Error('broken')))).rejects.toThrow(
      'broken',
    );
    await expect(gate.run(async () => 'next')).resolves.toBe('next');
  });
});

import { describe, expect, it } from 'vitest';
import { grouped } from './grouped';

/** A run that waits until the test lets it finish, recording what each run carried. */
function controlledRun() {
  const runs: { items: number[]; finish: (error?: Error) => void }[] = [];
  const run = (items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      runs.push({
        items,
        finish: (error) => (error ? reject(error) : resolve(items.map((n) => `answer ${n}`))),
      });
    });
  return { runs, run };
}

describe('grouped', () => {
  it('runs a lone call at once, and the calls made meanwhile together next, in order, at most maxItems at a time', async () => {
    const { runs, run } = controlledRun();
    const call = grouped(run, 3);
    const first = call(1);
    expect(runs.map((r) => r.items)).toEqual([[1]]);
    const later = [2, 3, 4, 5].map((n) => call(n));
    // Nothing else runs while the first run is under way.
    expect(runs).toHaveLength(1);
    runs[0]!.finish();
    expect(await first).toBe('answer 1');
    await expect.poll(() => runs.length).toBe(2);
    expect(runs[1]!.items).toEqual([2, 3, 4]);
    runs[1]!.finish();
    await expect.poll(() => runs.length).toBe(3);
    expect(runs[2]!.items).toEqual([5]);
    runs[2]!.finish();
    expect(await Promise.all(later)).toEqual(['answer 2', 'answer 3', 'answer 4', 'answer 5']);
  });

  it('fails every call of a run that fails, and goes on with the next ones', async () => {
    const { runs, run } = controlledRun();
    const call = grouped(run, 10);
    const first = call(1);
    const second = [call(2), call(3)];
    runs[0]!.finish(new Error('database away'));
    await expect(first).rejects.toThrow('database away');
    await expect.poll(() => runs.length).toBe(2);
    runs[1]!.finish();
    expect(await Promise.all(second)).toEqual(['answer 2', 'answer 3']);
    // Idle again: the next call runs at once.
    const third = call(4);
    expect(runs[2]!.items).toEqual([4]);
    runs[2]!.finish();
    expect(await third).toBe('answer 4');
  });

  it('runs each call of a failed run again on its own, in order, when retryAlone blames an item: only that call fails', async () => {
    const { runs, run } = controlledRun();
    const refused = (error: unknown) => error instanceof Error && error.message === 'value refused';
    const call = grouped(run, 10, { retryAlone: refused });
    const first = call(1);
    const rest = Promise.allSettled([2, 3, 4].map((n) => call(n)));
    runs[0]!.finish();
    await first;
    await expect.poll(() => runs.length).toBe(2);
    expect(runs[1]!.items).toEqual([2, 3, 4]);
    runs[1]!.finish(new Error('value refused'));
    for (const [index, n] of [2, 3, 4].entries()) {
      await expect.poll(() => runs.length).toBe(3 + index);
      expect(runs[2 + index]!.items).toEqual([n]);
      runs[2 + index]!.finish(n === 3 ? new Error('value refused') : undefined);
    }
    expect(await rest).toEqual([
      { status: 'fulfilled', value: 'answer 2' },
      { status: 'rejected', reason: new Error('value refused') },
      { status: 'fulfilled', value: 'answer 4' },
    ]);
  });

  it('fails every call of a failed run at once when retryAlone does not blame an item (the database away)', async () => {
    const { runs, run } = controlledRun();
    const call = grouped(run, 10, {
      retryAlone: (error) => error instanceof Error && error.message === 'value refused',
    });
    const first = call(1);
    const rest = [call(2), call(3)];
    runs[0]!.finish();
    await first;
    await expect.poll(() => runs.length).toBe(2);
    runs[1]!.finish(new Error('database away'));
    for (const pending of rest) await expect(pending).rejects.toThrow('database away');
    expect(runs).toHaveLength(2);
  });
});

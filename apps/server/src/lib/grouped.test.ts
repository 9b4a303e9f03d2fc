import { describe, expect, it } from 'vitest';
import { grouped } from './grouped';

/** A run that waits until the test lets it finish, recording what each run carried. */
function controlledRun() {
  const runs: { items: number[]; finish: (error?: Error) => void }[] = [];
  const run = (items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      runs.push({ items, finish: (error) => (error ? reject(error) : resolve(items.map((n) => `answer ${n}`))) });
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
});
